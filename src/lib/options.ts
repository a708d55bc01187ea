// The library's options checked as the CLI checks its flags, by the option table: a wrong one is a
// UsageError naming the option (timeoutMs, backendArgs), never a CLI flag nor a TypeError from deep inside.
import { OPTIONS, libraryNaming } from "../app/options.js";
import type { LibraryEntry, OptionRow, OptionTable } from "../core/option-row.js";
import { OptionError, OutputRefused, StoppedBeforeStart, UsageError } from "../core/errors.js";

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "number" || typeof value === "boolean" || value == null) return String(value);
  return Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function check(
  row: OptionRow,
  entry: LibraryEntry,
  value: unknown,
  given: Record<string, unknown>,
  prefix: string,
): void {
  const { required } = row;
  const needed =
    required !== undefined &&
    (required.by === undefined || required.by.includes(entry)) &&
    (required.unless === undefined || given[required.unless] === undefined);
  const problem = value === undefined ? (needed ? "is required" : undefined) : row.check(value);
  if (problem)
    throw new UsageError(
      `${prefix}option ${row.key}: ${problem}${value === undefined ? "" : `, got ${describe(value)}`}`,
    );
}

/**
 * Throws a UsageError naming the first option of the wrong type or out of range, as the table checks it for
 * this entry point; the CLI's limits, in the library's units. A field of an object option (otlp.endpoint,
 * end.backendExit) is checked once the object itself is.
 */
export function checkEntryOptions(
  entry: LibraryEntry,
  options: unknown,
  table: OptionTable = OPTIONS,
  /** Another entry point that takes this one's options (compare() takes run()'s): its name, and what it leaves out. */
  as: { caller: string; skip: ReadonlySet<string> } = { caller: entry, skip: new Set() },
): void {
  const prefix = `${as.caller}(): `;
  if (typeof options !== "object" || options === null)
    throw new UsageError(`${prefix}expected an options object, got ${describe(options)}`);
  const given = options as Record<string, unknown>;
  for (const row of table.libraryRows(entry)) {
    if (as.skip.has(row.key)) continue;
    const [outer, inner] = row.key.split(".") as [string, string | undefined];
    if (inner === undefined) check(row, entry, given[outer], given, prefix);
    else {
      const object = given[outer] as Record<string, unknown> | undefined;
      if (object !== undefined) check(row, entry, object[inner], given, prefix);
    }
  }
}

/**
 * A refusal from the run's planning, or of an output as it is opened, in the library's words: an OptionError's
 * options (and the backend's reason it quotes), and those a stop before the start names, named as the library
 * names them; a refused output under the option that asked for it; anything else as it is.
 */
export function asLibraryError(err: unknown, prefix = "run(): "): unknown {
  if (err instanceof StoppedBeforeStart) return err.wordedAs(libraryNaming);
  if (err instanceof OutputRefused) return new UsageError(`${prefix}option ${err.option}: ${err.message}`, err.hint);
  return err instanceof OptionError ? err.wordedAs(libraryNaming, prefix) : err;
}
