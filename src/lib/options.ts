// The library's run() options checked as the CLI checks its flags: a wrong one
// is a UsageError naming the option (timeoutMs, backendArgs), never a CLI flag
// nor a TypeError from deep inside.
import { APPROVALS_MODES } from "../backends/definition.js";
import { BACKEND_NAMES } from "../backends/registry.js";
import { UsageError } from "../core/errors.js";
import { MAX_DELAY_MS, MAX_LINE_BYTES_LIMIT } from "../core/limits.js";

type Check = (value: unknown) => string | undefined;

const string: Check = (v) => (typeof v === "string" ? undefined : "expected a string");
const boolean: Check = (v) => (typeof v === "boolean" ? undefined : "expected true or false");
const strings: Check = (v) =>
  Array.isArray(v) && v.every((item) => typeof item === "string") ? undefined : "expected an array of strings";
const func: Check = (v) => (typeof v === "function" ? undefined : "expected a function");
const milliseconds =
  (allowZero: boolean): Check =>
  (v) =>
    typeof v === "number" && Number.isFinite(v) && (allowZero ? v >= 0 : v > 0) && v <= MAX_DELAY_MS
      ? undefined
      : `expected a number of milliseconds ${allowZero ? "from 0" : "greater than 0"} up to ${MAX_DELAY_MS}`;

/** Each option run() takes that is checked here; the prompt's content is checked as the CLI checks it, later. */
const CHECKS: Record<string, Check> = {
  backend: (v) =>
    typeof v === "string" && (BACKEND_NAMES as readonly string[]).includes(v)
      ? undefined
      : `expected one of ${BACKEND_NAMES.join(", ")}`,
  prompt: string,
  bin: string,
  cwd: string,
  model: string,
  provider: string,
  workdir: string,
  autoMode: boolean,
  backendArgs: strings,
  allowTools: strings,
  denyTools: strings,
  approvals: (v) =>
    (APPROVALS_MODES as readonly unknown[]).includes(v) ? undefined : `expected one of ${APPROVALS_MODES.join(", ")}`,
  resume: (v) => (typeof v === "string" && v !== "" ? undefined : "expected a session id (a non-empty string)"),
  continueFrom: (v) => (typeof v === "string" && v !== "" ? undefined : "expected a file name"),
  env: (v) =>
    typeof v === "object" && v !== null && Object.values(v).every((x) => x === undefined || typeof x === "string")
      ? undefined
      : "expected an object of string values",
  timeoutMs: milliseconds(false),
  lingerMs: milliseconds(true),
  graceMs: milliseconds(true),
  signal: (v) => (v instanceof AbortSignal ? undefined : "expected an AbortSignal"),
  raw: boolean,
  deltas: boolean,
  maxLineBytes: (v) =>
    Number.isSafeInteger(v) && (v as number) > 0 && (v as number) <= MAX_LINE_BYTES_LIMIT
      ? undefined
      : `expected a whole number of bytes from 1 to ${MAX_LINE_BYTES_LIMIT}`,
  onStderr: func,
  onTranslatorBug: func,
  runId: (v) => (typeof v === "string" && v !== "" ? undefined : "expected a non-empty string"),
  clock: (v) =>
    typeof v === "object" &&
    v !== null &&
    typeof (v as { wallMs?: unknown }).wallMs === "function" &&
    typeof (v as { monoMs?: unknown }).monoMs === "function"
      ? undefined
      : "expected a Clock { wallMs(), monoMs() }",
  otlp: (v) => (typeof v === "object" && v !== null ? undefined : "expected an object { endpoint?, content? }"),
  "otlp.endpoint": (v) => {
    let url: URL | undefined;
    try {
      url = typeof v === "string" ? new URL(v) : undefined;
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:"))
      return "expected an http(s) URL of an OTLP collector, such as http://localhost:4318";
    return url.port === "0" ? "port 0 names no collector: give the collector's port" : undefined;
  },
  "otlp.content": boolean,
};

const REQUIRED = new Set(["backend", "prompt"]);
/** A required option another one stands in for: continueFrom names the backend. */
const STANDS_IN: Record<string, string> = { backend: "continueFrom" };

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "number" || typeof value === "boolean" || value == null) return String(value);
  return Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function check(name: string, value: unknown, given: Record<string, unknown> = {}): void {
  const required = REQUIRED.has(name) && given[STANDS_IN[name] ?? ""] === undefined;
  const problem = value === undefined ? (required ? "is required" : undefined) : CHECKS[name]?.(value);
  if (problem)
    throw new UsageError(`run(): option ${name}: ${problem}${value === undefined ? "" : `, got ${describe(value)}`}`);
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

// What planRun says with a CLI flag's name, said with the library option's.
const FLAG_OPTIONS: [RegExp, string][] = [
  [/^--model\b/, "option model"],
  [/^--provider\b/, "option provider"],
  [/^--workdir\b/, "option workdir"],
  [/^--no-auto-mode\b/, "option autoMode: false"],
  [/^--cwd\b/, "option cwd"],
  [/^--bin\b/, "option bin"],
  [/^--allow-tool\b/, "option allowTools"],
  [/^--deny-tool\b/, "option denyTools"],
  [/^--approvals\b/, "option approvals"],
  [/^--resume\b/, "option resume"],
  [/^--continue-from\b/, "option continueFrom"],
  [/^--backend-arg\b/, "option backendArgs"],
  [/^--backend\b/, "option backend"],
];

/** A UsageError from the run's planning, naming the library option instead of the CLI flag; anything else as it is. */
export function asLibraryError(err: unknown): unknown {
  if (!(err instanceof UsageError)) return err;
  const found = FLAG_OPTIONS.find(([flag]) => flag.test(err.message));
  if (!found) return err;
  return new UsageError(`run(): ${err.message.replace(found[0], found[1])}`, err.hint);
}
