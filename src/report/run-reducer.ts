import type { CanonicalEvent, EventOf, InputRequest, RunCounts, UsageTotals } from "../canonical/events.js";
import { COUNT_KEYS, RunCounter } from "../canonical/run-counts.js";
import { readReportEvent } from "./event-reading.js";
import { RunTiming } from "./run-timing.js";
import { SkippedEvents } from "./skipped-events.js";
import {
  REPORT_LIMITS,
  type CompactionNote,
  type ErrorNote,
  type PendingNote,
  type RetryNote,
  type RunSummary,
  type SubagentNote,
} from "./report-v1.js";
import { clip } from "../core/clip.js";
import { defined } from "../core/fields.js";
import { clipAgent, clipName } from "./text.js";
import { ToolStats } from "./tool-stats.js";

const USAGE_KEYS = [
  "input_tokens",
  "output_tokens",
  "cache_read_input_tokens",
  "cache_write_input_tokens",
  "reasoning_tokens",
  "total_tokens",
  "cost_usd",
  "cost_source",
  "price_data",
  "complete",
] as const satisfies readonly (keyof UsageTotals)[];

/**
 * One run's summary, reduced event by event as the stream goes by: the
 * outcome is taken from run.finished (status, exit code, error, duration,
 * usage, counts, answer), everything else kept bounded (REPORT_LIMITS), never
 * the stream itself. Each event is read against the schema first
 * (event-reading.ts): what breaks it is skipped, and the summary says so.
 */
export class RunReducer {
  private readonly counter = new RunCounter();
  private tools: ToolStats;
  private finished: EventOf<"run.finished"> | undefined;
  private readonly run_id: string;
  private readonly backend: string;
  private session_id: string | null = null;
  private mode: "run" | "normalize" | null = null;
  private started_at: string | null = null;
  private readonly models: string[] = [];
  private subagentCount = 0;
  private readonly subagents: SubagentNote[] = [];
  private readonly retries: RetryNote[] = [];
  private readonly compactions: CompactionNote[] = [];
  private readonly errors: ErrorNote[] = [];
  private readonly skipped = new SkippedEvents();
  private readonly timing = new RunTiming();
  private events = 0;

  constructor(
    private readonly file: string,
    first: CanonicalEvent,
  ) {
    this.run_id = clipName(String(first.run_id));
    this.backend = typeof first.backend === "string" ? clipName(first.backend) : "";
    this.tools = new ToolStats(false);
  }

  get runId(): string {
    return this.run_id;
  }

  /** Whether run.finished has been seen: a later event belongs to another run. */
  get done(): boolean {
    return this.finished !== undefined;
  }

  add(event: CanonicalEvent): void {
    this.events++;
    const read = readReportEvent(event);
    this.skipped.add(event, read);
    const e = read.event;
    if (e === undefined) return;
    this.timing.add(e);
    this.counter.add(e.type, (e as { status?: unknown }).status);
    if (e.session_id !== undefined) this.session_id = clipName(e.session_id);
    switch (e.type) {
      case "run.started":
        this.mode = e.mode ?? null;
        this.started_at = e.ts ?? null;
        this.tools = new ToolStats(e.mode === "run");
        break;
      case "tool.started":
        this.tools.start(e);
        break;
      case "tool.completed":
        this.tools.complete(e);
        break;
      case "message.completed":
      case "usage":
        if (e.model !== undefined) this.model(e.model);
        break;
      case "model.changed":
        this.model(e.model);
        break;
      case "subagent.started":
        this.subagentCount++;
        if (this.subagents.length < REPORT_LIMITS.subagents) {
          this.subagents.push({
            name: clipName(e.name),
            instance_id: clipName(e.instance_id),
            ...(e.description !== undefined ? { description: clip(e.description, REPORT_LIMITS.outputChars) } : {}),
            ...(e.tool_call_id !== undefined ? { tool_call_id: clipName(e.tool_call_id) } : {}),
            duration_ms: null,
            completed: false,
            paused: false,
          });
        }
        break;
      case "subagent.completed": {
        const note = this.subagents.find((s) => s.instance_id === clipName(e.instance_id) && !s.completed);
        if (note)
          Object.assign(note, { completed: true, paused: e.paused === true, duration_ms: e.duration_ms ?? null });
        break;
      }
      case "retry.started":
        if (this.retries.length < REPORT_LIMITS.notes) {
          this.retries.push({
            scope: e.scope,
            attempt: e.attempt,
            ...(e.max_attempts !== undefined ? { max_attempts: e.max_attempts } : {}),
            delay_ms: e.delay_ms,
            error: clip(e.error, REPORT_LIMITS.outputChars),
          });
        }
        break;
      case "compaction.completed":
        if (this.compactions.length < REPORT_LIMITS.notes) {
          const { reason, tokens_before, tokens_after, aborted, error } = e;
          this.compactions.push(
            defined({
              reason: reason === undefined ? undefined : clip(reason, REPORT_LIMITS.outputChars),
              tokens_before,
              tokens_after,
              aborted,
              error: error === undefined ? undefined : clip(error, REPORT_LIMITS.outputChars),
            }),
          );
        }
        break;
      case "error":
        if (this.errors.length < REPORT_LIMITS.notes) {
          const { code, retryable, http_status, agent } = e;
          this.errors.push(
            defined({
              code,
              message: clip(e.message, REPORT_LIMITS.messageChars),
              retryable,
              http_status,
              agent: agent === undefined ? undefined : clipAgent(agent),
            }),
          );
        }
        break;
      case "run.finished":
        this.finished = e;
        break;
    }
  }

  summary(): RunSummary {
    const f = this.finished;
    const text = f?.result?.text ?? null;
    const skipped = this.skipped.summary();
    // A recording's run.finished.duration_ms is how long the file took to read: its own times, or none.
    const timing = this.timing.source;
    return {
      file: clipName(this.file),
      run_id: this.run_id,
      backend: this.backend,
      session_id: this.session_id,
      mode: this.mode,
      started_at: timing === "native" ? this.timing.nativeStart : this.started_at,
      models: [...this.models],
      finished: f !== undefined,
      status: f?.status ?? "incomplete",
      exit_code: f?.exit_code ?? null,
      duration_ms: timing === "clock" ? (f?.duration_ms ?? null) : this.timing.nativeSpan,
      timing,
      error: f?.error
        ? {
            code: f.error.code,
            message: clip(f.error.message, REPORT_LIMITS.messageChars),
            retryable: f.error.retryable,
          }
        : null,
      result_text: text === null ? null : clip(text, REPORT_LIMITS.resultChars),
      result_truncated: text !== null && text.length > REPORT_LIMITS.resultChars,
      usage: f?.usage ? pick(f.usage, USAGE_KEYS) : null,
      counts: f?.counts ? pick(f.counts, COUNT_KEYS) : this.counter.snapshot(),
      tools: this.tools.summary(),
      subagents: { count: this.subagentCount, list: this.subagents.map((s) => ({ ...s })) },
      retries: [...this.retries],
      compactions: [...this.compactions],
      errors: [...this.errors],
      pending: (f?.pending ?? []).slice(0, REPORT_LIMITS.notes).map(pendingNote),
      resume: f?.resume
        ? { session_id: clipName(f.resume.session_id), hint: clip(f.resume.hint, REPORT_LIMITS.messageChars) }
        : null,
      stderr_tail: (f?.stderr_tail ?? [])
        .slice(-REPORT_LIMITS.stderrLines)
        .map((line) => clip(line, REPORT_LIMITS.stderrLineChars)),
      events: this.events,
      ...(skipped ? { skipped } : {}),
    };
  }

  private model(model: string): void {
    const name = clipName(model);
    if (this.models.length < REPORT_LIMITS.models && !this.models.includes(name)) this.models.push(name);
  }
}

/** Only the named members of `o` (a stream's object may carry more than the report's schema allows). */
function pick<T extends UsageTotals | RunCounts, K extends keyof T>(o: T, keys: readonly K[]): T {
  return Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]])) as unknown as T;
}

function pendingNote(p: InputRequest): PendingNote {
  const asks = [
    ...(p.actions ?? []).map((a) => (a.description ? `${a.name}: ${a.description}` : a.name)),
    ...(p.questions ?? []).map((q) => q.question),
  ].slice(0, REPORT_LIMITS.notes);
  return {
    request_id: clipName(p.request_id),
    kind: p.kind,
    ...(p.tool_call_id !== undefined ? { tool_call_id: clipName(p.tool_call_id) } : {}),
    asks: asks.map((a) => clip(a, REPORT_LIMITS.outputChars)),
  };
}
