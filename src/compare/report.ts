// `agentstream report DIR...` of compare folders (one compare's --out, or its shards' together): the side by
// side per agent and a row per cell, as Markdown (a CI job summary), JSON or HTML.
import { escapeHtml } from "../report/escape-html.js";
import type { ReportFormat } from "../report/formats.js";
import { inline, table } from "../report/markdown.js";
import { mergeFolders, missingShown } from "./merge.js";
import type { CompareRow } from "./row.js";
import { agentOf, sideBySide, sideBySideCells, type SideBySide } from "./side-by-side.js";

export interface CompareReport extends SideBySide {
  rows: CompareRow[];
}

export function compareReport(dirs: readonly string[], format: ReportFormat): string {
  const { rows, missing } = mergeFolders(dirs);
  const summary = sideBySide(rows, missing.map(missingShown));
  if (format === "json") return `${JSON.stringify({ ...summary, rows } satisfies CompareReport, null, 2)}\n`;
  const cells = cellTable(rows);
  const sides = sideBySideCells(summary);
  if (format === "md") {
    return [
      "## agentstream compare",
      "",
      `${summary.passed} of ${summary.cells} cells passed.`,
      "",
      ...table(
        sides[0]!.map(inline),
        sides.slice(1).map((row) => row.map(inline)),
      ),
      "",
      ...(summary.missing.length > 0
        ? [`Missing (no folder holds them): ${summary.missing.map(inline).join(", ")}`, ""]
        : []),
      "<details><summary>Cells</summary>",
      "",
      ...table(
        cells[0]!.map(inline),
        cells.slice(1).map((row) => row.map(inline)),
      ),
      "",
      "</details>",
      "",
    ].join("\n");
  }
  const html = (rows: string[][]): string =>
    `<table><thead><tr>${rows[0]!.map((c) => `<th>${escapeHtml(c)}</th>`).join("")}</tr></thead><tbody>${rows
      .slice(1)
      .map((row) => `<tr>${row.map((c) => `<td>${escapeHtml(c)}</td>`).join("")}</tr>`)
      .join("")}</tbody></table>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>agentstream compare</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left}</style>
</head><body><h1>agentstream compare</h1><p>${summary.passed} of ${summary.cells} cells passed.</p>
${html(sides)}
${summary.missing.length > 0 ? `<p>Missing (no folder holds them): ${escapeHtml(summary.missing.join(", "))}</p>` : ""}
<h2>Cells</h2>
${html(cells)}
</body></html>
`;
}

function cellTable(rows: readonly CompareRow[]): string[][] {
  return [
    ["task", "agent", "repeat", "status", "exit", "check", "time", "cost", "files", "lines +/-", "cell"],
    ...rows.map((row) => [
      row.task,
      agentOf(row),
      String(row.repeat),
      row.status,
      row.exit_code === null ? "-" : String(row.exit_code),
      row.check,
      row.duration_ms === null ? "-" : `${(row.duration_ms / 1000).toFixed(1)}s`,
      row.cost_usd === null ? "-" : `$${row.cost_usd.toFixed(4)}`,
      row.files_changed === null ? "-" : String(row.files_changed),
      row.lines_added === null ? "-" : `+${row.lines_added}/-${row.lines_removed ?? 0}`,
      row.cell_id,
    ]),
  ];
}
