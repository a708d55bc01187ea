import type { EventOf } from "../canonical/events.js";
import { REPORT_LIMITS, type ToolCallNote, type ToolNameStats, type ToolsSummary } from "./report-v1.js";
import { clip } from "../core/clip.js";
import { nativeMs } from "./run-timing.js";
import { clipAgent, clipName } from "./text.js";

interface OpenCall {
  name: string;
  /** Absent on a line that breaks the schema there. */
  elapsed_ms: number | undefined;
  native_ms: number | undefined;
}

// Calls open at once past this many are still counted, but not timed: memory stays bounded.
const MAX_OPEN_CALLS = 100_000;

/**
 * A run's tool calls, reduced as they stream by: per-name aggregates, the first
 * calls (while there are few), the first failures and the slowest calls. Only
 * the calls still open are held, to time them.
 */
export class ToolStats {
  private readonly open = new Map<string, OpenCall>();
  private readonly byName = new Map<string, ToolNameStats>();
  private calls = 0;
  private completed = 0;
  private failed = 0;
  private cancelled = 0;
  private omitted = 0;
  private readonly first: ToolCallNote[] = [];
  private readonly failures: ToolCallNote[] = [];
  private readonly slowest: ToolCallNote[] = [];

  /** `timedByClock`: in `run`, elapsed_ms is when each line happened, so it can time a call. */
  constructor(private readonly timedByClock: boolean) {}

  start(e: EventOf<"tool.started">): void {
    this.calls++;
    const name = clipName(e.name);
    const stats = this.stats(name);
    if (stats) stats.calls++;
    else this.omitted++;
    if (this.open.size < MAX_OPEN_CALLS)
      this.open.set(clipName(e.tool_call_id), { name, elapsed_ms: e.elapsed_ms, native_ms: nativeMs(e.native_ts) });
  }

  complete(e: EventOf<"tool.completed">): void {
    this.completed++;
    const id = clipName(e.tool_call_id);
    const name = clipName(e.name);
    const start = this.open.get(id);
    this.open.delete(id);
    const duration = this.duration(e, start);
    const note: ToolCallNote = {
      tool_call_id: id,
      name,
      status: e.status,
      duration_ms: duration,
      ...(e.agent ? { agent: clipAgent(e.agent) } : {}),
    };
    if (e.status !== "succeeded" && e.output !== undefined) note.output = clip(e.output, REPORT_LIMITS.outputChars);
    if (e.status === "failed") this.failed++;
    if (e.status === "cancelled") this.cancelled++;
    // A call of a name never started (or started under another name) still counts under its name.
    const stats = this.byName.get(name) ?? (start ? undefined : this.stats(name));
    if (stats) {
      stats[e.status]++;
      if (duration !== null) {
        stats.timed++;
        stats.total_ms = (stats.total_ms ?? 0) + duration;
        stats.max_ms = Math.max(stats.max_ms ?? 0, duration);
      }
    }
    if (this.first.length < REPORT_LIMITS.listedCalls) this.first.push(note);
    if (e.status !== "succeeded" && this.failures.length < REPORT_LIMITS.failures) this.failures.push(note);
    if (duration !== null) keepSlowest(this.slowest, note, REPORT_LIMITS.slowest);
  }

  summary(): ToolsSummary {
    const byName = [...this.byName.values()].sort(
      (a, b) => b.failed + b.cancelled - (a.failed + a.cancelled) || b.calls - a.calls || (a.name < b.name ? -1 : 1),
    );
    const few = this.completed <= REPORT_LIMITS.listedCalls;
    return {
      calls: this.calls,
      completed: this.completed,
      failed: this.failed,
      cancelled: this.cancelled,
      open: this.calls > this.completed ? this.calls - this.completed : 0,
      by_name: byName.map((s) => ({ ...s })),
      calls_of_omitted_names: this.omitted,
      all: few ? [...this.first] : [],
      failures: [...this.failures],
      slowest: [...this.slowest],
    };
  }

  private stats(name: string): ToolNameStats | undefined {
    let stats = this.byName.get(name);
    if (!stats && this.byName.size < REPORT_LIMITS.toolNames) {
      stats = { name, calls: 0, succeeded: 0, failed: 0, cancelled: 0, timed: 0, total_ms: null, max_ms: null };
      this.byName.set(name, stats);
    }
    return stats;
  }

  /** The backend's own duration, else from the native times of both ends, else (in `run`) agentstream's clock. */
  private duration(e: EventOf<"tool.completed">, start: OpenCall | undefined): number | null {
    if (e.duration_ms !== undefined) return e.duration_ms;
    if (!start) return null;
    const end = nativeMs(e.native_ts);
    if (end !== undefined && start.native_ms !== undefined) return Math.max(0, end - start.native_ms);
    if (!this.timedByClock || e.elapsed_ms === undefined || start.elapsed_ms === undefined) return null;
    return Math.max(0, e.elapsed_ms - start.elapsed_ms);
  }
}

/** Keeps `list` as the `max` slowest notes, slowest first. */
export function keepSlowest<T extends { duration_ms: number | null }>(list: T[], note: T, max: number): void {
  const d = note.duration_ms ?? -1;
  if (list.length === max && d <= (list[max - 1]!.duration_ms ?? -1)) return;
  let i = list.length;
  while (i > 0 && (list[i - 1]!.duration_ms ?? -1) < d) i--;
  list.splice(i, 0, note);
  if (list.length > max) list.pop();
}
