// The library's run() options checked as the CLI checks its flags: a wrong one
// is a UsageError naming the option (timeoutMs, backendArgs), never a CLI flag
// nor a TypeError from deep inside.
import { libraryNaming, RUN_OPTIONS, type Check } from "../app/options.js";
import { OptionError, UsageError } from "../core/errors.js";

/** Each option run() takes that is checked here (src/app/options.ts); the prompt's content is checked as the CLI checks it, later. */
const CHECKS: Record<string, Check> = Object.fromEntries(
  RUN_OPTIONS.flatMap((row) => (row.name !== undefined && row.check !== undefined ? [[row.name, row.check]] : [])),
);

const REQUIRED = new Set(["backend", "prompt"]);
/** A required option another one stands in for: continueFrom names the backend. */
const STANDS_IN: Record<string, string> = { backend: "continueFrom" };

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "number" || typeof value === "boolean" || value == null) return String(value);
  return Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function check(name: string, value: unknown, given: Record<string, unknown> = {}, prefix = "run(): "): void {
  const required = REQUIRED.has(name) && given[STANDS_IN[name] ?? ""] === undefined;
  const problem = value === undefined ? (required ? "is required" : undefined) : CHECKS[name]?.(value);
  if (problem)
    throw new UsageError(`${prefix}option ${name}: ${problem}${value === undefined ? "" : `, got ${describe(value)}`}`);
}

/** One option checked as run() checks it, for another entry point (normalizeStream()). */
export function checkOption(name: string, value: unknown, prefix: string): void {
  check(name, value, {}, prefix);
}

/** Throws a UsageError naming the first option of the wrong type or out of range; the CLI's limits, in the library's units. */
export function checkRunOptions(options: unknown): void {
  if (typeof options !== "object" || options === null)
    throw new UsageError(`run(): expected an options object, got ${describe(options)}`);
  const given = options as Record<string, unknown>;
  for (const name of Object.keys(CHECKS)) {
    if (name.startsWith("otlp.")) continue;
    check(name, given[name], given);
  }
  const otlp = given.otlp as Record<string, unknown> | undefined;
  if (otlp !== undefined) for (const key of ["endpoint", "content"]) check(`otlp.${key}`, otlp[key]);
}

/** An OptionError from the run's planning, its options named as the library names them; anything else as it is. */
export function asLibraryError(err: unknown, prefix = "run(): "): unknown {
  return err instanceof OptionError ? err.wordedAs(libraryNaming, prefix) : err;
}
