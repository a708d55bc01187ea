// The options of run and normalize, declared once, one row each: the request's field and its lifetime,
// the CLI's flag (how it is parsed, its help), the library's entry points that take it, its check, its
// default and its relations to other options. Commander's options, the library's checks, the defaults
// and the request types (src/app/request.ts) are made from this table. Errors about an option
// (OptionError) name it by its key; each side words them from here, the CLI with its flag, the library
// with its option name, so no flag name reaches a library caller.
import { TRANSPORTS } from "../backends/definition.js";
import { APPROVALS_MODES, type PermissionCallback } from "../backends/request.js";
import { BACKEND_NAMES } from "../backends/registry.js";
import type { Clock } from "../core/clock.js";
import { listed, type OptionNaming } from "../core/errors.js";
import { MAX_HELD_BYTES } from "../core/translation-session.js";
import type { StreamEndFacts } from "../core/translator.js";
import { STEP_SUMMARY } from "../output/sink.js";
import { approvalsHelp, binHelp, flagHelp, permissionHelp } from "./backend-help.js";
import { WORKSPACE_MODES, agentsCheck, collectAgents, parseShard, planCheck, shardCheck } from "./compare-values.js";
import {
  above0,
  backendExit,
  boolean,
  type Check,
  checkOf,
  collect,
  func,
  lineBytes,
  milliseconds,
  nonEmpty,
  oneOf,
  otlpEndpoint,
  parseBackendExit,
  parseCount,
  parseEndpoint,
  parseLineBytes,
  parseUsd,
  plainObject,
  secondsParser,
  string,
  strings,
} from "./option-values.js";

export type Command = "run" | "normalize" | "compare";

/** The library's entry points: run() and normalizeStream(). */
export type LibraryEntry = "run" | "normalizeStream" | "compare";

/**
 * When a value is used, which decides where the request hands it: what to run (agent), how native events
 * become canonical (translation), what stops the run (limits, timing), where the events go (outputs), what
 * the caller supplies and hears (host), what a recording's run was (recording), how many runs are made and
 * compared (compare).
 */
export type Lifetime = "agent" | "translation" | "limits" | "timing" | "outputs" | "host" | "recording" | "compare";

/** An option as the CLI has it: what commander is given. */
export interface CliOption {
  /** Commander's flags, as --help shows them: "--max-turns <n>", "-q, --quiet". */
  flags: string;
  help: string;
  commands: readonly Command[];
  /** Turns the text given into the request's value; throws an Error saying what was expected. */
  parse?: (text: string, previous: unknown) => unknown;
  choices?: readonly string[];
  /** Commander is given the row's default, and --help shows it so (true: as commander shows it). */
  shownDefault?: string | true;
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

export interface OptionRow<K extends string = string, T = unknown> {
  /** The request's field; the library's option name (otlp.endpoint: a field of the otlp object). */
  key: K;
  lifetime: Lifetime;
  /** The library's check of a value (the CLI's flags are parsed first, then checked the same). */
  check: Check<T>;
  /** The CLI's option, or none when only the library has it. */
  cli?: CliOption;
  /** The library's entry points that take it; none: only the CLI has it. */
  library?: readonly LibraryEntry[];
  /** The request's value when none is given, on both sides. */
  default?: T;
  /** The flag is the value's opposite: --no-auto-mode is autoMode: false. */
  negated?: boolean;
  /** The backend is given it: its value goes into the portable request, each backend's `supports` says what it becomes. */
  portable?: true;
  /** The library must be given it (the CLI has it as its argument); `unless` another option stands in. */
  required?: { unless?: string };
  relations?: readonly (Excludes | Needs)[];
  /**
   * The option names a file it reads or writes: its value, or (`env`) the file that variable names
   * (--summary). No output may be an input or another output (src/app/shared-files.ts).
   */
  file?: FileUse;
}

/** A file an option reads (an input) or writes (an output). */
export interface FileUse {
  role: "reads" | "writes";
  /** The file is the one this variable names, not the option's value. */
  env?: string;
}

const READS = { role: "reads" } as const;
const WRITES = { role: "writes" } as const;

const NONE = "none";
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
      parse: collectAgents,
      shownDefault: NONE,
    },
    library: COMPARE,
    check: agentsCheck,
    default: [],
  },
  { key: "prompt", lifetime: "compare", library: COMPARE, check: string },
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
      parse: parseCount,
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
      parse: secondsParser(false),
      shownDefault: "600",
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
      parse: parseCount,
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
      parse: parseUsd,
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
      parse: parseShard,
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

/** The options of run and normalize: the CLI's in the order --help shows them, the library's in the order it checks them. */
const TABLE = [
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
      shownDefault: true,
    },
    library: LIB_RUN,
    check: oneOf(TRANSPORTS),
    default: "native",
  },
  // On the CLI the prompt is the argument, or this file.
  { key: "prompt", lifetime: "agent", library: LIB_RUN, check: string, required: {} },
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
  },
  {
    key: "cwd",
    lifetime: "agent",
    cli: { flags: "--cwd <dir>", help: "directory the backend runs in (default: the current one)", commands: RUN },
    library: LIB_RUN,
    check: string,
  },
  {
    key: "model",
    lifetime: "agent",
    portable: true,
    cli: { flags: "--model <id>", help: flagHelp("model", "the model", "the backend's own"), commands: RUN },
    library: LIB_RUN,
    check: string,
  },
  {
    key: "provider",
    lifetime: "agent",
    portable: true,
    cli: {
      flags: "--provider <name>",
      help: flagHelp("provider", "the provider", "the backend's own"),
      commands: RUN,
    },
    library: LIB_RUN,
    check: string,
  },
  {
    key: "workdir",
    lifetime: "agent",
    portable: true,
    cli: {
      flags: "--workdir <dir>",
      help: flagHelp("workdir", "the agent's working directory (its /), created if missing", "the backend's own"),
      commands: RUN,
    },
    library: LIB_RUN,
    check: string,
  },
  {
    key: "autoMode",
    lifetime: "agent",
    portable: true,
    cli: {
      flags: "--no-auto-mode",
      help: flagHelp("autoMode", "approvals and questions stop the run with exit 3", "auto mode"),
      commands: RUN,
    },
    library: LIB_RUN,
    negated: true,
    check: boolean,
    default: true,
    relations: [{ excludes: "approvals", value: "auto" }],
  },
  {
    key: "allowTools",
    lifetime: "agent",
    portable: true,
    cli: {
      flags: "--allow-tool <name>",
      help: permissionHelp(
        "allowTools",
        "let the backend run this tool without asking (repeatable; NAME(PATTERN) where it can)",
      ),
      commands: RUN,
      parse: collect,
      shownDefault: NONE,
    },
    library: LIB_RUN,
    check: strings,
    default: [],
  },
  {
    key: "denyTools",
    lifetime: "agent",
    portable: true,
    cli: {
      flags: "--deny-tool <name>",
      help: permissionHelp("denyTools", "keep the backend from running this tool (repeatable)"),
      commands: RUN,
      parse: collect,
      shownDefault: NONE,
    },
    library: LIB_RUN,
    check: strings,
    default: [],
  },
  {
    key: "approvals",
    lifetime: "agent",
    portable: true,
    cli: { flags: "--approvals <mode>", help: approvalsHelp(), commands: RUN, choices: APPROVALS_MODES },
    library: LIB_RUN,
    check: oneOf(APPROVALS_MODES),
  },
  // The answerers of a permission request no rule decides (an ACP agent's, asked live): one per run.
  {
    key: "approveWith",
    lifetime: "agent",
    portable: true,
    cli: {
      flags: "--approve-with <cmd>",
      help: "answer each permission request no rule decides by running CMD (sh -c) with the input.requested event on its stdin: exit 0 allows, anything else rejects (backends asked live only: docs/permissions.md)",
      commands: RUN,
    },
    library: LIB_RUN,
    check: nonEmpty("a command line (a non-empty string)"),
    relations: [
      { excludes: "approvals", value: "ask" },
      { excludes: "approvals", value: "auto" },
    ],
  },
  {
    key: "onPermissionRequest",
    lifetime: "agent",
    library: LIB_RUN,
    check: func<PermissionCallback>(),
    relations: [{ excludes: "approveWith" }, { excludes: "approvals", value: "ask" }],
  },
  {
    key: "answerTimeoutMs",
    lifetime: "agent",
    cli: {
      flags: "--answer-timeout <seconds>",
      help: "how long --approve-with's command or a person (--approvals ask) has to answer one request, then it is rejected",
      commands: RUN,
      parse: secondsParser(false),
      shownDefault: "60",
    },
    library: LIB_RUN,
    check: milliseconds(false),
    default: 60_000,
  },
  {
    key: "resume",
    lifetime: "agent",
    portable: true,
    cli: {
      flags: "--resume <session>",
      help: permissionHelp("resume", "continue this session of the backend with the prompt"),
      commands: RUN,
    },
    library: LIB_RUN,
    check: nonEmpty("a session id (a non-empty string)"),
    relations: [{ excludes: "continueFrom" }],
  },
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
  },
  {
    key: "backendArgs",
    lifetime: "agent",
    cli: {
      flags: "--backend-arg <arg>",
      help: "pass one more argument to the backend, before the prompt (repeatable)",
      commands: RUN,
      parse: collect,
      shownDefault: NONE,
    },
    library: LIB_RUN,
    check: strings,
    default: [],
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
      parse: secondsParser(false),
    },
    library: LIB_RUN,
    check: milliseconds(false),
  },
  {
    key: "maxTurns",
    lifetime: "limits",
    portable: true,
    cli: {
      flags: "--max-turns <n>",
      help: "stop the backend when turn n+1 (model call) begins: run.finished failed, error budget, exit 1 (default: no limit)",
      commands: RUN,
      parse: parseCount,
    },
    library: LIB_RUN,
    check: above0(true),
  },
  {
    key: "maxTokens",
    lifetime: "limits",
    portable: true,
    cli: {
      flags: "--max-tokens <n>",
      help: "stop the backend once this run's input + output tokens reach n: failed, budget, exit 1 (default: no limit)",
      commands: RUN,
      parse: parseCount,
    },
    library: LIB_RUN,
    check: above0(true),
  },
  {
    key: "maxCostUsd",
    lifetime: "limits",
    portable: true,
    cli: {
      flags: "--max-cost-usd <usd>",
      help: "stop the backend once this run's cost (reported, else estimated) reaches this: failed, budget, exit 1; a model without a known price stops it at its first usage (default: no limit)",
      commands: RUN,
      parse: parseUsd,
    },
    library: LIB_RUN,
    check: above0(false),
  },
  {
    key: "lingerMs",
    lifetime: "timing",
    cli: {
      flags: "--linger <seconds>",
      help: "after the backend's final event, wait at most this long for it to exit, then stop it; the outcome stays (default: wait for the exit)",
      commands: RUN,
      parse: secondsParser(true),
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
      parse: secondsParser(true),
      shownDefault: "5",
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
      shownDefault: true,
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
      parse: parseBackendExit,
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
  {
    key: "usageFile",
    lifetime: "recording",
    file: READS,
    cli: {
      flags: "--usage-file <file>",
      help: "the usage file the recorded backend wrote beside its stream (Copilot CLI's --usage-output-file): its token counts go into the usage totals (default: none; Copilot's usage is then unknown)",
      commands: ["normalize"],
    },
    check: string,
  },
  { key: "end.usageFile", lifetime: "recording", library: LIB_NORMALIZE, check: string },
  {
    key: "model",
    lifetime: "recording",
    cli: {
      flags: "--model <name>",
      help: "the model the recorded run used, as the price table names it (gpt-5, claude-sonnet-4-5): usage whose stream names no model (Codex, EvoScientist, OpenCode) is priced as it (default: none, so such usage has no cost)",
      commands: ["normalize"],
    },
    library: LIB_NORMALIZE,
    check: string,
  },
  { key: "inputName", lifetime: "recording", library: LIB_NORMALIZE, check: string },
  // What shapes the translation itself, the same for run and normalize.
  {
    key: "raw",
    lifetime: "translation",
    cli: {
      flags: "--raw",
      help: "attach each native object to its canonical event as `raw`",
      commands: BOTH,
      shownDefault: "off",
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
      parse: parseLineBytes,
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
      shownDefault: true,
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
  {
    key: "outputSchema",
    lifetime: "agent",
    file: READS,
    portable: true,
    cli: {
      flags: "--output-schema <file>",
      help: "a JSON Schema (draft 2020-12, or draft-07 by its $schema) the final answer must match: valid, run.finished.result.json holds it; else the run fails, error output_schema, exit 1 (docs/output-schema.md)",
      commands: BOTH,
    },
    library: LIB_BOTH,
    check: checkOf<object | string>((v) =>
      (typeof v === "string" && v !== "") || (typeof v === "object" && v !== null && !Array.isArray(v))
        ? undefined
        : "expected a JSON Schema (an object) or the path of a JSON file",
    ),
  },
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
] as const satisfies readonly OptionRow[];

/** Each row of the table with its own literal types: what the request types are derived from. */
export type TableRow = (typeof TABLE)[number];

/** The table's rows, as code that reads them generically sees them. */
export const RUN_OPTIONS: readonly OptionRow[] = TABLE;
const ROWS = RUN_OPTIONS;

/** The rows an entry point of the library takes, with their checks. */
export function libraryRows(entry: LibraryEntry): OptionRow[] {
  return ROWS.filter((row) => row.library?.includes(entry));
}

/** The rows a command of the CLI takes, in the order --help shows them. */
export function cliRows(command: Command): (OptionRow & { cli: CliOption })[] {
  return ROWS.filter((row): row is OptionRow & { cli: CliOption } => row.cli?.commands.includes(command) === true);
}

/** The long flag of a CLI option, as messages name it: "--max-turns", "--quiet". */
export function longFlag(cli: CliOption): string {
  return /--[\w-]+/.exec(cli.flags)![0];
}

function row(key: string): OptionRow {
  const found = ROWS.find((r) => r.key === key);
  if (found === undefined) throw new Error(`no run option ${key}`);
  return found;
}

/** An option as the CLI says it: its flag; given values, the flag once for each ("--backend-arg=A --backend-arg=B"). */
export const cliNaming: OptionNaming = (key, values) => {
  const { cli } = row(key);
  const flag = cli === undefined ? key : longFlag(cli);
  return values === undefined ? flag : values.map((value) => `${flag}=${value}`).join(" ");
};

/** An option as the library says it: "option maxTurns", "option autoMode: false"; given values, 'option backendArgs ["A", "B"]'. */
export const libraryNaming: OptionNaming = (key, values) =>
  `option ${key}${row(key).negated ? ": false" : ""}${values === undefined ? "" : ` ${listed(values)}`}`;
