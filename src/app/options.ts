// The options of run and normalize, declared once: the CLI's flag (how it is
// parsed, its help), the library's name and check. Commander's options and the
// library's checks are made from this table. Errors about an option
// (OptionError) name it by its library name; each side words them from here,
// the CLI with its flag, the library with its option name, so no flag name
// reaches a library caller.
import { TRANSPORTS } from "../backends/acp/facet.js";
import { APPROVALS_MODES } from "../backends/request.js";
import { BACKEND_NAMES } from "../backends/registry.js";
import type { BackendExit } from "../canonical/events.js";
import type { OptionNaming } from "../core/errors.js";
import { MAX_DELAY_MS, MAX_LINE_BYTES_LIMIT, MAX_SECONDS } from "../core/limits.js";
import { MAX_HELD_BYTES } from "../core/translation-session.js";
import { approvalsHelp, binHelp, flagHelp, permissionHelp } from "./backend-help.js";

/** What is wrong with a library option's value, or undefined when nothing is. */
export type Check = (value: unknown) => string | undefined;

export type Command = "run" | "normalize";

/** The library's entry points: run() and normalizeStream(). */
export type LibraryEntry = "run" | "normalizeStream";

/** An option as the CLI has it: what commander is given. */
export interface CliOption {
  /** Commander's flags, as --help shows them: "--max-turns <n>", "-q, --quiet". */
  flags: string;
  help: string;
  commands: readonly Command[];
  /** Turns the text given into the value; throws an Error saying what was expected. */
  parse?: (text: string, previous: unknown) => unknown;
  choices?: readonly string[];
  /** The value when the flag is not given, and how --help shows it. */
  default?: { value: unknown; shown?: string };
}

export interface OptionRow {
  /** The CLI's option, or none when only the library has it. */
  cli?: CliOption;
  /** The library's option name (otlp.endpoint: a field of the otlp object), or none when only the CLI has it. */
  name?: string;
  /** The library's entry points that take it (default: run() alone). */
  library?: readonly LibraryEntry[];
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
const plainObject =
  (what: string): Check =>
  (v) =>
    typeof v === "object" && v !== null && !Array.isArray(v) ? undefined : `expected ${what}`;
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

// Plain decimal notation only: Number() would also take "0x10", "1e3" or "0b1".
const DECIMAL_INTEGER = /^\d+$/;
const DECIMAL_NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

function parseLineBytes(value: string): number {
  const n = Number(value);
  if (!DECIMAL_INTEGER.test(value) || n <= 0 || n > MAX_LINE_BYTES_LIMIT)
    throw new Error(`expected a whole number of bytes from 1 to ${MAX_LINE_BYTES_LIMIT} (256 MiB).`);
  return n;
}

/** Seconds as the CLI takes them, milliseconds as the run's spec holds them. */
function secondsParser(allowZero: boolean): (value: string) => number {
  const range = `${allowZero ? "from 0" : "greater than 0"} up to ${MAX_SECONDS} (about 24.8 days)`;
  return (value) => {
    const n = Number(value);
    if (!DECIMAL_NUMBER.test(value) || (n === 0 && !allowZero) || n > MAX_SECONDS)
      throw new Error(`expected a decimal number of seconds ${range}, e.g. 30 or 0.5.`);
    return Math.round(n * 1000);
  };
}

/** --max-turns, --max-tokens: a whole number above 0. */
function parseCount(value: string): number {
  const n = Number(value);
  if (!DECIMAL_INTEGER.test(value) || n <= 0 || !Number.isSafeInteger(n))
    throw new Error("expected a whole number greater than 0, e.g. 20.");
  return n;
}

/** --max-cost-usd: a decimal number above 0. */
function parseUsd(value: string): number {
  const n = Number(value);
  if (!DECIMAL_NUMBER.test(value) || !(n > 0) || !Number.isFinite(n))
    throw new Error("expected a decimal number of US dollars greater than 0, e.g. 0.50.");
  return n;
}

/** --backend-exit: how the recorded backend ended, an exit code or a signal's name. */
function parseBackendExit(value: string): BackendExit {
  if (/^SIG[A-Z0-9]+$/.test(value)) return { code: null, signal: value };
  if (/^\d{1,3}$/.test(value) && Number(value) <= 255) return { code: Number(value), signal: null };
  throw new Error("expected an exit code (0-255) or a signal name such as SIGTERM.");
}

/** An http(s) URL; anything else is refused, so that `--otlp PROMPT` is not taken for an endpoint unnoticed. */
export function parseEndpoint(value: string): string {
  const problem = otlpEndpoint(value);
  if (problem === undefined) return value;
  throw new Error(
    problem.startsWith("port 0")
      ? "port 0 names no collector: give the collector's port, such as http://localhost:4318."
      : `${problem} (to use the OTEL_EXPORTER_OTLP_* variables or the default, give --otlp with no value, after the prompt or file, or write --otlp=URL).`,
  );
}

const collect = (value: string, previous: unknown): string[] => [...(previous as string[]), value];
const NONE = { value: [], shown: "none" };
const RUN: readonly Command[] = ["run"];
const BOTH: readonly Command[] = ["run", "normalize"];
const BOTH_ENTRIES: readonly LibraryEntry[] = ["run", "normalizeStream"];
const NORMALIZE_STREAM: readonly LibraryEntry[] = ["normalizeStream"];

/** The options of run and normalize: the CLI's in the order --help shows them, the library's in the order it checks them. */
export const RUN_OPTIONS: readonly OptionRow[] = [
  // Required, but checked after the unknown options (main.ts): `--backnd` is named as a typo.
  {
    cli: { flags: "--backend <name>", help: "the agent to run (required)", commands: RUN, choices: BACKEND_NAMES },
    name: "backend",
    check: oneOf(BACKEND_NAMES),
  },
  {
    cli: {
      flags: "--transport <protocol>",
      help: "how the agent is driven: native (its own stream) or acp (the Agent Client Protocol, permission requests answered live by the rules; Gemini CLI, OpenCode, Copilot CLI)",
      commands: RUN,
      choices: TRANSPORTS,
      default: { value: "native" },
    },
    name: "transport",
    check: oneOf(TRANSPORTS),
  },
  // On the CLI the prompt is the argument, or this file.
  { name: "prompt", check: string },
  {
    cli: {
      flags: "--prompt-file <file>",
      help: "read the prompt from a file instead (one trailing newline dropped)",
      commands: RUN,
    },
  },
  { cli: { flags: "--bin <path>", help: binHelp(), commands: RUN }, name: "bin", check: string },
  {
    cli: { flags: "--cwd <dir>", help: "directory the backend runs in (default: the current one)", commands: RUN },
    name: "cwd",
    check: string,
  },
  {
    cli: { flags: "--model <id>", help: flagHelp("model", "the model", "the backend's own"), commands: RUN },
    name: "model",
    check: string,
  },
  {
    cli: {
      flags: "--provider <name>",
      help: flagHelp("provider", "the provider", "the backend's own"),
      commands: RUN,
    },
    name: "provider",
    check: string,
  },
  {
    cli: {
      flags: "--workdir <dir>",
      help: flagHelp("workdir", "the agent's working directory (its /), created if missing", "the backend's own"),
      commands: RUN,
    },
    name: "workdir",
    check: string,
  },
  {
    cli: {
      flags: "--no-auto-mode",
      help: flagHelp("autoMode", "approvals and questions stop the run with exit 3", "auto mode"),
      commands: RUN,
    },
    name: "autoMode",
    negated: true,
    check: boolean,
  },
  {
    cli: {
      flags: "--allow-tool <name>",
      help: permissionHelp(
        "allowTools",
        "let the backend run this tool without asking (repeatable; NAME(PREFIX) where it can)",
      ),
      commands: RUN,
      parse: collect,
      default: NONE,
    },
    name: "allowTools",
    check: strings,
  },
  {
    cli: {
      flags: "--deny-tool <name>",
      help: permissionHelp("denyTools", "keep the backend from running this tool (repeatable)"),
      commands: RUN,
      parse: collect,
      default: NONE,
    },
    name: "denyTools",
    check: strings,
  },
  {
    cli: { flags: "--approvals <mode>", help: approvalsHelp(), commands: RUN, choices: APPROVALS_MODES },
    name: "approvals",
    check: oneOf(APPROVALS_MODES),
  },
  // The library's live answer to a permission request (an ACP agent's): the rules stay the default.
  { name: "onPermissionRequest", check: func },
  {
    cli: {
      flags: "--resume <session>",
      help: permissionHelp("resume", "continue this session of the backend with the prompt"),
      commands: RUN,
    },
    name: "resume",
    check: nonEmpty("a session id (a non-empty string)"),
  },
  {
    cli: {
      flags: "--continue-from <file>",
      help: "continue the run a canonical stream recorded (its backend, and the session of its run.finished.resume, else its session_id); --backend may then be left out",
      commands: RUN,
    },
    name: "continueFrom",
    check: nonEmpty("a file name"),
  },
  {
    cli: {
      flags: "--backend-arg <arg>",
      help: "pass one more argument to the backend, before the prompt (repeatable)",
      commands: RUN,
      parse: collect,
      default: NONE,
    },
    name: "backendArgs",
    check: strings,
  },
  {
    name: "env",
    check: (v) =>
      typeof v === "object" && v !== null && Object.values(v).every((x) => x === undefined || typeof x === "string")
        ? undefined
        : "expected an object of string values",
  },
  // Seconds on the CLI, milliseconds in the library: the CLI's parser turns them into milliseconds.
  {
    cli: {
      flags: "--timeout <seconds>",
      help: "stop the backend after this long (at most 2147483): run.finished timed_out, exit 124 (default: no limit)",
      commands: RUN,
      parse: secondsParser(false),
    },
    name: "timeoutMs",
    check: milliseconds(false),
  },
  // The limits are checked as positive numbers by checkLimits, on both sides.
  {
    cli: {
      flags: "--max-turns <n>",
      help: "stop the backend when turn n+1 (model call) begins: run.finished failed, error budget, exit 1 (default: no limit)",
      commands: RUN,
      parse: parseCount,
    },
    name: "maxTurns",
  },
  {
    cli: {
      flags: "--max-tokens <n>",
      help: "stop the backend once this run's input + output tokens reach n: failed, budget, exit 1 (default: no limit)",
      commands: RUN,
      parse: parseCount,
    },
    name: "maxTokens",
  },
  {
    cli: {
      flags: "--max-cost-usd <usd>",
      help: "stop the backend once this run's cost (reported, else estimated) reaches this: failed, budget, exit 1; a model without a known price stops it at its first usage (default: no limit)",
      commands: RUN,
      parse: parseUsd,
    },
    name: "maxCostUsd",
  },
  {
    cli: {
      flags: "--linger <seconds>",
      help: "after the backend's final event, wait at most this long for it to exit, then stop it; the outcome stays (default: wait for the exit)",
      commands: RUN,
      parse: secondsParser(true),
    },
    name: "lingerMs",
    check: milliseconds(true),
  },
  {
    cli: {
      flags: "--grace <seconds>",
      help: "how long a stopped backend gets before it is killed; 0 kills at once",
      commands: RUN,
      parse: secondsParser(true),
      default: { value: 5000, shown: "5" },
    },
    name: "graceMs",
    check: milliseconds(true),
  },
  { name: "signal", check: (v) => (v instanceof AbortSignal ? undefined : "expected an AbortSignal") },
  { cli: { flags: "-q, --quiet", help: "stderr: only what went wrong (default: off)", commands: RUN } },
  {
    cli: {
      flags: "-v, --verbose",
      help: "stderr: also the command line and the backend's own stderr, prefixed (default: off)",
      commands: RUN,
    },
  },
  { name: "onStderr", check: func },
  { name: "onNote" },
  { name: "onTranslatorBug", library: BOTH_ENTRIES, check: func },
  { name: "runId", library: BOTH_ENTRIES, check: nonEmpty("a non-empty string") },
  {
    name: "clock",
    library: BOTH_ENTRIES,
    check: (v) =>
      typeof v === "object" &&
      v !== null &&
      typeof (v as { wallMs?: unknown }).wallMs === "function" &&
      typeof (v as { monoMs?: unknown }).monoMs === "function"
        ? undefined
        : "expected a Clock { wallMs(), monoMs() }",
  },
  {
    cli: {
      flags: "--report <file>",
      help: "also write a report of the run to this file when it ends, its format from the extension: .md, .json or .html (see agentstream report)",
      commands: RUN,
    },
  },
  {
    cli: {
      flags: "--summary",
      help: "append the run's Markdown report to $GITHUB_STEP_SUMMARY (the GitHub Actions job summary)",
      commands: RUN,
    },
  },
  // normalize's own.
  {
    cli: {
      flags: "--from <backend>",
      help: `protocol of the input; auto tells it by content, reading at most ${MAX_HELD_BYTES / 1024 / 1024} MiB before it guesses`,
      commands: ["normalize"],
      choices: ["auto", ...BACKEND_NAMES],
      default: { value: "auto" },
    },
    name: "from",
    library: NORMALIZE_STREAM,
    check: oneOf(["auto", ...BACKEND_NAMES]),
  },
  // The library's normalizeStream() takes how the recorded backend ended, its stderr and its usage file as values.
  { name: "end", library: NORMALIZE_STREAM, check: plainObject("an object { backendExit?, stderrTail?, usageFile? }") },
  {
    cli: {
      flags: "--backend-exit <code|signal>",
      help: "how the recorded backend process ended (e.g. 0, 1, SIGTERM); decides the outcome of a stream with no terminal event (default: unknown, so such a stream is backend_crashed, exit 76)",
      commands: ["normalize"],
      parse: parseBackendExit,
    },
    name: "end.backendExit",
    library: NORMALIZE_STREAM,
    check: (v) =>
      v === null ||
      (typeof v === "object" &&
        ((v as BackendExit).code === null || Number.isInteger((v as BackendExit).code)) &&
        ((v as BackendExit).signal === null || typeof (v as BackendExit).signal === "string"))
        ? undefined
        : "expected null or { code: number | null, signal: string | null }",
  },
  {
    cli: {
      flags: "--stderr <file>",
      help: "the backend's recorded stderr: used for the resume hint, start-up errors and stderr_tail (default: none)",
      commands: ["normalize"],
    },
    // Its lines, in the library.
    name: "end.stderrTail",
    library: NORMALIZE_STREAM,
    check: strings,
  },
  {
    cli: {
      flags: "--usage-file <file>",
      help: "the usage file the recorded backend wrote beside its stream (Copilot CLI's --usage-output-file): its token counts go into the usage totals (default: none; Copilot's usage is then unknown)",
      commands: ["normalize"],
    },
    // Its text, in the library.
    name: "end.usageFile",
    library: NORMALIZE_STREAM,
    check: string,
  },
  {
    cli: {
      flags: "--model <name>",
      help: "the model the recorded run used, as the price table names it (gpt-5, claude-sonnet-4-5): usage whose stream names no model (Codex, EvoScientist, OpenCode) is priced as it (default: none, so such usage has no cost)",
      commands: ["normalize"],
    },
    name: "model",
    library: NORMALIZE_STREAM,
    check: string,
  },
  { name: "inputName", library: NORMALIZE_STREAM, check: string },
  // What shapes the translation itself, the same for run and normalize.
  {
    cli: {
      flags: "--raw",
      help: "attach each native object to its canonical event as `raw`",
      commands: BOTH,
      default: { value: false, shown: "off" },
    },
    name: "raw",
    library: BOTH_ENTRIES,
    check: boolean,
  },
  {
    cli: {
      flags: "--no-deltas",
      help: "drop message.delta, reasoning.delta and tool.updated events (default: kept)",
      commands: BOTH,
    },
    name: "deltas",
    library: BOTH_ENTRIES,
    negated: true,
    check: boolean,
  },
  {
    cli: {
      flags: "--max-line-bytes <n>",
      help: "longest native line kept whole, in bytes; longer ones become backend.unparsed (default: 16777216, 16 MiB; at most 268435456, 256 MiB)",
      commands: BOTH,
      parse: parseLineBytes,
    },
    name: "maxLineBytes",
    library: BOTH_ENTRIES,
    check: (v) =>
      Number.isSafeInteger(v) && (v as number) > 0 && (v as number) <= MAX_LINE_BYTES_LIMIT
        ? undefined
        : `expected a whole number of bytes from 1 to ${MAX_LINE_BYTES_LIMIT}`,
  },
  {
    cli: {
      flags: "--no-validate",
      help: "skip the runtime schema check of each output event (default: every event is checked)",
      commands: BOTH,
    },
  },
  // What stdout carries, the same for run and normalize.
  {
    cli: {
      flags: "--output <format>",
      help: "stdout: the canonical stream, only the run.finished object, or only the final answer",
      commands: BOTH,
      choices: ["jsonl", "json", "text"],
      default: { value: "jsonl" },
    },
  },
  {
    cli: {
      flags: "--answer-file <file>",
      help: "also write the final answer (as --output text prints it) to this file when the run ends; removed when there is none (default: none)",
      commands: BOTH,
    },
  },
  // A file on the CLI; in the library the schema itself (an object) or a file's path.
  {
    cli: {
      flags: "--output-schema <file>",
      help: "a JSON Schema (draft 2020-12, or draft-07 by its $schema) the final answer must match: valid, run.finished.result.json holds it; else the run fails, error output_schema, exit 1 (docs/output-schema.md)",
      commands: BOTH,
    },
    name: "outputSchema",
    library: BOTH_ENTRIES,
    check: (v) =>
      (typeof v === "string" && v !== "") || (typeof v === "object" && v !== null && !Array.isArray(v))
        ? undefined
        : "expected a JSON Schema (an object) or the path of a JSON file",
  },
  // A URL (or nothing) on the CLI, an object { endpoint?, content? } in the library.
  {
    cli: {
      flags: "--otlp [url]",
      help: "also export the run as OpenTelemetry traces over OTLP/HTTP to this collector (default: $OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, $OTEL_EXPORTER_OTLP_ENDPOINT, else http://localhost:4318)",
      commands: BOTH,
      parse: parseEndpoint,
    },
    name: "otlp",
    check: (v) => (typeof v === "object" && v !== null ? undefined : "expected an object { endpoint?, content? }"),
  },
  { name: "otlp.endpoint", check: otlpEndpoint },
  {
    cli: {
      flags: "--otlp-content",
      help: "with --otlp: also export prompts, answers, tool arguments and outputs (default: left out)",
      commands: BOTH,
    },
    name: "otlp.content",
    check: boolean,
  },
];

/** The rows an entry point of the library takes (run() by default), with their checks. */
export function libraryRows(entry: LibraryEntry): OptionRow[] {
  return RUN_OPTIONS.filter((row) => row.name !== undefined && (row.library ?? ["run"]).includes(entry));
}

/** The long flag of a CLI option, as messages name it: "--max-turns", "--quiet". */
export function longFlag(cli: CliOption): string {
  return /--[\w-]+/.exec(cli.flags)![0];
}

function row(name: string): OptionRow {
  const found = RUN_OPTIONS.find((r) => r.name === name);
  if (found === undefined) throw new Error(`no run option ${name}`);
  return found;
}

/** An option as the CLI says it: its flag. */
export const cliNaming: OptionNaming = (name) => {
  const { cli } = row(name);
  return cli === undefined ? name : longFlag(cli);
};

/** An option as the library says it: "option maxTurns", "option autoMode: false". */
export const libraryNaming: OptionNaming = (name) => `option ${name}${row(name).negated ? ": false" : ""}`;
