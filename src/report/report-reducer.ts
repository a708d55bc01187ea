import { type CanonicalEvent, RUN_STATUSES } from "../canonical/events.js";
import { RunReducer } from "./run-reducer.js";
import {
  REPORT_LIMITS,
  REPORT_VERSION,
  type Report,
  type ReportStatus,
  type ReportTotals,
  type RunSummary,
  type ToolTotals,
} from "./report-v1.js";
import { clipName } from "./text.js";

const STATUSES: readonly ReportStatus[] = [...RUN_STATUSES, "incomplete"];

/**
 * Every run of every input file, reduced as the events stream by: a file may
 * hold several runs (each from run.started to run.finished); a run whose
 * stream stops before run.finished is `incomplete`. Each finished run is kept
 * as its bounded summary, the totals are computed at the end.
 */
export class ReportReducer {
  private name = "-";
  private current: RunReducer | undefined;
  private readonly runs: RunSummary[] = [];

  file(name: string): void {
    this.close();
    this.name = name;
  }

  add(event: CanonicalEvent): void {
    const cur = this.current;
    if (cur && (cur.done || event.type === "run.started" || clipName(String(event.run_id)) !== cur.runId)) this.close();
    this.current ??= new RunReducer(this.name, event);
    this.current.add(event);
  }

  finish(): Report {
    this.close();
    return { report_version: REPORT_VERSION, runs: this.runs, totals: totalsOf(this.runs) };
  }

  private close(): void {
    if (this.current) this.runs.push(this.current.summary());
    this.current = undefined;
  }
}

export function totalsOf(runs: readonly RunSummary[]): ReportTotals {
  const by_status = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<ReportStatus, number>;
  let duration = 0;
  let toolCalls = 0;
  let toolFailures = 0;
  let input = 0;
  let output = 0;
  let cost: number | null = null;
  let complete = true;
  let costComplete = true;
  const tools = new Map<string, ToolTotals>();
  for (const run of runs) {
    by_status[run.status]++;
    duration += run.duration_ms ?? 0;
    toolCalls += run.counts.tool_calls;
    toolFailures += run.counts.tool_failures;
    if (run.usage) {
      input += run.usage.input_tokens;
      output += run.usage.output_tokens;
      if (run.usage.cost_usd !== undefined) cost = roundCost((cost ?? 0) + run.usage.cost_usd);
      else costComplete = false;
      if (run.usage.complete === false) complete = false;
    } else {
      complete = false;
      costComplete = false;
    }
    for (const t of run.tools.by_name) {
      let total = tools.get(t.name);
      if (!total) {
        if (tools.size >= REPORT_LIMITS.toolNames) continue;
        total = { name: t.name, calls: 0, failed: 0, timed: 0, total_ms: 0, max_ms: null, mean_ms: null };
        tools.set(t.name, total);
      }
      total.calls += t.calls;
      total.failed += t.failed;
      total.timed += t.timed;
      total.total_ms += t.total_ms ?? 0;
      if (t.max_ms !== null) total.max_ms = Math.max(total.max_ms ?? 0, t.max_ms);
    }
  }
  const slowest = [...tools.values()]
    .filter((t) => t.timed > 0)
    .sort((a, b) => b.total_ms - a.total_ms || (b.max_ms ?? 0) - (a.max_ms ?? 0) || (a.name < b.name ? -1 : 1))
    .slice(0, REPORT_LIMITS.slowestTools)
    .map((t) => ({ ...t, mean_ms: Math.round(t.total_ms / t.timed) }));
  const finished = runs.filter((r) => r.finished).length;
  return {
    runs: runs.length,
    finished,
    by_status,
    success_rate: runs.length === 0 ? null : by_status.succeeded / runs.length,
    duration_ms: duration,
    duration_complete: runs.every((run) => run.duration_ms !== null),
    tool_calls: toolCalls,
    tool_failures: toolFailures,
    input_tokens: input,
    output_tokens: output,
    cost_usd: cost,
    usage_complete: complete,
    cost_complete: costComplete,
    slowest_tools: slowest,
  };
}

/** Float sums of costs, kept to the picodollar as run.finished keeps them. */
function roundCost(x: number): number {
  return Math.round(x * 1e12) / 1e12;
}
