import type { CanonicalEvent } from "../canonical/events.js";

/**
 * Where a report takes a run's times from: `clock`, agentstream's own clock as the run went (a live
 * `run`: each event's elapsed_ms); `native`, the times the backend wrote in a recorded stream
 * (native_ts); `none`, a recording whose backend writes no times (Claude Code, Codex, EvoScientist):
 * its elapsed_ms say only how long the file took to read, so its times are unknown.
 */
export type RunTimingSource = "clock" | "native" | "none";

/**
 * One run's time line, read event by event: each event's time in ms from the run's start. In a
 * recording an event that states no time of its own (run.started, a synthesized event) takes the
 * latest time stated before it; a stream without run.started is read as a recording.
 */
export class RunTiming {
  private live = false;
  private firstNative: number | undefined;
  private lastNative: number | undefined;
  private latest = 0;

  /** The event's time on the run's time line (0 until a recording states one). */
  add(event: CanonicalEvent): number {
    if (event.type === "run.started") this.live = (event as { mode?: unknown }).mode === "run";
    if (this.live) {
      if (typeof event.elapsed_ms === "number") this.latest = Math.max(this.latest, event.elapsed_ms);
      return typeof event.elapsed_ms === "number" ? event.elapsed_ms : this.latest;
    }
    const at = nativeMs(event.native_ts);
    if (at === undefined) return this.latest;
    this.firstNative ??= at;
    this.lastNative = Math.max(this.lastNative ?? at, at);
    this.latest = this.lastNative - this.firstNative;
    return Math.max(0, at - this.firstNative);
  }

  /** A recording whose events all state one same time (one native line) tells no duration either: "none". */
  get source(): RunTimingSource {
    if (this.live) return "clock";
    return this.firstNative !== undefined && this.lastNative! > this.firstNative ? "native" : "none";
  }

  /** A recording's span from its first stated time to its last; null where it states none (and in a live run). */
  get nativeSpan(): number | null {
    return this.source !== "native" ? null : this.lastNative! - this.firstNative!;
  }

  /** The first time a recording states, as native_ts wrote it; null where it states none. */
  get nativeStart(): string | null {
    return this.source !== "native" ? null : new Date(this.firstNative!).toISOString();
  }
}

/** native_ts in ms since the epoch, where it parses. */
export function nativeMs(ts: string | undefined): number | undefined {
  if (ts === undefined) return undefined;
  const ms = Date.parse(ts);
  return Number.isFinite(ms) ? ms : undefined;
}
