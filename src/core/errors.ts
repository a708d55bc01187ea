import { EXIT_USAGE, exitCodeFor } from "./exit-codes.js";

/** An error that carries the exit code agentstream must end with. */
export class AgentstreamError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    readonly hint?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** agentstream was called wrongly (bad flags, unreadable input file): exit 2, nothing spawned. */
export class UsageError extends AgentstreamError {
  constructor(message: string, hint?: string) {
    super(message, EXIT_USAGE, hint);
  }
}

/**
 * How one side spells a run option given by its library name: "--max-turns" on the CLI, "option maxTurns" in
 * the library. Given values, a list option given them: "--backend-arg=--sandbox --backend-arg=MODE" on the
 * CLI, 'option backendArgs ["--sandbox", "MODE"]' in the library.
 */
export type OptionNaming = (option: string, values?: readonly string[]) => string;

/** Words with the options they name left open: each side words them with its naming. */
export type Worded = (name: OptionNaming) => string;

/**
 * Words for the user that may name agentstream's own options (a backend's reason, a note): plain, or, where
 * they name one ("use --cwd DIR"), worded, so that the CLI says its flags and the library its options.
 */
export type Words = string | Worded;

/** Words as one side says them. */
export function wordedWith(words: Words, name: OptionNaming): string {
  return typeof words === "string" ? words : words(name);
}

/** Values as the library's callers write them: ["--sandbox", "MODE"]. */
export const listed = (values: readonly string[]): string => `[${values.map((v) => JSON.stringify(v)).join(", ")}]`;

const bare: OptionNaming = (option, values) => (values === undefined ? option : `${option} ${listed(values)}`);

/**
 * A UsageError about run options, worded with their names left open: the CLI words it with its flags,
 * the library with its option names (src/app/options.ts spells both). Its own message names them bare.
 */
export class OptionError extends UsageError {
  constructor(
    private readonly say: Worded,
    private readonly sayHint?: Worded,
  ) {
    super(say(bare), sayHint?.(bare));
  }

  /** The same error, its options named as one side spells them. */
  wordedAs(name: OptionNaming, prefix = ""): UsageError {
    return new UsageError(`${prefix}${this.say(name)}`, this.sayHint?.(name));
  }
}

/**
 * An output refused where it is opened, by what no option check sees (an OTLP endpoint the environment names):
 * said as is by the CLI, whose flags may not be the option (export otlp's --endpoint); the library adds which of
 * its options asked for it (src/lib/options.ts asLibraryError).
 */
export class OutputRefused extends UsageError {
  constructor(
    readonly option: string,
    message: string,
    hint?: string,
  ) {
    super(message, hint);
  }
}

/** A stop signal before anything started (while the prompt was read): exit 130 or 143, nothing on stdout. */
export class StoppedBeforeStart extends AgentstreamError {
  /** `while_`: what was being done, worded where it names an option ("reading --output-schema FILE"). */
  constructor(
    private readonly signal: "SIGINT" | "SIGTERM" | "SIGHUP",
    private readonly while_: Words,
  ) {
    super(
      `${signal} while ${wordedWith(while_, bare)}: nothing was started`,
      exitCodeFor("cancelled", undefined, signal === "SIGINT" ? "SIGINT" : "SIGTERM"),
    );
  }

  /** The same stop, the options its words name spelt as one side spells them. */
  wordedAs(name: OptionNaming): StoppedBeforeStart {
    return new StoppedBeforeStart(this.signal, wordedWith(this.while_, name));
  }
}
