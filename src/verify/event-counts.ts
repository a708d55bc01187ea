import { COUNT_KEYS, COUNTED, RunCounter } from "../canonical/run-counts.js";
import { isObject } from "../core/fields.js";

/** Counts the lines behind run.finished.counts, to compare them with what it reports. */
export class EventCounts {
  private readonly seen = new RunCounter();

  add(event: Record<string, unknown>): void {
    this.seen.add(event.type, event.status);
  }

  /** One message per count that differs from the stream; none for a malformed `counts` (the schema reports it). */
  mismatches(reported: unknown): string[] {
    if (!isObject(reported)) return [];
    const out: string[] = [];
    for (const key of COUNT_KEYS) {
      const value = reported[key];
      const seen = this.seen.get(key);
      if (typeof value !== "number" || value === seen) continue;
      const { type, status } = COUNTED[key];
      const what = status === undefined ? type : `${type} with status ${status}`;
      out.push(`counts.${key} is ${value}, but the stream has ${seen} ${what} line${seen === 1 ? "" : "s"}`);
    }
    return out;
  }
}
