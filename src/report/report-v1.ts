import type { RunTimingSource } from "./run-timing.js";
import type {
  AgentRef,
  ErrorCode,
  ErrorInfo,
  RunCounts,
  RunStatus,
  ToolStatus,
  UsageTotals,
} from "../canonical/events.js";

// The report as data: what `agentstream report --format json` writes, and what
// every format renders. schemas/report-v1.schema.json is its machine form
// (test/unit/report/report.test.ts validates every example's report, and every golden's, against it).

export const REPORT_VERSION = 1;

/** A run's status, or `incomplete`: its stream ended before run.finished (cut short), so no outcome is known. */
export type ReportStatus = RunStatus | "incomplete";

export interface ToolCallNote {
  tool_call_id: string;
  name: string;
  status: ToolStatus;
  /** The backend's duration, else from the native times, else (in `run`) agentstream's clock; null when unknown. */
  duration_ms: number | null;
  agent?: AgentRef;
  /** Failed and cancelled calls: the start of their output. */
  output?: string;
}

export interface ToolNameStats {
  name: string;
  /** tool.started lines of this name. */
  calls: number;
  succeeded: number;
  failed: number;
  cancelled: number;
  /** Completed calls whose duration is known; total_ms and max_ms are over these (null when there are none). */
  timed: number;
  total_ms: number | null;
  max_ms: number | null;
}

export interface ToolsSummary {
  /** tool.started lines (run.finished.counts.tool_calls when the run finished). */
  calls: number;
  completed: number;
  failed: number;
  cancelled: number;
  /** Started and never completed in the stream (a stream cut short). */
  open: number;
  /** Per tool name: failures first, then the most calls. */
  by_name: ToolNameStats[];
  /** Calls of names past the first REPORT_LIMITS.toolNames distinct ones: counted above, not by name. */
  calls_of_omitted_names: number;
  /** All calls in order while there are few (REPORT_LIMITS.listedCalls); else empty and `notable` holds failures and the slowest. */
  all: ToolCallNote[];
  /** The first failed or cancelled calls. */
  failures: ToolCallNote[];
  /** The slowest completed calls, slowest first. */
  slowest: ToolCallNote[];
}

export interface SubagentNote {
  name: string;
  instance_id: string;
  description?: string;
  tool_call_id?: string;
  /** Null until it completes, or when the backend gives no duration. */
  duration_ms: number | null;
  completed: boolean;
  paused: boolean;
}

export interface SubagentsSummary {
  count: number;
  /** The first REPORT_LIMITS.subagents sub-agents, in order. */
  list: SubagentNote[];
}

export interface RetryNote {
  scope: "request" | "summarization";
  attempt: number;
  max_attempts?: number;
  delay_ms: number;
  error: string;
}

export interface CompactionNote {
  reason?: string;
  tokens_before?: number;
  tokens_after?: number;
  aborted?: boolean;
  error?: string;
}

export interface ErrorNote {
  code: ErrorCode;
  message: string;
  retryable: boolean;
  http_status?: number;
  agent?: AgentRef;
}

export interface PendingNote {
  request_id: string;
  kind: "approval" | "question";
  tool_call_id?: string;
  /** What is asked: the actions to approve, or the questions. */
  asks: string[];
}

export interface RunSummary {
  /** The input it came from, as given ("-" for stdin). */
  file: string;
  run_id: string;
  backend: string;
  session_id: string | null;
  mode: "run" | "normalize" | null;
  /** run.started's ts; for a recording that states times (timing "native"), the first of them. */
  started_at: string | null;
  /** Models named by its messages and usage, in order of appearance. */
  models: string[];
  /** Whether the stream held run.finished; the outcome fields below come from it, and are null when it did not. */
  finished: boolean;
  status: ReportStatus;
  exit_code: number | null;
  /**
   * How long the run took, by `timing`: run.finished's duration (clock), the span of the times the
   * recording states (native); null when unknown (timing "none", or a live run that did not finish).
   */
  duration_ms: number | null;
  /** Where the run's times (its duration, its calls' durations) come from. */
  timing: RunTimingSource;
  error: ErrorInfo | null;
  /** run.finished.result.text. */
  result_text: string | null;
  /** The answer was longer than REPORT_LIMITS.resultChars and is cut there. */
  result_truncated: boolean;
  /** run.finished.usage; null when the run did not finish or reported none. */
  usage: UsageTotals | null;
  /** run.finished.counts; for a run that did not finish, what its lines show so far. */
  counts: RunCounts;
  tools: ToolsSummary;
  subagents: SubagentsSummary;
  retries: RetryNote[];
  compactions: CompactionNote[];
  errors: ErrorNote[];
  /** What it waits for (needs_input). */
  pending: PendingNote[];
  resume: { session_id: string; hint: string } | null;
  stderr_tail: string[];
  /** Lines of the stream that belong to this run. */
  events: number;
  /** What of its events the report could not read (they break the canonical schema); absent when it read them all. */
  skipped?: SkippedNote;
}

export interface SkippedNote {
  /** Events not read at all: a field the report cannot do without breaks the schema. */
  events: number;
  /** Fields (or list items) left out of events that were read otherwise. */
  fields: number;
  /** A run.finished was among the events skipped: the run's outcome is unknown. */
  run_finished: boolean;
  /** The first REPORT_LIMITS.notes of them: `seq 12 tool.completed skipped: output must be a string`. */
  notes: string[];
}

export interface ToolTotals {
  name: string;
  calls: number;
  failed: number;
  timed: number;
  total_ms: number;
  max_ms: number | null;
  mean_ms: number | null;
}

export interface ReportTotals {
  runs: number;
  finished: number;
  by_status: Record<ReportStatus, number>;
  /** Succeeded runs over all runs (an incomplete run did not succeed); null with no runs. */
  success_rate: number | null;
  /** Sum of the runs' known durations. */
  duration_ms: number;
  /** False when a run's duration is unknown (a recording without times, a run cut short): duration_ms is then a lower bound. */
  duration_complete: boolean;
  tool_calls: number;
  tool_failures: number;
  input_tokens: number;
  output_tokens: number;
  /** Sum of the costs that were reported; null when no run reported one. */
  cost_usd: number | null;
  /** False when a run's token counts are missing or under-reported: the sums are then lower bounds. */
  usage_complete: boolean;
  /** False when a run reported no cost: cost_usd is then a lower bound (or null). */
  cost_complete: boolean;
  /** Tool names by the time spent in them over all runs, most first. */
  slowest_tools: ToolTotals[];
}

export interface Report {
  report_version: typeof REPORT_VERSION;
  runs: RunSummary[];
  totals: ReportTotals;
}

/**
 * How much a report keeps, whatever the stream's size (the README's report
 * section lists them). A text cut to its cap ends in "…".
 */
export const REPORT_LIMITS = {
  /** Distinct tool names counted by name; calls of further names are counted apart. */
  toolNames: 500,
  /** Calls listed one by one while a run has no more completed calls than this. */
  listedCalls: 30,
  failures: 20,
  slowest: 10,
  subagents: 50,
  /** Retries, compactions, errors, input requests (and the asks of each), skipped-event notes. */
  notes: 20,
  models: 20,
  slowestTools: 10,
  /** Lines kept of run.finished.stderr_tail (its last ones). */
  stderrLines: 20,
  /** Characters of a name or id: file, run, backend, session, model, tool, call, agent, request. */
  nameChars: 300,
  /** Characters of a tool's output, a retry's or compaction's error, an ask, a sub-agent's task, a note. */
  outputChars: 300,
  /** Characters of one line of stderr_tail. */
  stderrLineChars: 1000,
  /** Characters of an error message and of the resume hint. */
  messageChars: 2000,
  /** Characters of the final answer. */
  resultChars: 100_000,
  /**
   * Characters of any text of an event as it is read, before each format's own
   * cap (above: more than any format keeps, so that each still sees a text was cut).
   */
  eventTextChars: 10_000,
  /** The same, for the final answer. */
  eventAnswerChars: 200_000,
} as const;
