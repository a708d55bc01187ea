import type { RunCounts } from "./events.js";

/** What each run.finished count counts: lines of one type (and, for failures, one status). */
export const COUNTED: Readonly<Record<keyof RunCounts, { type: string; status?: string }>> = {
  turns: { type: "turn.started" },
  messages: { type: "message.completed" },
  tool_calls: { type: "tool.started" },
  tool_failures: { type: "tool.completed", status: "failed" },
  errors: { type: "error" },
  retries: { type: "retry.started" },
  unknown_events: { type: "backend.event" },
  unparsed_lines: { type: "backend.unparsed" },
};

export const COUNT_KEYS = Object.keys(COUNTED) as (keyof RunCounts)[];

const KEY_BY_TYPE = new Map(COUNT_KEYS.map((key) => [COUNTED[key].type, key]));

/** Counts a stream's lines the way run.finished.counts reports them. */
export class RunCounter {
  private readonly counts = Object.fromEntries(COUNT_KEYS.map((key) => [key, 0])) as unknown as RunCounts;

  add(type: unknown, status?: unknown): void {
    const key = KEY_BY_TYPE.get(type as string);
    if (key === undefined) return;
    const wanted = COUNTED[key].status;
    if (wanted === undefined || wanted === status) this.counts[key]++;
  }

  get(key: keyof RunCounts): number {
    return this.counts[key];
  }

  snapshot(): RunCounts {
    return { ...this.counts };
  }
}
