// What a compare says on stderr as its cells run: on a terminal, a live table of one line per cell (redrawn
// in place); elsewhere, one line per cell as it ends.
import type { CompareRow } from "./row.js";
import type { Cell } from "./plan.js";
import { shownAgent } from "./plan.js";

export function rowLine(row: CompareRow): string {
  const agent = row.model === null ? row.backend : `${row.backend}:${row.model}`;
  const outcome =
    row.status === "not_run" ? `not run (${row.error?.code ?? "?"})` : `${row.status} (exit ${row.exit_code})`;
  const check = row.check === "none" ? "" : `, check ${row.check}`;
  const time = row.duration_ms === null ? "" : `, ${(row.duration_ms / 1000).toFixed(1)}s`;
  const cost = row.cost_usd === null ? "" : `, $${row.cost_usd.toFixed(4)}`;
  const diff =
    row.files_changed === null ? "" : `, ${row.files_changed} files +${row.lines_added}/-${row.lines_removed}`;
  return `${row.passed ? "PASS" : "FAIL"} ${row.task} ${agent} #${row.repeat}: ${outcome}${check}${time}${cost}${diff}${row.resumed ? " (resumed)" : ""}`;
}

export class Progress {
  private readonly lines = new Map<string, string>();
  private drawn = 0;

  constructor(
    private readonly stream: NodeJS.WritableStream & { isTTY?: boolean },
    private readonly quiet: boolean,
  ) {}

  private get live(): boolean {
    return this.stream.isTTY === true;
  }

  started(cell: Cell): void {
    if (!this.live || this.quiet) return;
    this.lines.set(cell.id, `.... ${cell.task.id} ${shownAgent(cell.agent)} #${cell.repeat}: running`);
    this.redraw();
  }

  ended(row: CompareRow): void {
    if (this.quiet && row.passed) return;
    if (!this.live) {
      this.stream.write(`[compare] ${rowLine(row)}\n`);
      return;
    }
    this.lines.set(row.cell_id, rowLine(row));
    this.redraw();
  }

  /** A message above the table. */
  say(text: string): void {
    this.clear();
    this.stream.write(`agentstream: ${text}\n`);
    this.redraw();
  }

  private clear(): void {
    if (!this.live || this.drawn === 0) return;
    this.stream.write(`\x1b[${this.drawn}A\x1b[J`);
    this.drawn = 0;
  }

  private redraw(): void {
    if (!this.live) return;
    this.clear();
    // One screen line each, however wide: a wrapped line would throw off the count moved up over.
    const width = (this.stream as { columns?: number }).columns ?? 0;
    const lines = [...this.lines.values()].map((line) =>
      width > 1 && line.length >= width ? `${line.slice(0, width - 2)}…` : line,
    );
    if (lines.length === 0) return;
    this.stream.write(`${lines.join("\n")}\n`);
    this.drawn = lines.length;
  }

  /** The table stays as it was last drawn; what follows is written below it. */
  done(): void {
    this.drawn = 0;
  }
}
