import { OptionError, type OptionNaming } from "../core/errors.js";
import { checkName, checkPassable } from "../core/argv-value.js";
import type { BackendDefinition, BackendRequest, CommonFlag } from "./definition.js";

/** Each common flag as the run option it stands for (the library's name), and what it is called in a sentence. */
const COMMON_FLAG_OPTIONS: Record<CommonFlag, { option: string; noun: (name: OptionNaming) => string }> = {
  model: { option: "model", noun: () => "model flag" },
  provider: { option: "provider", noun: () => "provider flag" },
  workdir: { option: "workdir", noun: () => "workdir flag" },
  noAutoMode: { option: "autoMode", noun: (name) => `${name("autoMode")} flag` },
};

type Wanted = Omit<BackendRequest, "prompt" | "promptTerminator">;

function asked(request: Wanted): CommonFlag[] {
  const flags: CommonFlag[] = [];
  if (request.model !== undefined) flags.push("model");
  if (request.provider !== undefined) flags.push("provider");
  if (request.workdir !== undefined) flags.push("workdir");
  if (!request.autoMode) flags.push("noAutoMode");
  return flags;
}

/**
 * Refuse common flags the chosen backend does not take, and values no backend can be given (a model
 * that would be read as a flag, a NUL byte), before anything is spawned.
 */
export function checkRequestFits(backend: BackendDefinition, request: Wanted, all: readonly BackendDefinition[]): void {
  if (request.model !== undefined) checkName(COMMON_FLAG_OPTIONS.model.option, request.model);
  if (request.provider !== undefined) checkName(COMMON_FLAG_OPTIONS.provider.option, request.provider);
  if (request.workdir !== undefined) checkPassable(COMMON_FLAG_OPTIONS.workdir.option, request.workdir);
  for (const [i, arg] of request.backendArgs.entries()) checkPassable("backendArgs", arg, `(argument ${i + 1})`);
  for (const flag of asked(request)) {
    if (backend.flags[flag] !== undefined) continue;
    const takers = all.filter((b) => b.flags[flag] !== undefined).map((b) => b.displayName);
    const others = takers.length > 0 ? ` (${takers.join(" and ")} ${takers.length > 1 ? "have" : "has"} it)` : "";
    const { option, noun } = COMMON_FLAG_OPTIONS[flag];
    const hint = backend.refusalHints?.[flag];
    throw new OptionError(
      (name) => `${name(option)}: ${backend.displayName} has no ${noun(name)}${others}`,
      hint === undefined ? undefined : () => hint,
    );
  }
}
