// The request of one run or normalization, made from the option table (src/app/options.ts) whichever
// side gives it: the CLI from commander's parsed flags, the library from its options object. Both
// become the same request: the same fields (the table's keys, in the library's units), the table's
// defaults filled in, the table's relations checked. Its types are derived from the table.
import { OptionError, type OptionNaming } from "../core/errors.js";
import type { Command, LibraryEntry, Lifetime, OptionRow, OptionTable } from "../core/option-row.js";
import type { Check } from "../core/option-values.js";
import { OPTIONS, type TableRow } from "./options.js";

type ValueOf<R> = R extends { check: Check<infer T> } ? T : never;
/** A field of an object option (otlp.endpoint) is typed by its object's row. */
type TopKey<K> = K extends `${string}.${string}` ? never : K;
type KeyOf<R> = R extends { key: infer K extends string } ? TopKey<K> : never;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

type LibraryRowsOf<E extends LibraryEntry, R = TableRow> = R extends { library: readonly (infer X)[] }
  ? E extends X
    ? R
    : never
  : never;
/** The commands a row's CLI options are for (one option, or one per spelling). */
type CommandsOf<R> = R extends { cli: { commands: readonly (infer X)[] } }
  ? X
  : R extends { cli: readonly { commands: readonly (infer X)[] }[] }
    ? X
    : never;
type CliRowsOf<C extends Command, R = TableRow> = R extends unknown ? (C extends CommandsOf<R> ? R : never) : never;
type IsRequired<R, E extends LibraryEntry> = R extends { required: { unless: string } }
  ? false
  : R extends { required: { by: readonly (infer B)[] } }
    ? E extends B
      ? true
      : false
    : R extends { required: object }
      ? true
      : false;
type HasDefault<R> = R extends { default: unknown } ? true : false;

/** The options one entry point of the library takes: its public option types are these. */
export type LibraryOptions<E extends LibraryEntry> = Simplify<
  { [R in LibraryRowsOf<E> as IsRequired<R, E> extends true ? KeyOf<R> : never]: ValueOf<R> } & {
    [R in LibraryRowsOf<E> as IsRequired<R, E> extends true ? never : KeyOf<R>]?: ValueOf<R>;
  }
>;

const ENTRY_OF = { run: "run", normalize: "normalizeStream", compare: "compare" } as const satisfies Record<
  Command,
  LibraryEntry
>;
type EntryOf<C extends Command> = (typeof ENTRY_OF)[C];
type RequestRowsOf<C extends Command> = CliRowsOf<C> | LibraryRowsOf<EntryOf<C>>;

/** What a command is asked, from either side: every option it takes, those with a default always present. */
export type Request<C extends Command> = Simplify<
  { [R in RequestRowsOf<C> as HasDefault<R> extends true ? KeyOf<R> : never]: ValueOf<R> } & {
    [R in RequestRowsOf<C> as HasDefault<R> extends true ? never : KeyOf<R>]?: ValueOf<R>;
  }
>;
export type RunRequest = Request<"run">;
export type NormalizeRequest = Request<"normalize">;

type RowsOfLifetime<C extends Command, L extends Lifetime, R = RequestRowsOf<C>> = R extends { lifetime: L }
  ? KeyOf<R>
  : never;
/** The fields of a request one lifetime holds (translation: raw, deltas, maxLineBytes). */
export type Part<C extends Command, L extends Lifetime> = Pick<Request<C>, RowsOfLifetime<C, L> & keyof Request<C>>;

/** The fields of one lifetime, taken from a request as they are. */
export function part<C extends Command, L extends Lifetime>(command: C, request: Request<C>, lifetime: L): Part<C, L> {
  const keys = lifetimeKeys(command, lifetime);
  return Object.fromEntries(Object.entries(request).filter(([key]) => keys.has(key))) as Part<C, L>;
}

/** Every row a command's request holds: its CLI's, then its library entry's. */
export function rowsOf(command: Command, table: OptionTable = OPTIONS): readonly OptionRow[] {
  let ofTable = rowsMade.get(table);
  if (ofTable === undefined) rowsMade.set(table, (ofTable = new Map()));
  let rows = ofTable.get(command);
  if (rows === undefined) {
    const keys = new Set([...table.cliRows(command), ...table.libraryRows(ENTRY_OF[command])].map((row) => row.key));
    rows = [...keys].map((key) => table.row(key));
    ofTable.set(command, rows);
  }
  return rows;
}

// Made once per table and command (and lifetime): every run's request is read through them.
const rowsMade = new WeakMap<OptionTable, Map<Command, readonly OptionRow[]>>();
const keysMade = new Map<string, ReadonlySet<string>>();

function lifetimeKeys(command: Command, lifetime: Lifetime): ReadonlySet<string> {
  const key = `${command} ${lifetime}`;
  let keys = keysMade.get(key);
  if (keys === undefined) {
    keys = new Set(rowsOf(command).flatMap((row) => (row.lifetime === lifetime ? [topKey(row.key)] : [])));
    keysMade.set(key, keys);
  }
  return keys;
}

function topKey(key: string): string {
  return key.split(".")[0]!;
}

/** commander's name for a flag's value: "--allow-tool" is allowTool, "--no-auto-mode" autoMode. */
export function attributeOf(flags: string): string {
  const long = /--([\w-]+)/.exec(flags)![1]!.replace(/^no-/, "");
  return long.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());
}

/** A request made: what it asks, and what the user is told of it (an option that does nothing here). */
export interface Made<R> {
  request: R;
  notes: ((name: OptionNaming) => string)[];
}

/**
 * The request of a command from commander's parsed options: each flag's value at its row's key (a table of
 * more rows, a test's, makes a request of more fields).
 */
export function requestFromCli<C extends Command>(
  command: C,
  parsed: Record<string, unknown>,
  table: OptionTable = OPTIONS,
): Made<Request<C>> {
  const given = new Map<string, unknown>();
  for (const row of table.cliRows(command)) {
    const value = parsed[attributeOf(row.cli.flags)];
    if (value !== undefined) given.set(row.key, row.cli.toRequest ? row.cli.toRequest(value) : value);
  }
  return made(command, given, table);
}

/** The request of a command from the library's options (checked already by the entry point). */
export function requestFromLibrary<C extends Command>(
  command: C,
  options: object,
  table: OptionTable = OPTIONS,
): Made<Request<C>> {
  const given = new Map<string, unknown>();
  for (const row of table.libraryRows(ENTRY_OF[command])) {
    const value = (options as Record<string, unknown>)[row.key];
    if (value !== undefined) given.set(row.key, value);
  }
  return made(command, given, table);
}

/**
 * The request from the values given, by key: relations checked, defaults filled in, a field's value
 * (end.backendExit) set in its object. A field whose object has a flag of its own that was not given
 * (--otlp-content without --otlp) is not set: its `needs` relation says so.
 */
function made<C extends Command>(
  command: C,
  given: ReadonlyMap<string, unknown>,
  table: OptionTable,
): Made<Request<C>> {
  const rows = rowsOf(command, table);
  const notes: Made<Request<C>>["notes"] = [];
  for (const row of rows)
    for (const relation of row.relations ?? []) {
      if (!isGiven(row, given.get(row.key))) continue;
      if ("needs" in relation) {
        if (!given.has(relation.needs))
          notes.push((name) => `${name(row.key)} does nothing without ${name(relation.needs)}`);
        continue;
      }
      const other = given.get(relation.excludes);
      if (other === undefined || (relation.value !== undefined && other !== relation.value)) continue;
      const shown = relation.value === undefined ? "" : ` ${relation.value}`;
      throw new OptionError((name) => `${name(row.key)} and ${name(relation.excludes)}${shown} exclude each other`);
    }
  const request: Record<string, unknown> = {};
  const flagged = new Set(table.cliRows(command).map((row) => row.key));
  for (const row of rows) {
    const value = given.get(row.key) ?? row.default;
    if (value === undefined) continue;
    const [outer, inner] = row.key.split(".") as [string, string | undefined];
    if (inner === undefined) request[outer] = value;
    else if (request[outer] !== undefined || !flagged.has(outer))
      request[outer] = { ...(request[outer] as object | undefined), [inner]: value };
  }
  return { request: request as Request<C>, notes };
}

/** Whether an option was asked for: given, and not its default (autoMode: true, quiet: false ask nothing). */
function isGiven(row: OptionRow, value: unknown): boolean {
  return value !== undefined && value !== row.default && !(row.default === undefined && value === false);
}
