// A compare: this shard's cells run, at most `parallel` at once, each row handed on as its cell ends. Cells
// finished by an earlier run with the same folder are not run again: their rows come first, marked resumed.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { WorkspaceMode } from "../app/compare-values.js";
import type { RunRequest } from "../app/request.js";
import { EventQueue } from "../core/event-queue.js";
import { AgentstreamError, type OptionNaming } from "../core/errors.js";
import { HostStop } from "../run/host.js";
import type { TraceParent } from "../export/run-trace.js";
import type { StopWatch } from "../run/stop-signals.js";
import { Budget } from "./budget.js";
import { cellDir, runWholeCell } from "./cell.js";
import type { Cell } from "./plan.js";
import { readRecord, writeRecord } from "./record.js";
import { emptyPaths, rowOf, type CompareRow } from "./row.js";
import type { ShardSpec } from "../app/compare-values.js";
import { MANIFEST, manifestOf } from "./manifest.js";
import { Workspaces, type Source } from "./workspace.js";

export interface CompareRun {
  /** Every cell of the plan, and the ones this process runs (its shard's). */
  cells: readonly Cell[];
  mine: readonly Cell[];
  shard: ShardSpec | undefined;
  out: string;
  source: Source;
  workspace: WorkspaceMode;
  parallel: number;
  retryFailed: boolean;
  keep: boolean;
  checkTimeoutMs: number;
  maxTotalCostUsd: number | undefined;
  request: RunRequest;
  naming: OptionNaming;
  /** Aborted: no cell starts, and each running one is stopped (its reason handed on: a HostStop says why). */
  stop: AbortSignal;
  stops?: StopWatch;
  /** A cell starts (the live table). */
  onStart?(cell: Cell): void;
  /** The compare's span (--otlp): each cell's run trace hangs under it. */
  traceParent?: TraceParent;
}

/** Whether a cell's record says it is finished: a cut run, or one not started, runs again. */
function finished(row: CompareRow, retryFailed: boolean): boolean {
  if (row.status === "cancelled") return false;
  if (row.status === "not_run" && (row.error?.code === "budget" || row.error?.code === "stopped")) return false;
  return !(retryFailed && !row.passed);
}

export async function* runCompare(run: CompareRun): AsyncGenerator<CompareRow, void> {
  mkdirSync(join(run.out, "cells"), { recursive: true });
  writeAtomically(join(run.out, MANIFEST), `${JSON.stringify(manifestOf(run.cells, run.shard))}\n`);
  const workspaces = new Workspaces(join(run.out, "work"), run.source, run.out);
  await workspaces.cleanLeftovers();
  const todo: Cell[] = [];
  for (const cell of run.mine) {
    const record = readRecord(cellDir(run.out, cell.id));
    if (record && finished(record, run.retryFailed)) yield { ...record, resumed: true };
    else todo.push(cell);
  }
  const budget = new Budget(run.maxTotalCostUsd);
  const rows = new EventQueue<CompareRow>();
  const context = {
    out: run.out,
    request: run.request,
    workspaces,
    workspace: run.workspace,
    checkTimeoutMs: run.checkTimeoutMs,
    keep: run.keep,
    naming: run.naming,
    ...(run.stops ? { stops: run.stops } : {}),
    ...(run.traceParent ? { traceParent: run.traceParent } : {}),
  };
  const running = new Set<AbortController>();
  let unhearKillNow: (() => void) | undefined;
  const onStop = (): void => {
    const reason: unknown = run.stop.reason;
    for (const controller of running) controller.abort(reason);
    // A second signal (HostStop.killNow) reaches the cells the budget was stopping too.
    if (reason instanceof HostStop)
      unhearKillNow = reason.onKillNow(() => {
        for (const controller of running) {
          const own: unknown = controller.signal.reason;
          if (own instanceof HostStop && own !== reason) own.killNow();
        }
      });
  };
  run.stop.addEventListener("abort", onStop, { once: true });
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let cell = todo[next++]; cell !== undefined; cell = todo[next++]) {
      if (run.stop.aborted) return;
      if (budget.reached !== undefined) {
        // Not started: its record says why, and a later run with a larger budget runs it.
        const row = rowOf(cell, {
          setup: cell.task.setup ? "skipped" : "none",
          check: cell.task.check ? "skipped" : "none",
          checkExitCode: null,
          error: { code: "budget", message: budget.reached },
          paths: emptyPaths(join("cells", cell.id)),
        });
        mkdirSync(cellDir(run.out, cell.id), { recursive: true });
        writeRecord(cellDir(run.out, cell.id), row);
        rows.push(row);
        continue;
      }
      const controller = new AbortController();
      running.add(controller);
      const unbudget = budget.add(controller);
      run.onStart?.(cell);
      try {
        rows.push(
          await runWholeCell(cell, context, controller.signal, (event) =>
            budget.see(event, (stop: HostStop) => controller.abort(stop)),
          ),
        );
      } catch (err) {
        // A cell that could not be run (its worktree not made, its options refused): said in its row, no
        // record written, so that the next run tries it again.
        rows.push(
          rowOf(cell, {
            setup: cell.task.setup ? "skipped" : "none",
            check: cell.task.check ? "skipped" : "none",
            checkExitCode: null,
            error: { code: err instanceof AgentstreamError ? "usage" : "internal", message: (err as Error).message },
            paths: emptyPaths(join("cells", cell.id)),
          }),
        );
      } finally {
        unbudget();
        running.delete(controller);
      }
    }
  };
  const workers = Array.from({ length: Math.min(run.parallel, todo.length) }, worker);
  const all = Promise.all(workers).finally(() => rows.end());
  try {
    for (let row = await rows.next(); row !== undefined; row = await rows.next()) yield row;
    await all;
  } finally {
    run.stop.removeEventListener("abort", onStop);
    unhearKillNow?.();
    // Left early (the library's caller broke out of its loop): every cell is stopped, and waited for.
    for (const controller of running) controller.abort(new HostStop({ kind: "signal", signal: "SIGTERM" }));
    await all.catch(() => undefined);
  }
}

export function writeAtomically(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}
