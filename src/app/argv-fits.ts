// A planned command line that the system would refuse (E2BIG) is refused before anything starts, naming
// what made it too long: the prompt (with a schema added to it), a flag's value (Claude Code's
// --json-schema, a rule list), a --backend-arg, the environment.
import type { BackendDefinition } from "../backends/definition.js";

/** What the check reads of the backend: its name for people, whether it is driven, whether it speaks ACP. */
type Checked = Pick<BackendDefinition, "displayName" | "driver" | "acpMode">;
import type { Reached } from "../backends/native-input.js";
import type { PortableOption } from "../backends/request.js";
import { OptionError, type OptionNaming } from "../core/errors.js";
import { argvOverflow } from "../run/argv-limit.js";

type Worded = (name: OptionNaming) => string;

/** What the planned argv was made of: the prompt as the backend gets it, and where its arguments came from. */
export interface ArgvSources {
  prompt: string;
  reached: Reached;
  backendArgs: readonly string[];
}

/** Throws an OptionError (exit 2) when `file args...` with `env` would not fit the system's limits. */
export function checkArgvFits(
  definition: Checked,
  file: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  sources: ArgvSources,
): void {
  const overflow = argvOverflow(file, args, env);
  if (overflow === undefined) return;
  const who = definition.displayName;
  switch (overflow.kind) {
    case "argument": {
      const [what, hint] = describe(args[overflow.index]!, definition, sources);
      throw new OptionError(
        (name) =>
          `${what(name)} is too long for the command line: ${overflow.bytes} bytes, where ${who} gets it as one argument of at most ${overflow.limit} bytes (128 KiB)`,
        hint,
      );
    }
    case "environment": {
      const option = sources.reached.variableOption(overflow.name);
      const [what, hint]: [Worded, Worded] = option
        ? optionArgument(option, definition)
        : [() => `the environment variable ${overflow.name}`, () => `unset or shorten ${overflow.name}`];
      throw new OptionError(
        (name) =>
          `${what(name)} ${option ? `(${who} gets it in ${overflow.name}) ` : ""}is too long for a program's environment: ${overflow.bytes} bytes, where the system takes at most ${overflow.limit} bytes (128 KiB) per variable`,
        hint,
      );
    }
    case "total":
      throw new OptionError(
        () =>
          `${who}'s command line and environment are too long for the system: ${overflow.bytes} bytes (the environment ${overflow.environmentBytes} of them), where it takes at most ${overflow.limit} bytes`,
        (name) =>
          `shorten the prompt, the ${name("backendArgs")} values or the environment: together they must fit the system's limit (getconf ARG_MAX)`,
      );
  }
}

/** What an over-long argument is, and what to do about it. */
function describe(arg: string, definition: Checked, sources: ArgvSources): [Worded, Worded] {
  const option = sources.reached.optionOf(arg);
  if (option !== undefined) return optionArgument(option, definition);
  if (sources.backendArgs.includes(arg))
    return [
      (name) => `one of the ${name("backendArgs")} values`,
      () => "shorten it, or put what it holds in a file the backend reads",
    ];
  if (sources.prompt !== "" && arg.includes(sources.prompt)) {
    const acp = overAcp(definition);
    if (sources.reached.inPrompt("outputSchema"))
      return [
        (name) => `the prompt with ${name("outputSchema")}'s schema added to it`,
        (name) =>
          `give a shorter prompt or a smaller schema (no descriptions, no examples)${acp ? `, or ${acp(name)}` : ""}`,
      ];
    return [
      () => "the prompt",
      (name) =>
        `put the long text in a file the agent can read (in ${name("cwd")}) and name that file in a short prompt${acp ? `, or ${acp(name)}` : ""}`,
    ];
  }
  return [() => `an argument of ${definition.displayName}'s command line`, () => "shorten what it came from"];
}

function optionArgument(option: PortableOption, definition: Checked): [Worded, Worded] {
  switch (option) {
    case "outputSchema":
      return [
        (name) => `${name("outputSchema")}'s schema`,
        () =>
          `give a smaller schema (no descriptions, no examples): ${definition.displayName} takes it as one argument`,
      ];
    case "allowTools":
    case "denyTools":
      return [
        (name) => `the list of ${name("allowTools")} and ${name("denyTools")} rules`,
        () => "give fewer or shorter rules (a pattern that covers many)",
      ];
    default:
      return [() => `the value agentstream gives ${definition.displayName} for ${option}`, () => "shorten that value"];
  }
}

/** How the backend could take the prompt on its stdin instead, where it speaks ACP and is not driven so yet. */
function overAcp(definition: Checked): Worded | undefined {
  if (definition.acpMode === undefined || definition.driver) return undefined;
  return (name) =>
    `${name("transport")} acp: ${definition.displayName} then gets the prompt on its stdin, where this limit does not apply`;
}
