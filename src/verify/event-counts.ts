import type { RunCounts } from "../canonical/events.js";
import { isObject } from "../translators/fields.js";

/** What each run.finished count counts: lines of one type (and, for failures, one status). */
const COUNTED: Record<keyof RunCounts, { type: string; status?: string }> = {
  turns: { type: "turn.started" },
  messages: { type: "message.completed" },
  tool_calls: { type: "tool.started" },
  tool_failures: { type: "tool.completed", status: "failed" },
  errors: { type: "error" },
  retries: { type: "retry.started" },
  unknown_events: { type: "backend.event" },
  unparsed_lines: { type: "backend.unparsed" },
};

const KEYS = Object.keys(COUNTED) as (keyof RunCounts)[];

/** Counts the lines behind run.finished.counts, to compare them with what it reports. */
export class EventCounts {
  private readonly seen = zeroCounts();

  add(event: Record<string, unknown>): void {
    for (const key of KEYS) {
      const { type, status } = COUNTED[key];
      if (event.type === type && (status === undefined || event.status === status)) this.seen[key]++;
    }
  }

  /** One message per count that differs from the stream; none for a malformed `counts` (the schema reports it). */
  mismatches(reported: unknown): string[] {
    if (!isObject(reported)) return [];
    const out: string[] = [];
    for (const key of KEYS) {
      const value = reported[key];
      if (typeof value !== "number" || value === this.seen[key]) continue;
      const { type, status } = COUNTED[key];
      const what = status === undefined ? type : `${type} with status ${status}`;
      out.push(`counts.${key} is ${value}, but the stream has ${this.seen[key]} ${what} line${this.seen[key] === 1 ? "" : "s"}`);
    }
    return out;
  }
}

function zeroCounts(): RunCounts {
  const counts = {} as RunCounts;
  for (const key of KEYS) counts[key] = 0;
  return counts;
}
