// The canonical v1 event types. schemas/canonical-v1.schema.json is the
// machine form of the same contract; test/unit/schema/schema-types.test.ts proves that the
// two list the same event types and fields.

/** @deprecated a plain `string` (the layers below the registry cannot know its names); `BackendName` where the registry is known. */
export type Backend = string;
// Each list the contract holds is written once, here: its type is derived from it, and the schemas'
// enums are checked against it byte for byte by the build (src/app/contract-lists.ts).

/** How run.started's backend was known: named by the user, shown by the content, or a guess. */
export const DETECTIONS = ["given", "detected", "guessed"] as const;
export type Detection = (typeof DETECTIONS)[number];

/** error.code and run.finished.error.code (`output_schema`: the final answer did not match --output-schema). */
export const ERROR_CODES = [
  "auth",
  "rate_limit",
  "overloaded",
  "network",
  "context_length",
  "provider",
  "aborted",
  "tool",
  "acceptance",
  "budget",
  "output_schema",
  "refused_call_ran",
  "config",
  "usage",
  "backend_not_found",
  "backend_startup",
  "backend_crashed",
  "backend_protocol",
  "timeout",
  "cancelled",
  "internal",
  "unknown",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const TOOL_STATUSES = ["succeeded", "failed", "cancelled"] as const;
export type ToolStatus = (typeof TOOL_STATUSES)[number];
export const COMPACTION_REASONS = ["manual", "threshold", "overflow"] as const;
export type CompactionReason = (typeof COMPACTION_REASONS)[number];
export type RetryScope = "request" | "summarization";
export const RUN_STATUSES = ["succeeded", "failed", "needs_input", "cancelled", "timed_out"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
/** run.finished.exit_code: the README's exit-code table, less the codes told without a stream (74, 141). */
export const EXIT_CODES = [0, 1, 2, 3, 69, 75, 76, 77, 78, 124, 130, 143] as const;
export type ExitCode = (typeof EXIT_CODES)[number];
/** Where a run's cost came from: the backend's reports, agentstream's estimates, or both summed. */
export const COST_SOURCES = ["reported", "estimated", "mixed"] as const;
export type CostSource = (typeof COST_SOURCES)[number];

/** Fields every line carries, in this key order. */
export interface Envelope {
  v: 1;
  seq: number;
  ts: string;
  elapsed_ms: number;
  run_id: string;
  /** A backend's name, one of src/backends/registry.ts (`BackendName`; the schema's `backend` enum lists the same: tested). */
  backend: string;
  type: string;
  session_id?: string;
  agent?: AgentRef;
  native?: string;
  /** The native event's own time (RFC 3339 UTC with milliseconds), where it states one. */
  native_ts?: string;
  synthetic?: true;
  raw?: unknown;
}

export interface AgentRef {
  name: string;
  instance_id: string;
}

/** An agent as it names itself (ACP's `Implementation`): which program, at which version, ran. */
export interface AgentInfo {
  name: string;
  title?: string;
  version?: string;
}

export interface InputAction {
  name: string;
  args: Record<string, unknown>;
  description: string;
  allowed_decisions: string[];
}

export interface InputQuestion {
  /** The field's key, as an answer names it (an ACP form's property name): added in 0.2.0. */
  id?: string;
  question: string;
  type: string;
  choices?: unknown[];
  required?: boolean;
}

export interface InputRequest {
  request_id: string;
  kind: "approval" | "question";
  tool_call_id?: string;
  actions?: InputAction[];
  questions?: InputQuestion[];
  /** What a question asks as a whole (an ACP form's message): added in 0.2.0. */
  message?: string;
}

/** Who decided a permission request agentstream answered live (ACP): see input.answered. */
export const ANSWERED_BY = ["rule", "approvals", "callback", "default", "command", "person"] as const;
export type AnsweredBy = (typeof ANSWERED_BY)[number];

/** agentstream's answer to a permission request it was asked live (input.requested of an ACP agent). */
export interface InputAnswer {
  request_id: string;
  tool_call_id?: string;
  decision: "allow" | "reject";
  /** The option selected among those offered; absent where the request was answered cancelled. */
  option_id?: string;
  /**
   * A --allow-tool/--deny-tool rule (named in `rule`), --approvals auto, the library's onPermissionRequest
   * callback, the --approve-with command, a person at the terminal (--approvals ask), or the default: no one
   * decided, the turn is stopped and the run ends needs_input.
   */
  by: AnsweredBy;
  /** The rule as given; the rules that allowed a compound shell command's commands, joined by ", ". */
  rule?: string;
  /**
   * A question's answer (ACP's elicitation action): accept (with `answers`), decline (the answerer said no) or
   * cancel (no answer: none came, in time or at all, or the run stopped; the question stays pending).
   */
  action?: QuestionAction;
  /** What was answered, by field id (the content sent to the agent; secrets hidden as anywhere in the stream). */
  answers?: Record<string, unknown>;
}

export const QUESTION_ACTIONS = ["accept", "decline", "cancel"] as const;
export type QuestionAction = (typeof QUESTION_ACTIONS)[number];

export interface ErrorInfo {
  code: ErrorCode;
  message: string;
  retryable: boolean;
}

/** Token counts as OpenTelemetry GenAI means them: input includes cache reads and writes, output includes reasoning. */
export interface TokenCounts {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number;
  cache_write_input_tokens?: number;
  reasoning_tokens?: number;
  total_tokens?: number;
  cost_usd?: number;
}

export interface UsageTotals extends TokenCounts {
  /**
   * false where the backend is known to leave model calls out of its reports, or where agentstream stopped
   * the run (a limit, --timeout, a signal) during a model call whose usage had not come: the usage so far
   * (zero where none came).
   */
  complete?: boolean;
  /** Where cost_usd came from: the backend's reports, agentstream's estimates, or both summed. */
  cost_source?: CostSource;
  /** The price data the estimated part came from ("genai-prices 0.1.8"). */
  price_data?: string;
}

export interface RunCounts {
  turns: number;
  messages: number;
  tool_calls: number;
  tool_failures: number;
  errors: number;
  retries: number;
  unknown_events: number;
  unparsed_lines: number;
}

/**
 * How --output-schema reached the backend: `native` its own option (Claude Code's --json-schema, Codex's
 * --output-schema), `prompt` an instruction added to the prompt (docs/output-schema.md), `none` not at all
 * (normalize: a recording's answer is only checked). `file`: the schema's file, when it came from one.
 */
export interface OutputSchemaUse {
  via: "native" | "prompt" | "none";
  file?: string;
}

export interface BackendExit {
  code: number | null;
  signal: string | null;
}

/** Payload of each event type, keyed by its `type`. */
export interface EventPayloads {
  "run.started": {
    agentstream_version: string;
    mode: "run" | "normalize";
    command?: string[];
    cwd?: string;
    input?: string;
    detection?: Detection;
    /** The session this run continues (run --resume / --continue-from). */
    resumed_from?: string;
    /** --output-schema: how the schema reached the backend, and its file. */
    output_schema?: OutputSchemaUse;
    /** The protocol the agent was driven and read over (the schema lists them: ACP), where `backend` does not say it (Qwen Code, `--transport acp`). */
    transport?: string;
  };
  "session.started": {
    session_id: string;
    protocol_version?: number;
    cwd?: string;
    /** The agent that answered, as it named itself (ACP's `agentInfo` in its `initialize` response). */
    agent_info?: AgentInfo;
  };
  /**
   * What the user asked: in `run` the prompt the run was given, in `normalize` each user message
   * the recording shows. Redacted, then cut past MAX_PROMPT_EVENT_CHARS (`bytes`: the whole prompt's UTF-8
   * size, only where it was cut, the text then ending with a marker saying so).
   */
  "prompt.submitted": { text: string; bytes?: number };
  "turn.started": { turn: number };
  "turn.completed": { turn: number; stop_reason?: string };
  "message.delta": { message_id: string; text: string };
  "message.completed": {
    message_id: string;
    text: string;
    model?: string;
    provider?: string;
    stop_reason?: string;
  };
  "reasoning.delta": { message_id: string; text: string };
  "reasoning.completed": { message_id: string; text: string };
  "tool.started": {
    tool_call_id: string;
    name: string;
    args: Record<string, unknown>;
    /** server: the model's provider ran it (Claude's server-side web search), not the agent. */
    kind?: "server";
  };
  "tool.updated": { tool_call_id: string; name: string; output: string };
  "tool.completed": {
    tool_call_id: string;
    name: string;
    status: ToolStatus;
    output: string;
    duration_ms?: number;
    reason?: "awaiting_input" | "run_ended" | "backend_exited";
    /** The agent ran the call though agentstream refused it or answered its permission request cancelled (ACP). */
    unapproved?: true;
  };
  "subagent.started": { name: string; instance_id: string; tool_call_id?: string; description?: string };
  "subagent.completed": { name: string; instance_id: string; duration_ms?: number; paused?: true };
  usage: TokenCounts & {
    /** call/message: one model call or message; run: the backend's own total for the run (Gemini CLI, once; Codex, the increase at each turn). */
    scope: "call" | "message" | "run";
    model?: string;
    provider?: string;
    /** Where cost_usd came from: the backend's report, or estimated by agentstream from the model and the tokens. */
    cost_source?: Exclude<CostSource, "mixed">;
    /** For an estimate: the price data it came from ("genai-prices 0.1.8"). */
    price_data?: string;
  };
  "tools.selected": { tools: string[] };
  "compaction.started": { reason?: CompactionReason };
  "compaction.completed": {
    reason?: CompactionReason;
    summary?: string;
    tokens_before?: number;
    tokens_after?: number;
    will_retry?: boolean;
    aborted?: boolean;
    error?: string;
  };
  "retry.started": {
    scope: RetryScope;
    attempt: number;
    /** Absent where the backend retries within a time budget instead (EvoScientist). */
    max_attempts?: number;
    delay_ms: number;
    error: string;
  };
  "retry.completed": { scope: RetryScope; success?: boolean; attempt?: number; error?: string };
  "model.changed": {
    model: string;
    provider?: string;
    previous_model?: string;
    reason: "set" | "cycle" | "restore" | "fallback";
  };
  "model.fallback": {
    phase: "started" | "completed";
    from?: string;
    to?: string;
    success?: boolean;
    error?: string;
  };
  "session.updated": {
    name?: string;
    thinking_level?: string;
    queue?: { steering: string[]; follow_up: string[] };
  };
  "input.requested": InputRequest;
  "input.answered": InputAnswer;
  error: { code: ErrorCode; message: string; retryable: boolean; http_status?: number };
  "backend.event": { native_type: string; raw: unknown };
  "backend.unparsed": {
    line: string;
    reason: "invalid_json" | "not_an_object" | "missing_type" | "line_too_long";
  };
  "run.finished": {
    status: RunStatus;
    exit_code: ExitCode;
    backend_exit: BackendExit | null;
    duration_ms: number;
    /** `json`: the answer's JSON value, with --output-schema, when it matched the schema. */
    result: { text: string; json?: unknown } | null;
    usage?: UsageTotals;
    counts: RunCounts;
    error?: ErrorInfo;
    pending?: InputRequest[];
    resume?: { session_id: string; hint: string };
    stderr_tail?: string[];
    /** How many backend sessions the stream held, when more than one: the outcome and usage are the last one's. */
    sessions?: number;
  };
}

export type EventType = keyof EventPayloads;

/** One canonical line: the envelope plus the payload of its type. */
export type CanonicalEvent = {
  [T in EventType]: Envelope & { type: T } & EventPayloads[T];
}[EventType];

export type EventOf<T extends EventType> = Envelope & { type: T } & EventPayloads[T];
