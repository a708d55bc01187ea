import type { UsageTotals } from "../canonical/events.js";
import { formatDuration } from "../core/compact-figures.js";
import type { ReportStatus, RunSummary } from "./report-v1.js";

// The report's figures as text, the same in every format that shows them to people.

export const STATUS_WORDS: Record<ReportStatus, { icon: string; word: string }> = {
  succeeded: { icon: "✅", word: "succeeded" },
  failed: { icon: "❌", word: "failed" },
  needs_input: { icon: "⏸️", word: "needs input" },
  cancelled: { icon: "⏹️", word: "cancelled" },
  timed_out: { icon: "⏱️", word: "timed out" },
  incomplete: { icon: "⚠️", word: "incomplete" },
};

export const TOOL_STATUS_WORDS = { succeeded: "✔ succeeded", failed: "✖ failed", cancelled: "◌ cancelled" } as const;

/** "38ms", "12.3s", "2m 05s"; "–" when unknown. */
export function duration(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? "–" : formatDuration(ms);
}

/** What a report says of a recorded run whose stream states no times (timing "none"). */
export const TIMES_UNKNOWN = "unknown: the recording does not time its events";

/** A run's duration with where it comes from: "12.3s" (agentstream's clock), "31.9s (the backend's own times)", or unknown. */
export function runDuration(run: Pick<RunSummary, "duration_ms" | "timing">): string {
  if (run.timing === "none") return TIMES_UNKNOWN;
  if (run.timing === "native" && run.duration_ms !== null)
    return `${duration(run.duration_ms)} (the backend's own times)`;
  return duration(run.duration_ms);
}

/** The runs' total duration: "at least …" where some run's duration is unknown, "unknown" where none is known. */
export function totalDuration(runs: readonly Pick<RunSummary, "duration_ms">[], totalMs: number): string {
  const unknown = runs.filter((r) => r.duration_ms === null).length;
  if (unknown === 0) return `${duration(totalMs)} in all`;
  if (unknown === runs.length) return "unknown: no run's duration is known";
  return `at least ${duration(totalMs)} (${count(unknown)} of ${count(runs.length)} runs' durations unknown)`;
}

/** An exact count with thousands separators: 41,071. */
export function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** A cost in US dollars, as exact as run.finished gives it: $0.00075. */
export function cost(usd: number | null | undefined): string {
  if (usd === null || usd === undefined) return "–";
  const text = String(usd);
  return `$${text.includes("e") ? usd.toFixed(12).replace(/\.?0+$/, "") : text}`;
}

/** "41,071 in / 200 out"; "–" when the run reported no usage. */
export function tokens(usage: Pick<UsageTotals, "input_tokens" | "output_tokens"> | null): string {
  return usage ? `${count(usage.input_tokens)} in / ${count(usage.output_tokens)} out` : "–";
}

/** "incomplete" where the backend under-reports (run.finished.usage.complete false), or no usage is known at all. */
export function usageIncomplete(run: RunSummary): boolean {
  return run.usage === null || run.usage.complete === false;
}

export function percent(rate: number | null): string {
  return rate === null ? "–" : `${Math.round(rate * 1000) / 10}%`;
}
