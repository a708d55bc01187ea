// The options of a run, declared once: the CLI's flag, the library's name,
// the library's check. Errors about them (OptionError) name them by their
// library name; each side words them from here, the CLI with its flag, the
// library with its option name, so no flag name reaches a library caller.
import { APPROVALS_MODES } from "../backends/definition.js";
import { BACKEND_NAMES } from "../backends/registry.js";
import type { OptionNaming } from "../core/errors.js";
import { MAX_DELAY_MS, MAX_LINE_BYTES_LIMIT } from "../core/limits.js";

/** What is wrong with a library option's value, or undefined when nothing is. */
export type Check = (value: unknown) => string | undefined;

export interface OptionRow {
  /** The CLI's flag (its long name, as --help shows it), or none when only the library has it. */
  flag?: string;
  /** The library's option name (otlp.endpoint: a field of the otlp object), or none when only the CLI has it. */
  name?: string;
  /** The library's option is the flag's opposite: --no-auto-mode is autoMode: false. */
  negated?: boolean;
  /** The library's check of the value it is given (the CLI's flags are parsed by commander). */
  check?: Check;
}

const string: Check = (v) => (typeof v === "string" ? undefined : "expected a string");
const nonEmpty =
  (what: string): Check =>
  (v) =>
    typeof v === "string" && v !== "" ? undefined : `expected ${what}`;
const boolean: Check = (v) => (typeof v === "boolean" ? undefined : "expected true or false");
const strings: Check = (v) =>
  Array.isArray(v) && v.every((item) => typeof item === "string") ? undefined : "expected an array of strings";
const func: Check = (v) => (typeof v === "function" ? undefined : "expected a function");
const oneOf =
  (values: readonly string[]): Check =>
  (v) =>
    (values as readonly unknown[]).includes(v) ? undefined : `expected one of ${values.join(", ")}`;
const milliseconds =
  (allowZero: boolean): Check =>
  (v) =>
    typeof v === "number" && Number.isFinite(v) && (allowZero ? v >= 0 : v > 0) && v <= MAX_DELAY_MS
      ? undefined
      : `expected a number of milliseconds ${allowZero ? "from 0" : "greater than 0"} up to ${MAX_DELAY_MS}`;

function otlpEndpoint(v: unknown): string | undefined {
  let url: URL | undefined;
  try {
    url = typeof v === "string" ? new URL(v) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:"))
    return "expected an http(s) URL of an OTLP collector, such as http://localhost:4318";
  return url.port === "0" ? "port 0 names no collector: give the collector's port" : undefined;
}

/** The options of run, in the order the library checks them. */
export const RUN_OPTIONS: readonly OptionRow[] = [
  { flag: "--backend", name: "backend", check: oneOf(BACKEND_NAMES) },
  // On the CLI the prompt is the argument (or --prompt-file).
  { name: "prompt", check: string },
  { flag: "--bin", name: "bin", check: string },
  { flag: "--cwd", name: "cwd", check: string },
  { flag: "--model", name: "model", check: string },
  { flag: "--provider", name: "provider", check: string },
  { flag: "--workdir", name: "workdir", check: string },
  { flag: "--no-auto-mode", name: "autoMode", negated: true, check: boolean },
  { flag: "--backend-arg", name: "backendArgs", check: strings },
  { flag: "--allow-tool", name: "allowTools", check: strings },
  { flag: "--deny-tool", name: "denyTools", check: strings },
  { flag: "--approvals", name: "approvals", check: oneOf(APPROVALS_MODES) },
  { flag: "--resume", name: "resume", check: nonEmpty("a session id (a non-empty string)") },
  { flag: "--continue-from", name: "continueFrom", check: nonEmpty("a file name") },
  {
    name: "env",
    check: (v) =>
      typeof v === "object" && v !== null && Object.values(v).every((x) => x === undefined || typeof x === "string")
        ? undefined
        : "expected an object of string values",
  },
  // The CLI's seconds, the library's milliseconds.
  { flag: "--timeout", name: "timeoutMs", check: milliseconds(false) },
  { flag: "--linger", name: "lingerMs", check: milliseconds(true) },
  { flag: "--grace", name: "graceMs", check: milliseconds(true) },
  // Checked with the run's limits (checkLimits), as positive numbers.
  { flag: "--max-turns", name: "maxTurns" },
  { flag: "--max-tokens", name: "maxTokens" },
  { flag: "--max-cost-usd", name: "maxCostUsd" },
  { name: "signal", check: (v) => (v instanceof AbortSignal ? undefined : "expected an AbortSignal") },
  { flag: "--raw", name: "raw", check: boolean },
  { flag: "--no-deltas", name: "deltas", negated: true, check: boolean },
  {
    flag: "--max-line-bytes",
    name: "maxLineBytes",
    check: (v) =>
      Number.isSafeInteger(v) && (v as number) > 0 && (v as number) <= MAX_LINE_BYTES_LIMIT
        ? undefined
        : `expected a whole number of bytes from 1 to ${MAX_LINE_BYTES_LIMIT}`,
  },
  { name: "onStderr", check: func },
  { name: "onNote" },
  { name: "onTranslatorBug", check: func },
  { name: "runId", check: nonEmpty("a non-empty string") },
  {
    name: "clock",
    check: (v) =>
      typeof v === "object" &&
      v !== null &&
      typeof (v as { wallMs?: unknown }).wallMs === "function" &&
      typeof (v as { monoMs?: unknown }).monoMs === "function"
        ? undefined
        : "expected a Clock { wallMs(), monoMs() }",
  },
  // A URL (or nothing) on the CLI, an object { endpoint?, content? } in the library.
  {
    flag: "--otlp",
    name: "otlp",
    check: (v) => (typeof v === "object" && v !== null ? undefined : "expected an object { endpoint?, content? }"),
  },
  { name: "otlp.endpoint", check: otlpEndpoint },
  { flag: "--otlp-content", name: "otlp.content", check: boolean },
];

function row(name: string): OptionRow {
  const found = RUN_OPTIONS.find((r) => r.name === name);
  if (found === undefined) throw new Error(`no run option ${name}`);
  return found;
}

/** An option as the CLI says it: its flag. */
export const cliNaming: OptionNaming = (name) => row(name).flag ?? name;

/** An option as the library says it: "option maxTurns", "option autoMode: false". */
export const libraryNaming: OptionNaming = (name) => `option ${name}${row(name).negated ? ": false" : ""}`;
