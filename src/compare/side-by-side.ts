// The side by side of a compare's rows, per agent (backend and model): how many cells succeeded and passed
// their check, the median duration, the tokens, the cost and the size of the diffs. Stderr's table at the
// end of a compare, and `agentstream report DIR` as Markdown, JSON or HTML, are made of it.
import { failedRetryably, type Outcomes } from "./exit-status.js";
import type { CompareRow } from "./row.js";

export interface AgentSummary {
  agent: string;
  cells: number;
  succeeded: number;
  /** Cells whose task has a check, and those whose check passed. */
  checked: number;
  check_passed: number;
  /** Succeeded and passed its check (if any). */
  passed: number;
  not_run: number;
  median_duration_ms: number | null;
  input_tokens: number;
  output_tokens: number;
  /** The cost of the cells that told one; null when none did. */
  cost_usd: number | null;
  /** Cells that ran with no known cost. */
  cost_unknown: number;
  files_changed: number;
  lines_added: number;
  lines_removed: number;
  median_lines_changed: number | null;
}

export interface SideBySide {
  v: 1;
  cells: number;
  passed: number;
  agents: AgentSummary[];
  /** Cells of the plan that no folder holds (a merge of shards with one missing). */
  missing: string[];
}

export function agentOf(row: Pick<CompareRow, "backend" | "model">): string {
  return row.model === null ? row.backend : `${row.backend}:${row.model}`;
}

export function sideBySide(rows: readonly CompareRow[], missing: readonly string[] = []): SideBySide {
  const tally = new Tally();
  for (const row of rows) tally.add(row);
  return tally.summary(missing);
}

/** What the side by side keeps of one agent's cells: counts and sums, and the numbers its medians are taken of. */
type Counted =
  | "cells"
  | "succeeded"
  | "checked"
  | "check_passed"
  | "passed"
  | "not_run"
  | "input_tokens"
  | "output_tokens"
  | "files_changed"
  | "lines_added"
  | "lines_removed";
interface AgentTally extends Pick<AgentSummary, Counted> {
  /** Where its first cell is in the plan: the agents are shown in that order. */
  first: number;
  durations: number[];
  cost: number;
  costs_known: number;
  lines_changed: number[];
}

/**
 * The side by side made as a compare's rows come, without keeping them: per agent its counts and sums, and for
 * its medians a number per cell. Also what the exit status needs (Outcomes).
 */
export class Tally implements Outcomes {
  private readonly agents = new Map<string, AgentTally>();
  cells = 0;
  passed = 0;
  resumed = 0;
  failing = 0;
  failingRetryably = 0;

  /** A row; `order`: its cell's place in the plan (default: the order rows are added in). */
  add(row: CompareRow, order = this.cells): void {
    this.cells++;
    if (row.passed) this.passed++;
    else this.failing++;
    if (row.resumed) this.resumed++;
    if (failedRetryably(row)) this.failingRetryably++;
    const name = agentOf(row);
    let a = this.agents.get(name);
    if (a === undefined) {
      a = {
        first: order,
        cells: 0,
        succeeded: 0,
        checked: 0,
        check_passed: 0,
        passed: 0,
        not_run: 0,
        durations: [],
        input_tokens: 0,
        output_tokens: 0,
        cost: 0,
        costs_known: 0,
        files_changed: 0,
        lines_added: 0,
        lines_removed: 0,
        lines_changed: [],
      };
      this.agents.set(name, a);
    }
    a.first = Math.min(a.first, order);
    a.cells++;
    if (row.status === "succeeded") a.succeeded++;
    if (row.check !== "none") a.checked++;
    if (row.check === "passed") a.check_passed++;
    if (row.passed) a.passed++;
    a.input_tokens += row.input_tokens ?? 0;
    a.output_tokens += row.output_tokens ?? 0;
    a.cost += row.cost_usd ?? 0;
    a.files_changed += row.files_changed ?? 0;
    a.lines_added += row.lines_added ?? 0;
    a.lines_removed += row.lines_removed ?? 0;
    if (row.status === "not_run") {
      a.not_run++;
      return;
    }
    if (row.duration_ms !== null) a.durations.push(row.duration_ms);
    if (row.cost_usd !== null) a.costs_known++;
    if (row.lines_added !== null) a.lines_changed.push(row.lines_added + (row.lines_removed ?? 0));
  }

  summary(missing: readonly string[] = []): SideBySide {
    const agents = [...this.agents]
      .sort(([, a], [, b]) => a.first - b.first)
      .map(([agent, a]): AgentSummary => {
        const ran = a.cells - a.not_run;
        return {
          agent,
          cells: a.cells,
          succeeded: a.succeeded,
          checked: a.checked,
          check_passed: a.check_passed,
          passed: a.passed,
          not_run: a.not_run,
          median_duration_ms: median(a.durations),
          input_tokens: a.input_tokens,
          output_tokens: a.output_tokens,
          cost_usd: a.costs_known === 0 ? null : round(a.cost),
          cost_unknown: ran - a.costs_known,
          files_changed: a.files_changed,
          lines_added: a.lines_added,
          lines_removed: a.lines_removed,
          median_lines_changed: median(a.lines_changed),
        };
      });
    return { v: 1, cells: this.cells, passed: this.passed, agents, missing: [...missing] };
  }
}

function median(values: readonly number[]): number | null {
  const known = [...values].sort((a, b) => a - b);
  if (known.length === 0) return null;
  const mid = known.length >> 1;
  return known.length % 2 === 1 ? known[mid]! : Math.round((known[mid - 1]! + known[mid]!) / 2);
}

function round(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}

const pct = (n: number, of: number): string => (of === 0 ? "-" : `${Math.round((100 * n) / of)}%`);
const seconds = (ms: number | null): string => (ms === null ? "-" : `${(ms / 1000).toFixed(1)}s`);
const usd = (v: number | null, unknown: number): string =>
  v === null ? "-" : `$${v.toFixed(v >= 0.1 ? 2 : 4)}${unknown > 0 ? "+" : ""}`;

/** The side by side as table rows: a header, then one row per agent. */
export function sideBySideCells(summary: SideBySide): string[][] {
  return [
    [
      "agent",
      "cells",
      "succeeded",
      "check passed",
      "passed",
      "median time",
      "tokens in/out",
      "cost",
      "files",
      "lines +/-",
    ],
    ...summary.agents.map((a) => [
      a.agent,
      String(a.cells),
      `${a.succeeded} (${pct(a.succeeded, a.cells)})`,
      a.checked === 0 ? "-" : `${a.check_passed}/${a.checked} (${pct(a.check_passed, a.checked)})`,
      `${a.passed} (${pct(a.passed, a.cells)})`,
      seconds(a.median_duration_ms),
      `${a.input_tokens}/${a.output_tokens}`,
      usd(a.cost_usd, a.cost_unknown),
      String(a.files_changed),
      `+${a.lines_added}/-${a.lines_removed}`,
    ]),
  ];
}

/** The side by side as aligned text (stderr). */
export function sideBySideText(summary: SideBySide): string {
  const table = sideBySideCells(summary);
  const widths = table[0]!.map((_, col) => Math.max(...table.map((row) => row[col]!.length)));
  const lines = table.map((row) =>
    row
      .map((cell, col) => cell.padEnd(widths[col]!))
      .join("  ")
      .trimEnd(),
  );
  const missing =
    summary.missing.length === 0
      ? []
      : [`missing: ${summary.missing.length} cell(s) no folder holds: ${summary.missing.join(", ")}`];
  return `${[...lines, `${summary.passed} of ${summary.cells} cells passed`, ...missing].join("\n")}\n`;
}
