// An option of run and normalize as the option table declares it, once (one row): the request's field and its
// lifetime, the CLI's flag, the library's entry points, its check, its default, its relations, and, for an
// option a backend is given (portable), its backend value. `optionTable` makes a table of rows: the
// CLI's options, the library's checks, the request and the backend's request are read from it (src/app/options.ts
// holds agentstream's; src/backends/portable-rows.ts the portable rows among them).
import { checkName, checkPassable } from "./argv-value.js";
import { listed, type OptionNaming, type Words } from "./errors.js";
import type { Check } from "./option-values.js";

export type Command = "run" | "normalize" | "compare";

/** The library's entry points: run(), normalizeStream() and compare(). */
export type LibraryEntry = "run" | "normalizeStream" | "compare";

/**
 * When a value is used, which decides where the request hands it: what to run (agent), how native events
 * become canonical (translation), what stops the run (limits, timing), where the events go (outputs), what
 * the caller supplies and hears (host), what a recording's run was (recording), how many runs are made and
 * compared (compare).
 */
export type Lifetime = "agent" | "translation" | "limits" | "timing" | "outputs" | "host" | "recording" | "compare";

/** The backends that have an option (one choice of it), each with how it reaches them: what a portable row's --help says. */
export interface Takers {
  (option: string, choice?: string): { displayName: string; via: string }[];
  /** How many backends there are. */
  readonly count: number;
}

/** An option's --help line: its text, or (a portable row) made from the backends that take it. */
export type HelpText = string | ((takers: Takers) => string);

/** An option as the CLI has it: what commander is given. */
export interface CliOption {
  /** Commander's flags, as --help shows them: "--max-turns <n>", "-q, --quiet". */
  flags: string;
  help: HelpText;
  commands: readonly Command[];
  /** Turns the text given into the request's value; throws an Error saying what was expected. None: the check's. */
  parse?: (text: string, previous: unknown) => unknown;
  choices?: readonly string[];
  /** Commander is given the row's default and --help shows it, as the row's check shows it (else as commander does). */
  showDefault?: true;
  /** The request's value of what commander parsed, where the two differ in shape (--otlp's URL or nothing). */
  toRequest?: (parsed: unknown) => unknown;
}

/** Two options that cannot be given together (`value`: only when the other has this value). */
export interface Excludes {
  excludes: string;
  value?: string;
}

/** An option that does nothing without another: said, not refused. */
export interface Needs {
  needs: string;
}

/**
 * A value agentstream puts on a backend's command line as one argument (each of a list): `name`, never read as a
 * flag (no leading "-", no control character; `hint` says what to give), or only `passable` (no NUL byte).
 */
export type ArgumentRule = { kind: "name"; hint?: string } | { kind: "passable" };

/**
 * How a backend's lack of a portable option is said, where the default ("OPTION: BACKEND why", a choice's value
 * after the option) would not do: a flag only some have ("has no model flag (Codex has it)"), a limit (every
 * limit lacked for one reason named at once), or the option named in words ("usage file").
 */
export type RefusalWords = { flag: Words } | { limit: true } | { named: string };

/** What a portable row declares of its backend value. */
export interface PortableSpec {
  /**
   * The value a backend's entry is given, made from the request's (the working directory resolved, the schema
   * read): after the request was checked against the backend. None: the request's value as it is.
   */
  value?: (given: never, context: never) => unknown;
  /** A choice: a backend's entry is one per choice. */
  choices?: readonly string[];
  /** Choices only a backend asked live has (`--approvals ask`): an entry for them only where it has them. */
  liveChoices?: readonly string[];
  /**
   * Only a backend asked live has it: `entry`, where its `supports` has an entry (--approve-with); `driver`,
   * where it is driven (the library's callback, which the driver takes whole).
   */
  live?: "entry" | "driver";
  /** The run supplies the value (the usage file it names), not the caller: a backend whose entry reaches it is given one. */
  supplied?: true;
  refusal?: RefusalWords;
}

export interface OptionRow<K extends string = string, T = unknown> {
  /** The request's field; the library's option name (otlp.endpoint: a field of the otlp object). */
  key: K;
  lifetime: Lifetime;
  /** The library's check of a value (the CLI's flags are parsed by its parser). */
  check: Check<T>;
  /** The CLI's option (one per spelling, where commands spell it apart), or none when only the library has it. */
  cli?: CliOption | readonly CliOption[];
  /** The library's entry points that take it; none: only the CLI has it. */
  library?: readonly LibraryEntry[];
  /** The request's value when none is given, on both sides. */
  default?: T;
  /** The flag is the value's opposite: --no-auto-mode is autoMode: false. */
  negated?: boolean;
  /** The backend is given it: its value goes into the portable request, each backend's `supports` says what it becomes. */
  portable?: PortableSpec;
  /** Its value goes on the backend's command line: what it must be (checked in planning, on both sides). */
  argument?: ArgumentRule;
  /**
   * The library must be given it (the CLI has it as its argument); `unless` another option stands in; `by`:
   * only these entry points require it (the others take it optionally: compare()'s prompt, or its plan).
   */
  required?: { unless?: string; by?: readonly LibraryEntry[] };
  relations?: readonly (Excludes | Needs)[];
  /**
   * The option names a file it reads or writes: its value, or (`env`) the file that variable names
   * (--summary). No output may be an input or another output (src/app/shared-files.ts).
   */
  file?: FileUse;
  /**
   * Only one run can take it (a session or a run continued, one run's report): a compare, whose cells are many
   * runs, refuses it with this reason after the option's name, and its --help does not offer it.
   */
  oneRun?: string;
}

/** A file an option reads (an input) or writes (an output). */
export interface FileUse {
  role: "reads" | "writes";
  /** The file is the one this variable names, not the option's value. */
  env?: string;
}

/** A row as a command's CLI has it: its CLI option for that command. */
export type CliRow = OptionRow & { cli: CliOption };

/** A row of a portable option. */
export type PortableRow = OptionRow & { portable: PortableSpec };

/** The CLI options of a row, one per spelling. */
export function clisOf(row: OptionRow): readonly CliOption[] {
  return row.cli === undefined ? [] : "flags" in row.cli ? [row.cli as CliOption] : (row.cli as readonly CliOption[]);
}

/** The long flag of a CLI option, as messages name it: "--max-turns", "--quiet". */
export function longFlag(cli: CliOption): string {
  return /--[\w-]+/.exec(cli.flags)![0];
}

/** Where a command's --help shows a row's CLI option, when not where the row is (normalize's --model). */
export interface Spelling<R extends OptionRow = OptionRow> {
  spelling: R;
  command: Command;
}

/** The row's CLI option for this command, shown here in --help rather than where the row is placed. */
export const spelledAt = <const R extends OptionRow>(row: R, command: Command): Spelling<R> => ({
  spelling: row,
  command,
});

/** An entry of a table's list: a row, or where a command's --help shows one. */
export type TableEntry = OptionRow | Spelling;

/** A table of options: its rows, read by the CLI, the library, the request and planning. */
export interface OptionTable<R extends OptionRow = OptionRow> {
  /** In the order --help shows them and the library checks them. */
  readonly rows: readonly R[];
  /** The portable rows, in the order a backend's lacks are refused: the first asked that it lacks is said. */
  readonly portable: readonly (R & PortableRow)[];
  row(key: string): R;
  /** The rows an entry point of the library takes. */
  libraryRows(entry: LibraryEntry): readonly R[];
  /** The rows a command of the CLI takes, each with its CLI option for that command, in the order --help shows them. */
  cliRows(command: Command): readonly (R & CliRow)[];
  /** An option as the CLI says it: its flag; given values, the flag once for each ("--backend-arg=A --backend-arg=B"). */
  cliNaming: OptionNaming;
  /** An option as the library says it: "option maxTurns", "option autoMode: false"; given values, 'option backendArgs ["A", "B"]'. */
  libraryNaming: OptionNaming;
}

/**
 * The table of these rows: `entries` in --help's order (a row, or where a command's --help shows one of them),
 * `portable` (the rows with a `portable` spec) in the order their refusals are said. A portable row the entries do
 * not place is shown last.
 */
export function optionTable<const E extends TableEntry, const P extends PortableRow>(
  entries: readonly E[],
  portable: readonly P[],
): OptionTable<Extract<E, OptionRow> | P> {
  type R = Extract<E, OptionRow> | P;
  const spellings = entries.filter((e): e is Extract<E, Spelling> => "spelling" in e);
  const placed = entries.filter((e): e is Extract<E, OptionRow> => !("spelling" in e)) as R[];
  const all: readonly R[] = [...placed, ...portable.filter((row) => !placed.includes(row))];
  const shown = [...entries, ...all.filter((r) => !entries.includes(r as OptionRow as E))];
  const row = (key: string): R => {
    const found = all.find((r) => r.key === key);
    if (found === undefined) throw new Error(`no run option ${key}`);
    return found;
  };
  const spelledElsewhere = (r: OptionRow, command: Command): boolean =>
    spellings.some((s) => s.spelling === r && s.command === command);
  return {
    rows: all,
    portable,
    row,
    // Made once each: a request is made of them for every run (a compare's hundreds of cells).
    libraryRows: once((entry) => all.filter((r) => r.library?.includes(entry))),
    cliRows: once((command) =>
      shown.flatMap((entry) => {
        const spelled = "spelling" in entry;
        if (spelled && entry.command !== command) return [];
        const r = (spelled ? entry.spelling : entry) as R;
        if (!spelled && spelledElsewhere(r, command)) return [];
        const cli = clisOf(r).find((c) => c.commands.includes(command));
        return cli === undefined ? [] : [{ ...r, cli }];
      }),
    ),
    cliNaming: (key, values) => {
      const [cli] = clisOf(row(key));
      const flag = cli === undefined ? key : longFlag(cli);
      return values === undefined ? flag : values.map((value) => `${flag}=${value}`).join(" ");
    },
    libraryNaming: (key, values) =>
      `option ${key}${row(key).negated ? ": false" : ""}${values === undefined ? "" : ` ${listed(values)}`}`,
  };
}

/** `make`, called once per argument: its result kept. */
function once<A, V>(make: (arg: A) => V): (arg: A) => V {
  const made = new Map<A, V>();
  return (arg) => {
    if (!made.has(arg)) made.set(arg, make(arg));
    return made.get(arg)!;
  };
}

/**
 * Refuse the values no backend can be given, by each row's `argument` (each of a list): a name that would be read
 * as a flag or holds a control character, a NUL byte in any. An OptionError naming the option.
 */
export function checkArguments(rows: readonly OptionRow[], values: Readonly<Record<string, unknown>>): void {
  for (const { key, argument } of rows) {
    const value = values[key];
    if (argument === undefined || value === undefined) continue;
    const list = Array.isArray(value);
    for (const [i, item] of ((list ? value : [value]) as string[]).entries())
      if (argument.kind === "name") checkName(key, item, argument.hint);
      else checkPassable(key, item, list ? `(argument ${i + 1})` : undefined);
  }
}
