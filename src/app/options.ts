// The options of run and normalize, declared once, one row each: the request's field and its lifetime,
// the CLI's flag (how it is parsed, its help), the library's entry points that take it, its check, its
// default and its relations to other options. Commander's options, the library's checks, the defaults
// and the request types (src/app/request.ts) are made from this table. The rows a backend is given
// (portable) are src/backends/portable-rows.ts's, placed here where --help shows them. Errors about an
// option (OptionError) name it by its key; each side words them from here, the CLI with its flag, the
// library with its option name, so no flag name reaches a library caller.
import { TRANSPORTS } from "../backends/definition.js";
import { PORTABLE_ROWS } from "../backends/portable-rows.js";
import { BACKEND_NAMES } from "../backends/registry.js";
import type { Clock } from "../core/clock.js";
import { optionTable, spelledAt, type OptionRow, type TableEntry } from "../core/option-row.js";
import {
  backendExit,
  above0,
  boolean,
  checkOf,
  func,
  lineBytes,
  milliseconds,
  nonEmpty,
  oneOf,
  otlpEndpoint,
  parseEndpoint,
  plainObject,
  string,
  strings,
} from "../core/option-values.js";
import { MAX_HELD_BYTES } from "../core/translation-session.js";
import type { StreamEndFacts } from "../core/translator.js";
import { STEP_SUMMARY } from "../output/sink.js";
import { binHelp } from "./backend-help.js";
import { WORKSPACE_MODES, agentsCheck, planCheck, shardCheck } from "./compare-values.js";

export type { Command, OptionRow } from "../core/option-row.js";
export { longFlag } from "../core/option-row.js";

const READS = { role: "reads" } as const;
const WRITES = { role: "writes" } as const;

const RUN = ["run"] as const;
const BOTH = ["run", "normalize"] as const;
const LIB_RUN = ["run"] as const;
const LIB_BOTH = ["run", "normalizeStream"] as const;
const LIB_NORMALIZE = ["normalizeStream"] as const;
const FROM = ["auto", ...BACKEND_NAMES] as const;

// compare's own options (agentstream compare, the library's compare()), one block: every run option that shapes
// one run applies to each of its cells besides these (src/compare/options.ts says which it refuses).
const COMPARE = ["compare"] as const;
const COMPARE_ROWS = [
  {
    key: "agents",
    lifetime: "compare",
    cli: {
      flags: "--backend <name[:model]>",
      help: "an agent to compare: a backend, optionally a colon and its model (repeatable, or a comma list: --backend claude:sonnet,codex)",
      commands: COMPARE,
      showDefault: true,
    },
    library: COMPARE,
    check: agentsCheck,
    default: [],
  },
  {
    key: "plan",
    lifetime: "compare",
    file: READS,
    cli: {
      flags: "--plan <file>",
      help: "a plan, JSON or YAML: tasks [{id, prompt | prompt_file, setup, check, workspace}] x agents [{backend, model, args, bin}] x repeat (docs/compare.md)",
      commands: COMPARE,
    },
    library: COMPARE,
    check: planCheck,
  },
  {
    key: "repeat",
    lifetime: "compare",
    cli: {
      flags: "--repeat <n>",
      help: "run each agent on each task n times (default: 1)",
      commands: COMPARE,
    },
    library: COMPARE,
    check: above0(true),
  },
  {
    key: "workspace",
    lifetime: "compare",
    cli: {
      flags: "--workspace <mode>",
      help: "each cell's folder: a git worktree of HEAD (the default in a git repository), a copy of the folder (the default elsewhere), or none (the folder itself; cells then run one at a time)",
      commands: COMPARE,
      choices: WORKSPACE_MODES,
    },
    library: COMPARE,
    check: oneOf(WORKSPACE_MODES),
  },
  {
    key: "setup",
    lifetime: "compare",
    cli: {
      flags: "--setup <cmd>",
      help: "run this in each cell's workspace before its agent (split into words, no shell; 'sh -c \"...\"' for one)",
      commands: COMPARE,
    },
    library: COMPARE,
    check: nonEmpty("a command line (a non-empty string)"),
  },
  {
    key: "check",
    lifetime: "compare",
    cli: {
      flags: "--check <cmd>",
      help: "run this in each cell's workspace after its agent: exit 0 passed, else failed (split into words, no shell)",
      commands: COMPARE,
    },
    library: COMPARE,
    check: nonEmpty("a command line (a non-empty string)"),
  },
  {
    key: "checkTimeoutMs",
    lifetime: "compare",
    cli: {
      flags: "--check-timeout <seconds>",
      help: "stop a setup or check command after this long: it then failed",
      commands: COMPARE,
      showDefault: true,
    },
    library: COMPARE,
    check: milliseconds(false),
    default: 600_000,
  },
  {
    key: "parallel",
    lifetime: "compare",
    cli: {
      flags: "--parallel <k>",
      help: "run at most k cells at once (default: the machine's CPU count)",
      commands: COMPARE,
    },
    library: COMPARE,
    check: above0(true),
  },
  {
    key: "out",
    lifetime: "compare",
    cli: {
      flags: "--out <dir>",
      help: "the compare's folder (required): each cell's stream, stderr, diff, check log and record; run again with it to resume",
      commands: COMPARE,
    },
    library: COMPARE,
    check: nonEmpty("a folder name"),
    required: {},
  },
  {
    key: "retry",
    lifetime: "compare",
    cli: {
      flags: "--retry <which>",
      help: "resuming: also run again the cells that finished without passing",
      commands: COMPARE,
      choices: ["failed"],
    },
    library: COMPARE,
    check: oneOf(["failed"]),
  },
  {
    key: "keep",
    lifetime: "compare",
    cli: {
      flags: "--keep",
      help: "keep each cell's workspace (default: removed when the cell ends)",
      commands: COMPARE,
    },
    library: COMPARE,
    check: boolean,
  },
  {
    key: "maxTotalCostUsd",
    lifetime: "compare",
    cli: {
      flags: "--max-total-cost-usd <usd>",
      help: "a budget for the whole compare (reported, else estimated cost): no cell starts once it is spent, and the running ones stop at it (failed, budget)",
      commands: COMPARE,
    },
    library: COMPARE,
    check: above0(false),
  },
  {
    key: "shard",
    lifetime: "compare",
    cli: {
      flags: "--shard <i/n|auto>",
      help: "run only shard i of n (1-based; the same cells on every machine), or auto: GitLab's CI_NODE_INDEX/CI_NODE_TOTAL, a Kubernetes Indexed Job's JOB_COMPLETION_INDEX (0-based) with AGENTSTREAM_SHARD_TOTAL",
      commands: COMPARE,
    },
    library: COMPARE,
    check: shardCheck,
  },
  {
    key: "merge",
    lifetime: "compare",
    cli: {
      flags: "--merge <dirs...>",
      help: "run nothing: read these --out folders (a compare's shards) and print their rows and the side by side",
      commands: COMPARE,
    },
    check: strings,
  },
] as const satisfies readonly OptionRow[];

/** The portable rows by key, to place them. */
const P = Object.fromEntries(PORTABLE_ROWS.map((row) => [row.key, row])) as {
  [R in (typeof PORTABLE_ROWS)[number] as R["key"]]: R;
};

/**
 * The options of run and normalize: the CLI's in the order --help shows them, the library's in the order it
 * checks them (a portable row not placed here comes last).
 */
export const TABLE_ROWS = [
  // Required, but checked after the unknown options (main.ts): `--backnd` is named as a typo.
  {
    key: "backend",
    lifetime: "agent",
    cli: { flags: "--backend <name>", help: "the agent to run (required)", commands: RUN, choices: BACKEND_NAMES },
    library: LIB_RUN,
    check: oneOf(BACKEND_NAMES),
    required: { unless: "continueFrom" },
  },
  {
    key: "transport",
    lifetime: "agent",
    cli: {
      flags: "--transport <protocol>",
      help: "how the agent is driven: native (its own stream) or acp (the Agent Client Protocol, permission requests answered live by the rules; Gemini CLI, OpenCode, Copilot CLI, and Claude Code and Codex through their ACP adapters)",
      commands: RUN,
      choices: TRANSPORTS,
      showDefault: true,
    },
    library: LIB_RUN,
    check: oneOf(TRANSPORTS),
    default: "native",
  },
  // On the CLI the prompt is the argument, or this file.
  // compare() takes it too, where its plan may stand in (compare checks that one of them is given).
  {
    key: "prompt",
    lifetime: "agent",
    library: ["run", "compare"],
    check: string,
    required: { by: ["run"] },
  },
  {
    key: "promptFile",
    lifetime: "agent",
    file: READS,
    cli: {
      flags: "--prompt-file <file>",
      help: "read the prompt from a file instead (one trailing newline dropped)",
      commands: RUN,
    },
    check: string,
  },
  {
    key: "bin",
    lifetime: "agent",
    cli: { flags: "--bin <path>", help: binHelp(), commands: RUN },
    library: LIB_RUN,
    check: string,
    argument: { kind: "passable" },
  },
  {
    key: "cwd",
    lifetime: "agent",
    cli: { flags: "--cwd <dir>", help: "directory the backend runs in (default: the current one)", commands: RUN },
    library: LIB_RUN,
    check: string,
    argument: { kind: "passable" },
  },
  P.model,
  P.provider,
  P.workdir,
  P.autoMode,
  P.allowTools,
  P.denyTools,
  P.approvals,
  // The answerers of a permission request no rule decides (an ACP agent's, asked live): one per run.
  P.approveWith,
  P.onPermissionRequest,
  // Questions (ACP form elicitation): answered by the run's answerer, or left pending (docs/permissions.md).
  P.questions,
  {
    key: "answerTimeoutMs",
    lifetime: "agent",
    cli: {
      flags: "--answer-timeout <seconds>",
      help: "how long --approve-with's command or a person (--approvals ask) has to answer one request (then it is rejected) or question (then it is cancelled)",
      commands: RUN,
      showDefault: true,
    },
    library: LIB_RUN,
    check: milliseconds(false),
    default: 60_000,
  },
  P.resume,
  {
    key: "continueFrom",
    lifetime: "agent",
    file: READS,
    cli: {
      flags: "--continue-from <file>",
      help: "continue the run a canonical stream recorded (its backend, and the session of its run.finished.resume, else its session_id); --backend may then be left out",
      commands: RUN,
    },
    library: LIB_RUN,
    check: nonEmpty("a file name"),
    oneRun: "continues one run: it cannot apply to every cell of a compare",
  },
  {
    key: "backendArgs",
    lifetime: "agent",
    cli: {
      flags: "--backend-arg <arg>",
      help: "pass one more argument to the backend, before the prompt (repeatable)",
      commands: RUN,
      showDefault: true,
    },
    library: LIB_RUN,
    check: strings,
    default: [],
    // Passed as given; a value may hold a secret: named by its place, never quoted.
    argument: { kind: "passable" },
  },
  {
    key: "env",
    lifetime: "agent",
    library: LIB_RUN,
    check: checkOf<NodeJS.ProcessEnv>((v) =>
      typeof v === "object" && v !== null && Object.values(v).every((x) => x === undefined || typeof x === "string")
        ? undefined
        : "expected an object of string values",
    ),
  },
  // Seconds on the CLI, milliseconds in the request: the CLI's parser turns them into milliseconds.
  {
    key: "timeoutMs",
    lifetime: "timing",
    cli: {
      flags: "--timeout <seconds>",
      help: "stop the backend after this long (at most 2147483): run.finished timed_out, exit 124 (default: no limit)",
      commands: RUN,
    },
    library: LIB_RUN,
    check: milliseconds(false),
  },
  P.maxTurns,
  P.maxTokens,
  P.maxCostUsd,
  {
    key: "lingerMs",
    lifetime: "timing",
    cli: {
      flags: "--linger <seconds>",
      help: "after the backend's final event, wait at most this long for it to exit, then stop it; the outcome stays (default: wait for the exit)",
      commands: RUN,
    },
    library: LIB_RUN,
    check: milliseconds(true),
  },
  {
    key: "graceMs",
    lifetime: "timing",
    cli: {
      flags: "--grace <seconds>",
      help: "how long a stopped backend gets before it is killed; 0 kills at once",
      commands: RUN,
      showDefault: true,
    },
    library: LIB_RUN,
    check: milliseconds(true),
    default: 5000,
  },
  {
    key: "signal",
    lifetime: "host",
    library: LIB_RUN,
    check: checkOf<AbortSignal>((v) => (v instanceof AbortSignal ? undefined : "expected an AbortSignal")),
  },
  {
    key: "quiet",
    lifetime: "host",
    cli: { flags: "-q, --quiet", help: "stderr: only what went wrong (default: off)", commands: RUN },
    check: boolean,
    relations: [{ excludes: "verbose" }],
  },
  {
    key: "verbose",
    lifetime: "host",
    cli: {
      flags: "-v, --verbose",
      help: "stderr: also the command line and the backend's own stderr, prefixed (default: off)",
      commands: RUN,
    },
    check: boolean,
  },
  { key: "onStderr", lifetime: "host", library: LIB_RUN, check: func<(chunk: Buffer) => void>() },
  { key: "onNote", lifetime: "host", library: LIB_RUN, check: func<(text: string) => void>() },
  { key: "onTranslatorBug", lifetime: "host", library: LIB_BOTH, check: func<(message: string) => void>() },
  { key: "runId", lifetime: "host", library: LIB_BOTH, check: nonEmpty("a non-empty string") },
  {
    key: "clock",
    lifetime: "host",
    library: LIB_BOTH,
    check: checkOf<Clock>((v) =>
      typeof v === "object" &&
      v !== null &&
      typeof (v as { wallMs?: unknown }).wallMs === "function" &&
      typeof (v as { monoMs?: unknown }).monoMs === "function"
        ? undefined
        : "expected a Clock { wallMs(), monoMs() }",
    ),
  },
  {
    key: "report",
    lifetime: "outputs",
    file: WRITES,
    cli: {
      flags: "--report <file>",
      help: "also write a report of the run to this file when it ends, its format from the extension: .md, .json or .html (see agentstream report)",
      commands: RUN,
    },
    check: string,
  },
  {
    key: "summary",
    lifetime: "outputs",
    file: { role: "writes", env: STEP_SUMMARY },
    cli: {
      flags: "--summary",
      help: "append the run's Markdown report to $GITHUB_STEP_SUMMARY (the GitHub Actions job summary)",
      commands: RUN,
    },
    check: boolean,
    oneRun: `writes one run's report: for a compare, write its report to the job summary (agentstream report DIR >> "$GITHUB_STEP_SUMMARY")`,
  },
  // normalize's own.
  {
    key: "from",
    lifetime: "recording",
    cli: {
      flags: "--from <backend>",
      help: `protocol of the input; auto tells it by content, reading at most ${MAX_HELD_BYTES / 1024 / 1024} MiB before it guesses`,
      commands: ["normalize"],
      choices: FROM,
      showDefault: true,
    },
    library: LIB_NORMALIZE,
    check: oneOf(FROM),
    default: "auto",
  },
  // The library's normalizeStream() takes how the recorded backend ended, its stderr and its usage file as values.
  {
    key: "end",
    lifetime: "recording",
    library: LIB_NORMALIZE,
    check: plainObject<Partial<StreamEndFacts>>("an object { backendExit?, stderrTail?, usageFile? }"),
  },
  {
    key: "end.backendExit",
    lifetime: "recording",
    cli: {
      flags: "--backend-exit <code|signal>",
      help: "how the recorded backend process ended (e.g. 0, 1, SIGTERM); decides the outcome of a stream with no terminal event (default: unknown, so such a stream is backend_crashed, exit 76)",
      commands: ["normalize"],
    },
    library: LIB_NORMALIZE,
    check: backendExit,
  },
  // A file on the CLI, its lines in the library (end.stderrTail): the CLI reads it into them.
  {
    key: "stderr",
    lifetime: "recording",
    file: READS,
    cli: {
      flags: "--stderr <file>",
      help: "the backend's recorded stderr: used for the resume hint, start-up errors and stderr_tail (default: none)",
      commands: ["normalize"],
    },
    check: string,
  },
  { key: "end.stderrTail", lifetime: "recording", library: LIB_NORMALIZE, check: strings },
  // A file on the CLI, its text in the library (end.usageFile): the CLI reads it into that.
  P.usageFile,
  spelledAt(P.model, "normalize"),
  { key: "end.usageFile", lifetime: "recording", library: LIB_NORMALIZE, check: string },
  { key: "inputName", lifetime: "recording", library: LIB_NORMALIZE, check: string },
  // What shapes the translation itself, the same for run and normalize.
  {
    key: "raw",
    lifetime: "translation",
    cli: {
      flags: "--raw",
      help: "attach each native object to its canonical event as `raw`",
      commands: BOTH,
      showDefault: true,
    },
    library: LIB_BOTH,
    check: boolean,
    default: false,
  },
  {
    key: "deltas",
    lifetime: "translation",
    cli: {
      flags: "--no-deltas",
      help: "drop message.delta, reasoning.delta and tool.updated events (default: kept)",
      commands: BOTH,
    },
    library: LIB_BOTH,
    negated: true,
    check: boolean,
    default: true,
  },
  {
    key: "promptInStream",
    lifetime: "translation",
    cli: {
      flags: "--no-prompt-in-stream",
      help: "leave the prompt out of the stream: no prompt.submitted event, and run.started.command shows [prompt left out] where the prompt was (default: recorded, redacted and bounded)",
      commands: BOTH,
    },
    library: LIB_BOTH,
    negated: true,
    check: boolean,
    default: true,
  },
  {
    key: "maxLineBytes",
    lifetime: "translation",
    cli: {
      flags: "--max-line-bytes <n>",
      help: "longest native line kept whole, in bytes; longer ones become backend.unparsed (default: 16777216, 16 MiB; at most 268435456, 256 MiB)",
      commands: BOTH,
    },
    library: LIB_BOTH,
    check: lineBytes,
  },
  {
    key: "validate",
    lifetime: "outputs",
    cli: {
      flags: "--no-validate",
      help: "skip the runtime schema check of each output event (default: every event is checked)",
      commands: BOTH,
    },
    negated: true,
    check: boolean,
    default: true,
  },
  // What stdout carries, the same for run and normalize.
  {
    key: "output",
    lifetime: "outputs",
    cli: {
      flags: "--output <format>",
      help: "stdout: the canonical stream, only the run.finished object, or only the final answer",
      commands: BOTH,
      choices: ["jsonl", "json", "text"],
      showDefault: true,
    },
    check: oneOf(["jsonl", "json", "text"]),
    default: "jsonl",
  },
  {
    key: "answerFile",
    lifetime: "outputs",
    file: WRITES,
    cli: {
      flags: "--answer-file <file>",
      help: "also write the final answer (as --output text prints it) to this file when the run ends; removed when there is none (default: none)",
      commands: BOTH,
    },
    check: string,
  },
  {
    key: "atif",
    lifetime: "outputs",
    file: WRITES,
    cli: {
      flags: "--atif <file>",
      help: "also write the run as an ATIF trajectory (the document export atif makes of its stream) to this file when it ends, whatever its outcome (default: none)",
      commands: BOTH,
    },
    library: LIB_BOTH,
    check: string,
  },
  // A file on the CLI; in the library the schema itself (an object) or a file's path.
  P.outputSchema,
  // A URL (or nothing) on the CLI, an object { endpoint?, content? } in the library.
  {
    key: "otlp",
    lifetime: "outputs",
    cli: {
      flags: "--otlp [url]",
      help: "also export the run as OpenTelemetry traces over OTLP/HTTP to this collector (default: $OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, $OTEL_EXPORTER_OTLP_ENDPOINT, else http://localhost:4318)",
      commands: BOTH,
      parse: parseEndpoint,
      toRequest: (url) => (url === true ? {} : { endpoint: url }),
    },
    library: LIB_RUN,
    check: plainObject<{ endpoint?: string; content?: boolean }>("an object { endpoint?, content? }"),
  },
  { key: "otlp.endpoint", lifetime: "outputs", library: LIB_RUN, check: checkOf<string>(otlpEndpoint) },
  {
    key: "otlp.content",
    lifetime: "outputs",
    cli: {
      flags: "--otlp-content",
      help: "with --otlp: also export prompts, answers, tool arguments and outputs (default: left out)",
      commands: BOTH,
    },
    library: LIB_RUN,
    check: boolean,
    relations: [{ needs: "otlp" }],
  },
  ...COMPARE_ROWS,
] as const satisfies readonly TableEntry[];

/** Each row of the table with its own literal types: what the request types are derived from. */
export type TableRow = Extract<(typeof TABLE_ROWS)[number], OptionRow> | (typeof PORTABLE_ROWS)[number];

/** The option table of run and normalize. */
export const OPTIONS = optionTable(TABLE_ROWS, PORTABLE_ROWS);

/** The table's rows, as code that reads them generically sees them. */
export const RUN_OPTIONS: readonly OptionRow[] = OPTIONS.rows;

/** The rows an entry point of the library takes, with their checks. */
export const libraryRows = OPTIONS.libraryRows;

/** The rows a command of the CLI takes, each with its CLI option for that command, in the order --help shows them. */
export const cliRows = OPTIONS.cliRows;

/** An option as the CLI says it: its flag; given values, the flag once for each ("--backend-arg=A --backend-arg=B"). */
export const cliNaming = OPTIONS.cliNaming;

/** An option as the library says it: "option maxTurns", "option autoMode: false"; given values, 'option backendArgs ["A", "B"]'. */
export const libraryNaming = OPTIONS.libraryNaming;
