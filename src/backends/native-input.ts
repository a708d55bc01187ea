// A run's portable options turned into what the backend gets, each by its `supports` entry: the argv
// (placed by the backend's layout), the variables over the caller's environment, the files written for
// the run. Nothing else writes a backend's flags for them, so what --help says is what it gets.
import type { ArgvFacet } from "./definition.js";
import { askedOf, type PortableOption, type PortableRequest } from "./request.js";
import {
  reaches,
  supportOf,
  type ArgvFrame,
  type NativeInput,
  type PlacedOptions,
  type RunContext,
  type RunFileInput,
} from "./support.js";

/** Where run writes a file for the run, or undefined where it writes none (the executable was not found). */
export type PlaceFile = (file: RunFileInput) => string | undefined;

/** What one run's portable options give the backend. */
export interface Reached {
  /** Variables the options set, over the caller's environment. */
  env: Record<string, string>;
  /** The prompt as the backend gets it, given the user's (unchanged unless an option words itself into it). */
  prompt(prompt: string): string;
  /** Whether this option reaches the backend in the prompt's words (--output-schema where it has no native means). */
  inPrompt(option: PortableOption): boolean;
  /** The argv for this frame (without the executable). */
  argv(frame: ArgvFrame): string[];
  /** The option that put this argument among the backend's flags, if one did. */
  optionOf(arg: string): PortableOption | undefined;
  /** The option that set this variable, if one did. */
  variableOption(name: string): PortableOption | undefined;
}

/**
 * Each option's entry given its value (or, not asked, its `otherwise`). The request's lacks were refused
 * before (src/backends/portable-options.ts, once, in planning); an asked option the backend lacks is never
 * dropped: meeting one here is a bug, said at once.
 */
export function reachBackend(
  backend: ArgvFacet,
  request: PortableRequest,
  env: NodeJS.ProcessEnv,
  placeFile: PlaceFile = () => undefined,
): Reached {
  const run: RunContext = { asked: askedOf(request), env };
  const lacked = (Object.keys(run.asked) as PortableOption[]).find((option) => {
    const support = supportOf(backend.supports, option, run.asked[option]);
    return run.asked[option] !== undefined && support !== undefined && !reaches(support);
  });
  if (lacked !== undefined) throw new Error(`${backend.name} lacks ${lacked}, which was asked and not refused`);
  const inputs = new Map<PortableOption, NativeInput>();
  // In the order the backend declares them: the order their arguments take.
  for (const option of Object.keys(backend.supports) as PortableOption[]) {
    const value = run.asked[option];
    const support = supportOf(backend.supports, option, value);
    if (support === undefined || !reaches(support)) continue;
    const input =
      value === undefined
        ? support.otherwise?.(run)
        : (support.reaches as (v: unknown, r: RunContext) => NativeInput)(value, run);
    if (input !== undefined) inputs.set(option, input);
  }
  const args = new Map<PortableOption, string[]>();
  for (const [option, input] of inputs) {
    const path = input.file === undefined ? undefined : placeFile(input.file);
    args.set(option, [...(input.args ?? []), ...(path === undefined ? [] : input.file!.args(path))]);
  }
  const all = [...inputs.values()];
  return {
    env: Object.assign({}, ...all.map((input) => input.env ?? {})) as Record<string, string>,
    prompt: (prompt) => all.reduce((text, input) => input.prompt?.(text) ?? text, prompt),
    inPrompt: (option) => inputs.get(option)?.prompt !== undefined,
    optionOf: (arg) => [...args].find(([, given]) => given.includes(arg))?.[0],
    variableOption: (name) => [...inputs].find(([, input]) => input.env?.[name] !== undefined)?.[0],
    argv: (frame) => {
      const left = new Map(args);
      const placed: PlacedOptions = {
        flags: (...options) =>
          (options.length > 0 ? options : [...left.keys()]).flatMap((option) => {
            const given = left.get(option) ?? [];
            left.delete(option);
            return given;
          }),
        subcommand: all.flatMap((input) => input.subcommand ?? []),
        operands: all.flatMap((input) => input.operands ?? []),
      };
      const argv = backend.layout(frame, placed);
      const lost = [...left].filter(([, given]) => given.length > 0).map(([option]) => option);
      if (lost.length > 0) throw new Error(`${backend.name}'s argv layout leaves out ${lost.join(", ")}`);
      return argv;
    },
  };
}
