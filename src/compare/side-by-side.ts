// The side by side of a compare's rows, per agent (backend and model): how many cells succeeded and passed
// their check, the median duration, the tokens, the cost and the size of the diffs. Stderr's table at the
// end of a compare, and `agentstream report DIR` as Markdown, JSON or HTML, are made of it.
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
  const byAgent = new Map<string, CompareRow[]>();
  for (const row of rows) byAgent.set(agentOf(row), [...(byAgent.get(agentOf(row)) ?? []), row]);
  const agents = [...byAgent].map(([agent, its]): AgentSummary => {
    const ran = its.filter((row) => row.status !== "not_run");
    const costs = ran.filter((row) => row.cost_usd !== null);
    const sum = (pick: (row: CompareRow) => number | null): number => its.reduce((n, row) => n + (pick(row) ?? 0), 0);
    return {
      agent,
      cells: its.length,
      succeeded: its.filter((row) => row.status === "succeeded").length,
      checked: its.filter((row) => row.check !== "none").length,
      check_passed: its.filter((row) => row.check === "passed").length,
      passed: its.filter((row) => row.passed).length,
      not_run: its.length - ran.length,
      median_duration_ms: median(ran.map((row) => row.duration_ms)),
      input_tokens: sum((row) => row.input_tokens),
      output_tokens: sum((row) => row.output_tokens),
      cost_usd: costs.length === 0 ? null : round(sum((row) => row.cost_usd)),
      cost_unknown: ran.length - costs.length,
      files_changed: sum((row) => row.files_changed),
      lines_added: sum((row) => row.lines_added),
      lines_removed: sum((row) => row.lines_removed),
      median_lines_changed: median(
        ran.map((row) => (row.lines_added === null ? null : row.lines_added + (row.lines_removed ?? 0))),
      ),
    };
  });
  return { v: 1, cells: rows.length, passed: rows.filter((row) => row.passed).length, agents, missing: [...missing] };
}

function median(values: readonly (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
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
