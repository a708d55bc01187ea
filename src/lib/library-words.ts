// A refusal the library throws names its options as the library spells them. An OptionError is worded
// so from the start (libraryNaming); what its text quotes from a table written once in the CLI's words
// (why a backend lacks an option, what to use instead: `use --cwd DIR`, `--backend-arg=--sandbox`) is
// reworded here, each of agentstream's flags as the option the table (src/app/options.ts) gives it. A
// backend's own flags (Codex's --sandbox, Copilot CLI's --no-ask-user) stay: they are its, not ours.
import { libraryNaming, longFlag, RUN_OPTIONS } from "../app/options.js";

/** Each flag of agentstream's that the library has an option for, to that option's name. */
const OPTION_OF_FLAG: ReadonlyMap<string, string> = new Map(
  RUN_OPTIONS.flatMap((row) => (row.cli && row.library !== undefined ? [[longFlag(row.cli), row.key] as const] : [])),
);

// In order: a quoted value (the caller's own, left as given); one or more --backend-arg=VALUE in a row
// (their values become the array the library takes); any other flag.
const WORDS =
  /("(?:[^"\\]|\\.)*")|(--backend-arg=[^\s),;]+(?:\s+--backend-arg=[^\s),;]+)*)|(?<![\w-])(--[a-z][\w-]*)(?![\w=-])/g;

/** TEXT with agentstream's flags named as the library names its options: `--cwd` → `option cwd`. */
export function libraryWords(text: string): string {
  return text.replace(WORDS, (whole, quoted?: string, backendArgs?: string, flag?: string) => {
    if (quoted !== undefined) return quoted;
    if (backendArgs !== undefined) {
      const values = backendArgs.split(/\s+/).map((arg) => JSON.stringify(arg.slice("--backend-arg=".length)));
      return `${libraryNaming("backendArgs")} [${values.join(", ")}]`;
    }
    const option = OPTION_OF_FLAG.get(flag!);
    return option === undefined ? whole : libraryNaming(option);
  });
}
