// The HTML report's data: what its timeline and figures need from one run,
// collected event by event with bounds, so that a huge stream cannot make the
// report (or the process building it) grow without limit.
import type {
  CanonicalEvent,
  ErrorInfo,
  EventOf,
  RunCounts,
  RunStatus,
  ToolStatus,
  UsageTotals,
} from "../../canonical/events.js";
import { RunCounter } from "../../canonical/run-counts.js";
import { RunTiming, type RunTimingSource } from "../run-timing.js";

/** How much of a run the report keeps in detail; beyond these it counts. */
export interface HtmlLimits {
  /** Tool calls drawn as bars, per run. */
  toolCalls: number;
  /** Messages drawn as markers, per run. */
  messages: number;
  /** Errors, retries, compactions, input requests and model changes drawn as markers, per run. */
  marks: number;
  /** Sub-agent lanes per run (sub-agents beyond share one overflow lane). */
  lanes: number;
  /** Characters kept of one call's args, one output, one message or error. */
  textChars: number;
  /** Characters kept of the final answer. */
  answerChars: number;
  /** Points of the usage-over-time line, per run. */
  usagePoints: number;
  /** Runs shown in detail; further runs get one summary row each. */
  runs: number;
}

export const DEFAULT_LIMITS: HtmlLimits = {
  toolCalls: 5000,
  messages: 2000,
  marks: 1000,
  lanes: 200,
  textChars: 4000,
  answerChars: 100_000,
  usagePoints: 1000,
  runs: 50,
};

/** A text within its bound: the text itself when whole, else what was kept and the original length `n`. */
export type Clip = string | { x: string; n: number };

export function clip(text: string, max: number): Clip {
  return text.length <= max ? text : { x: text.slice(0, max), n: text.length };
}

/** What a Clip kept of its text. */
export function kept(c: Clip): string {
  return typeof c === "string" ? c : c.x;
}

export interface LaneData {
  /** 0 is the main agent; sub-agents follow in the order they started. */
  id: number;
  name: string;
  instance?: string;
  parent: number;
  /** The parent's tool call that spawned it, by its index in `tools`. */
  via?: number;
  t0: number;
  t1?: number;
  d?: number;
  paused?: boolean;
  description?: string;
}

export interface ToolData {
  lane: number;
  id: string;
  name: string;
  /** "open" when the stream ended before its tool.completed. */
  status: ToolStatus | "open";
  t0: number;
  t1?: number;
  /** The backend's own duration, where tool.completed gives one. */
  d?: number;
  reason?: string;
  /** tool.updated events seen (absent when none). */
  updates?: number;
  /** The arguments themselves (`v`) when their JSON fits the text bound, else that JSON cut. */
  args: { v: unknown } | Clip;
  out?: Clip;
}

export interface MessageData {
  lane: number;
  t: number;
  text: Clip;
  model?: string;
}

export type MarkKind = "error" | "retry" | "compaction" | "input" | "model";

export interface MarkData {
  lane: number;
  t: number;
  kind: MarkKind;
  label: string;
  detail: Clip;
}

export interface TurnData {
  turn: number;
  t0: number;
  t1?: number;
  stop?: string;
}

export interface RunData {
  file: string;
  run_id: string;
  backend: string;
  mode?: string;
  command?: string[];
  started?: string;
  /**
   * Where the times below come from (see RunTimingSource): agentstream's clock, the times the recording
   * states (from its first), or none, where the events are placed in the order they were read.
   */
  timing: RunTimingSource;
  /** Latest time seen on the run's time line. */
  end: number;
  events: number;
  /** Absent when the stream ended without run.finished. */
  status?: RunStatus;
  exit_code?: number;
  duration_ms?: number;
  answer?: Clip | null;
  usage?: UsageTotals;
  counts: RunCounts;
  error?: { code: string; message: Clip; retryable: boolean };
  resume?: string;
  stderr?: Clip;
  pending?: number;
  lanes: LaneData[];
  tools: ToolData[];
  messages: MessageData[];
  marks: MarkData[];
  turns: TurnData[];
  /** Cumulative usage: [elapsed_ms, input tokens, output tokens, cost USD]. */
  usageLine: [number, number, number, number][];
  /** What the bounds left out. */
  omitted: { tools: Record<string, number>; messages: number; marks: number; lanes: number; usagePoints: number };
}

export interface ReportData {
  title: string;
  runs: RunData[];
  /** Runs beyond the limit: their summary rows. */
  moreRuns: { file: string; run_id: string; status?: string; events: number }[];
  moreRunsCount: number;
}

type Ev<T extends CanonicalEvent["type"]> = EventOf<T>;

/** Collects one run from its events. */
export class RunCollector {
  readonly data: RunData;
  private readonly counter = new RunCounter();
  private readonly laneByInstance = new Map<string, number>();
  private overflowLane: number | undefined;
  /** Open detailed calls: lane + id → indexes into tools (a FIFO: ids may repeat). */
  private readonly open = new Map<string, number[]>();
  private readonly openTurns = new Map<number, number>();
  private usageTotals = { input: 0, output: 0, cost: 0 };
  private usageStride = 1;
  private usageSkipped = 0;
  /** Calls started beyond the limit and not completed yet: counted "open" if the stream ends first. */
  private omittedOpen = 0;
  private finished = false;
  private readonly timing = new RunTiming();

  constructor(
    file: string,
    first: CanonicalEvent,
    private readonly limits: HtmlLimits,
  ) {
    this.data = {
      file,
      run_id: first.run_id,
      backend: typeof first.backend === "string" ? first.backend : "",
      timing: "clock",
      end: 0,
      events: 0,
      counts: this.counter.snapshot(),
      lanes: [{ id: 0, name: "main agent", parent: -1, t0: 0 }],
      tools: [],
      messages: [],
      marks: [],
      turns: [],
      usageLine: [],
      omitted: { tools: {}, messages: 0, marks: 0, lanes: 0, usagePoints: 0 },
    };
  }

  get done(): boolean {
    return this.finished;
  }

  add(event: CanonicalEvent): void {
    const d = this.data;
    d.events++;
    const at = this.timing.add(event);
    // Until a recording states a time (and in one that states none), the order read stands in for it.
    const t = this.timing.source === "none" ? (typeof event.elapsed_ms === "number" ? event.elapsed_ms : d.end) : at;
    if (t > d.end) d.end = t;
    this.counter.add(event.type, (event as { status?: unknown }).status);
    switch (event.type) {
      case "run.started":
        this.started(event);
        return;
      case "turn.started":
        this.openTurns.set(event.turn, d.turns.length);
        d.turns.push({ turn: event.turn, t0: t });
        return;
      case "turn.completed": {
        const index = this.openTurns.get(event.turn);
        if (index === undefined) return;
        this.openTurns.delete(event.turn);
        d.turns[index]!.t1 = t;
        if (event.stop_reason !== undefined) d.turns[index]!.stop = event.stop_reason;
        return;
      }
      case "message.completed":
        if (d.messages.length >= this.limits.messages) d.omitted.messages++;
        else
          d.messages.push({
            lane: this.laneOf(event, t),
            t,
            text: this.text(event.text),
            ...(event.model ? { model: event.model } : {}),
          });
        return;
      case "tool.started":
        this.toolStarted(event, t);
        return;
      case "tool.updated": {
        const index = this.open.get(this.key(event, event.tool_call_id))?.[0];
        if (index !== undefined) d.tools[index]!.updates = (d.tools[index]!.updates ?? 0) + 1;
        return;
      }
      case "tool.completed":
        this.toolCompleted(event, t);
        return;
      case "subagent.started":
        this.subagentStarted(event, t);
        return;
      case "subagent.completed": {
        const lane = d.lanes[this.laneByInstance.get(event.instance_id) ?? -1];
        if (lane === undefined || lane.id === this.overflowLane) return;
        lane.t1 = t;
        if (event.duration_ms !== undefined) lane.d = event.duration_ms;
        if (event.paused) lane.paused = true;
        return;
      }
      case "usage":
        this.usage(event, t);
        return;
      case "error":
        this.mark(
          event,
          t,
          "error",
          event.code,
          event.message + (event.http_status !== undefined ? ` (HTTP ${event.http_status})` : ""),
        );
        return;
      case "retry.started":
        this.mark(
          event,
          t,
          "retry",
          `retry ${event.attempt}${event.max_attempts !== undefined ? `/${event.max_attempts}` : ""}`,
          event.error,
        );
        return;
      case "compaction.completed":
        this.mark(event, t, "compaction", "compaction", event.summary ?? event.error ?? "");
        return;
      case "input.requested":
        this.mark(event, t, "input", `input: ${event.kind}`, describeInput(event));
        return;
      case "model.changed":
        this.mark(
          event,
          t,
          "model",
          `model: ${event.model}`,
          event.previous_model ? `from ${event.previous_model} (${event.reason})` : event.reason,
        );
        return;
      case "run.finished":
        this.runFinished(event);
        return;
      default:
        return;
    }
  }

  /** Closes what the stream left open (a stream cut short). */
  close(): void {
    const d = this.data;
    d.timing = this.timing.source;
    if (d.timing === "native") {
      d.duration_ms = this.timing.nativeSpan!;
      d.started = this.timing.nativeStart!;
    }
    if (!this.finished) d.counts = this.counter.snapshot();
    for (const lane of d.lanes) if (lane.id !== 0 && lane.t1 === undefined) lane.t1 = d.end;
    for (const turn of d.turns) turn.t1 ??= d.end;
    if (this.omittedOpen > 0) d.omitted.tools.open = (d.omitted.tools.open ?? 0) + this.omittedOpen;
    this.omittedOpen = 0;
    this.open.clear();
  }

  private started(event: Ev<"run.started">): void {
    const d = this.data;
    d.mode = event.mode;
    if (event.command) d.command = event.command.slice(0, 50).map((part) => this.str(part));
    if (typeof event.ts === "string") d.started = event.ts;
  }

  private runFinished(event: Ev<"run.finished">): void {
    const d = this.data;
    this.finished = true;
    d.status = event.status;
    d.exit_code = event.exit_code;
    // A recording's duration_ms is how long the file took to read: its own times (close) or none.
    if (this.timing.source === "clock") {
      d.duration_ms = event.duration_ms;
      if (event.duration_ms > d.end) d.end = event.duration_ms;
    }
    d.answer = event.result ? clip(event.result.text, this.limits.answerChars) : null;
    if (event.usage) d.usage = event.usage;
    d.counts = event.counts ?? this.counter.snapshot();
    if (event.error) d.error = this.errorInfo(event.error);
    if (event.resume) d.resume = event.resume.hint;
    if (event.stderr_tail?.length) d.stderr = this.text(event.stderr_tail.join("\n"));
    if (event.pending?.length) d.pending = event.pending.length;
  }

  private errorInfo(error: ErrorInfo): RunData["error"] {
    return { code: error.code, message: this.text(error.message), retryable: error.retryable };
  }

  private toolStarted(event: Ev<"tool.started">, t: number): void {
    const d = this.data;
    if (d.tools.length >= this.limits.toolCalls) {
      this.omittedOpen++;
      return;
    }
    const lane = this.laneOf(event, t);
    d.tools.push({
      lane,
      id: event.tool_call_id,
      name: this.str(event.name),
      status: "open",
      t0: t,
      args: this.args(event.args),
    });
    const key = this.key(event, event.tool_call_id);
    const queue = this.open.get(key);
    if (queue) queue.push(d.tools.length - 1);
    else this.open.set(key, [d.tools.length - 1]);
  }

  private toolCompleted(event: Ev<"tool.completed">, t: number): void {
    const d = this.data;
    const key = this.key(event, event.tool_call_id);
    const queue = this.open.get(key);
    const index = queue?.shift();
    if (queue && queue.length === 0) this.open.delete(key);
    if (index === undefined) {
      // A call beyond the limit (or never started): counted by status.
      if (this.omittedOpen > 0) this.omittedOpen--;
      d.omitted.tools[event.status] = (d.omitted.tools[event.status] ?? 0) + 1;
      return;
    }
    const tool = d.tools[index]!;
    tool.status = event.status;
    tool.t1 = t;
    if (event.duration_ms !== undefined) {
      tool.d = event.duration_ms;
      // A call reported longer than its lines are apart (OpenCode writes its start and end in one line
      // when it ends) began that long before its end.
      if (t - tool.t0 < event.duration_ms && this.timing.source !== "none")
        tool.t0 = Math.max(0, t - event.duration_ms);
    }
    if (event.reason !== undefined) tool.reason = event.reason;
    tool.out = this.text(event.output);
  }

  private subagentStarted(event: Ev<"subagent.started">, t: number): void {
    const d = this.data;
    if (this.laneByInstance.has(event.instance_id)) return;
    const parent = this.laneOf(event, t);
    if (d.lanes.length > this.limits.lanes) {
      d.omitted.lanes++;
      this.laneByInstance.set(event.instance_id, this.overflow(t));
      return;
    }
    const lane: LaneData = {
      id: d.lanes.length,
      name: this.str(event.name),
      instance: event.instance_id,
      parent,
      t0: t,
    };
    if (event.description) lane.description = this.str(event.description);
    if (event.tool_call_id !== undefined) {
      const via = this.open.get(this.key(event, event.tool_call_id))?.[0];
      if (via !== undefined) lane.via = via;
    }
    d.lanes.push(lane);
    this.laneByInstance.set(event.instance_id, lane.id);
  }

  /** The lane an event belongs to: its sub-agent's, made on first sight if it never started. */
  private laneOf(event: CanonicalEvent, t: number): number {
    const agent = event.agent;
    if (!agent) return 0;
    const known = this.laneByInstance.get(agent.instance_id);
    if (known !== undefined) return known;
    const d = this.data;
    if (d.lanes.length > this.limits.lanes) {
      d.omitted.lanes++;
      const id = this.overflow(t);
      this.laneByInstance.set(agent.instance_id, id);
      return id;
    }
    const lane: LaneData = {
      id: d.lanes.length,
      name: this.str(agent.name),
      instance: agent.instance_id,
      parent: 0,
      t0: t,
    };
    d.lanes.push(lane);
    this.laneByInstance.set(agent.instance_id, lane.id);
    return lane.id;
  }

  private overflow(t: number): number {
    if (this.overflowLane === undefined) {
      this.overflowLane = this.data.lanes.length;
      this.data.lanes.push({ id: this.overflowLane, name: "more sub-agents", parent: 0, t0: t });
    }
    return this.overflowLane;
  }

  private key(event: CanonicalEvent, id: string): string {
    return `${event.agent?.instance_id ?? ""}\u0000${id}`;
  }

  private usage(event: Ev<"usage">, t: number): void {
    // A run-scope report is the backend's own total so far, not an increment.
    if (event.scope === "run") {
      this.usageTotals = {
        input: event.input_tokens,
        output: event.output_tokens,
        cost: event.cost_usd ?? this.usageTotals.cost,
      };
    } else {
      this.usageTotals.input += event.input_tokens;
      this.usageTotals.output += event.output_tokens;
      this.usageTotals.cost += event.cost_usd ?? 0;
    }
    const line = this.data.usageLine;
    const point: [number, number, number, number] = [
      t,
      this.usageTotals.input,
      this.usageTotals.output,
      round(this.usageTotals.cost),
    ];
    // Past the bound, keep every other point and sample half as often: the line keeps its shape and its end.
    if (this.usageSkipped + 1 < this.usageStride && line.length > 0) {
      this.usageSkipped++;
      this.data.omitted.usagePoints++;
      line[line.length - 1] = point;
      return;
    }
    this.usageSkipped = 0;
    line.push(point);
    if (line.length > this.limits.usagePoints) {
      const kept = line.filter((_, i) => i % 2 === 1 || i === line.length - 1);
      this.data.omitted.usagePoints += line.length - kept.length;
      line.length = 0;
      line.push(...kept);
      this.usageStride *= 2;
    }
  }

  private mark(event: CanonicalEvent, t: number, kind: MarkKind, label: string, detail: string): void {
    const d = this.data;
    if (d.marks.length >= this.limits.marks) {
      d.omitted.marks++;
      return;
    }
    d.marks.push({ lane: this.laneOf(event, t), t, kind, label: this.str(label), detail: this.text(detail) });
  }

  private str(value: unknown): string {
    return kept(this.text(value));
  }

  /** Arguments are kept as they are (no JSON in a JSON string) where they fit the bound. */
  private args(value: unknown): ToolData["args"] {
    const json = stringify(value);
    if (json === undefined) return this.text(String(value));
    return json.length <= this.limits.textChars ? { v: value } : clip(json, this.limits.textChars);
  }

  private text(value: unknown): Clip {
    return clip(typeof value === "string" ? value : String(value ?? ""), this.limits.textChars);
  }
}

function describeInput(event: Ev<"input.requested">): string {
  const lines: string[] = [];
  for (const action of event.actions ?? [])
    lines.push(`${action.name}: ${action.description} [${action.allowed_decisions.join(", ")}]`);
  for (const question of event.questions ?? []) lines.push(question.question);
  return lines.join("\n");
}

/** Compact JSON, or undefined where the value has none (undefined, a cycle, a BigInt). */
function stringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}
