// The library's run() options checked as the CLI checks its flags: a wrong one
// is a UsageError naming the option (timeoutMs, backendArgs), never a CLI flag
// nor a TypeError from deep inside.
import { libraryNaming, libraryRows, type Check, type LibraryEntry } from "../app/options.js";
import { OptionError, UsageError } from "../core/errors.js";
import { libraryWords } from "./library-words.js";

/** Each option an entry point takes that is checked here (src/app/options.ts); the prompt's content is checked as the CLI checks it, later. */
function checksOf(entry: LibraryEntry): Record<string, Check> {
  return Object.fromEntries(libraryRows(entry).flatMap((row) => (row.check ? [[row.name!, row.check]] : [])));
}
const CHECKS: Record<LibraryEntry, Record<string, Check>> = {
  run: checksOf("run"),
  normalizeStream: checksOf("normalizeStream"),
};

const REQUIRED = new Set(["backend", "prompt"]);
/** A required option another one stands in for: continueFrom names the backend. */
const STANDS_IN: Record<string, string> = { backend: "continueFrom" };

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "number" || typeof value === "boolean" || value == null) return String(value);
  return Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function check(
  name: string,
  value: unknown,
  given: Record<string, unknown> = {},
  prefix = "run(): ",
  entry: LibraryEntry = "run",
): void {
  const required = entry === "run" && REQUIRED.has(name) && given[STANDS_IN[name] ?? ""] === undefined;
  const problem = value === undefined ? (required ? "is required" : undefined) : CHECKS[entry][name]?.(value);
  if (problem)
    throw new UsageError(`${prefix}option ${name}: ${problem}${value === undefined ? "" : `, got ${describe(value)}`}`);
}

/**
 * Throws a UsageError naming the first option of the wrong type or out of range, as the table checks it for
 * this entry point; the CLI's limits, in the library's units. A field of an object option (otlp.endpoint,
 * end.backendExit) is checked once the object itself is.
 */
function checkEntryOptions(entry: LibraryEntry, options: unknown): void {
  const prefix = `${entry}(): `;
  if (typeof options !== "object" || options === null)
    throw new UsageError(`${prefix}expected an options object, got ${describe(options)}`);
  const given = options as Record<string, unknown>;
  for (const name of Object.keys(CHECKS[entry])) {
    const [outer, inner] = name.split(".");
    if (inner === undefined) check(name, given[name], given, prefix, entry);
    else {
      const object = given[outer!] as Record<string, unknown> | undefined;
      if (object !== undefined) check(name, object[inner], given, prefix, entry);
    }
  }
}

export function checkRunOptions(options: unknown): void {
  checkEntryOptions("run", options);
}

export function checkNormalizeOptions(options: unknown): void {
  checkEntryOptions("normalizeStream", options);
}

/**
 * A refusal from the run's planning in the library's words: an OptionError's options named as the library
 * names them, and any flag of agentstream's a UsageError's text quotes (a backend's reason, written in the
 * CLI's words) as its option; anything else as it is.
 */
export function asLibraryError(err: unknown, prefix = "run(): "): unknown {
  const worded = err instanceof OptionError ? err.wordedAs(libraryNaming, prefix) : err;
  if (!(worded instanceof UsageError)) return worded;
  const message = libraryWords(worded.message);
  const hint = worded.hint === undefined ? undefined : libraryWords(worded.hint);
  return message === worded.message && hint === worded.hint ? worded : new UsageError(message, hint);
}
