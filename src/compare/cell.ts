// One cell from start to end: its workspace made, its setup run, its agent run (run-cell.ts), its diff kept,
// its check run, its workspace removed (unless kept), its record written last: a cell is finished once, and
// only once, its record is there.
import { mkdirSync, rmSync } from "node:fs";
import { extname, join, relative } from "node:path";
import type { WorkspaceMode } from "../app/compare-values.js";
import type { RunRequest } from "../app/request.js";
import type { CanonicalEvent } from "../canonical/events.js";
import type { OptionNaming } from "../core/errors.js";
import type { Redactor } from "../core/redactor.js";
import type { TraceParent } from "../export/run-trace.js";
import { runRedactor } from "../run/redact.js";
import type { StopWatch } from "../run/stop-signals.js";
import { runCommand } from "./command.js";
import { before, diffSince, type DiffStat } from "./diff.js";
import type { Cell } from "./plan.js";
import { writeRecord } from "./record.js";
import { emptyPaths, rowOf, type CellFacts, type CompareRow } from "./row.js";
import { runCell } from "./run-cell.js";
import type { Workspace, Workspaces } from "./workspace.js";

/** What every cell of a compare shares. */
export interface CellContext {
  out: string;
  /** The run options every cell takes (its agent, workspace and files are set per cell). */
  request: RunRequest;
  workspaces: Workspaces;
  workspace: WorkspaceMode;
  checkTimeoutMs: number;
  keep: boolean;
  stops?: StopWatch;
  naming: OptionNaming;
  /** The compare's span (--otlp): each cell's run trace hangs under it. */
  traceParent?: TraceParent;
}

export function cellDir(out: string, cellId: string): string {
  return join(out, "cells", cellId);
}

/** Runs the cell to its end and writes its record; `stop` ends it early (its reason: why). */
export async function runWholeCell(
  cell: Cell,
  context: CellContext,
  stop: AbortSignal,
  onEvent: (event: CanonicalEvent) => void,
): Promise<CompareRow> {
  const dir = cellDir(context.out, cell.id);
  // What an earlier, unfinished try left is replaced.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const rel = (name: string): string => relative(context.out, join(dir, name));
  const paths = emptyPaths(relative(context.out, dir));
  const facts: CellFacts = {
    setup: cell.task.setup ? "skipped" : "none",
    check: cell.task.check ? "skipped" : "none",
    checkExitCode: null,
    paths,
  };
  const mode = cell.task.workspace ?? context.workspace;
  let workspace: Workspace | undefined;
  try {
    workspace = await context.workspaces.make(cell.id, mode);
    if (context.keep && workspace.root) paths.workspace = relative(context.out, workspace.root);
    // Until the run's own redactor is made: the environment's secrets.
    let redactor: Redactor = runRedactor(cell.agent.args ?? [], process.env);
    if (cell.task.setup) {
      paths.setup_log = rel("setup.log");
      const setup = await runCommand(cell.task.setup, "setup", {
        cwd: workspace.cwd,
        env: process.env,
        timeoutMs: context.checkTimeoutMs,
        log: join(dir, "setup.log"),
        redactor,
        stop,
      });
      facts.setup = setup.verdict === "stopped" ? "skipped" : setup.verdict;
      if (setup.verdict !== "passed") {
        facts.error =
          setup.verdict === "stopped"
            ? stoppedError(stop)
            : {
                code: "setup",
                message: `the setup ${setup.verdict === "timed_out" ? "timed out" : `failed (exit ${setup.exitCode ?? setup.signal})`}: see ${paths.setup_log}`,
              };
        return finish(cell, dir, facts);
      }
    }
    if (stop.aborted) {
      facts.error = stoppedError(stop);
      return finish(cell, dir, facts);
    }
    const base = await before(workspace);
    const request = cellRequest(context.request, cell, workspace, dir, paths, rel);
    paths.stream = rel("stream.jsonl");
    paths.stderr = rel("stderr.txt");
    const ran = await runCell({
      request,
      prompt: cell.task.prompt,
      streamFile: join(dir, "stream.jsonl"),
      stderrFile: join(dir, "stderr.txt"),
      signal: stop,
      ...(context.stops ? { stops: context.stops } : {}),
      ...(context.traceParent ? { traceParent: context.traceParent } : {}),
      onEvent,
      naming: context.naming,
    });
    redactor = ran.redactor;
    if (ran.finished) facts.finished = ran.finished;
    if (base) {
      paths.diff = rel("diff.patch");
      facts.diff = (await diffSince(base, join(dir, "diff.patch"), redactor)) satisfies DiffStat;
    }
    // A cell stopped with the compare is not checked: its agent did not end on its own.
    if (cell.task.check && !(ran.finished?.status === "cancelled")) {
      paths.check_log = rel("check.log");
      const check = await runCommand(cell.task.check, "check", {
        cwd: workspace.cwd,
        env: process.env,
        timeoutMs: context.checkTimeoutMs,
        log: join(dir, "check.log"),
        redactor,
        stop,
      });
      facts.check = check.verdict === "stopped" ? "skipped" : check.verdict;
      facts.checkExitCode = check.exitCode;
    }
    return finish(cell, dir, facts);
  } finally {
    if (workspace && !context.keep) await context.workspaces.remove(workspace);
  }
}

function finish(cell: Cell, dir: string, facts: CellFacts): CompareRow {
  const row = rowOf(cell, facts);
  writeRecord(dir, row);
  return row;
}

/** Why a cell stopped before its agent ran. */
function stoppedError(stop: AbortSignal): { code: string; message: string } {
  const reason: unknown = stop.reason;
  const budget =
    typeof reason === "object" && reason !== null && "interruption" in reason
      ? (reason as { interruption: { kind: string; message?: string } }).interruption
      : undefined;
  if (budget?.kind === "budget") return { code: "budget", message: budget.message ?? "the budget is spent" };
  return { code: "stopped", message: "the compare was stopped before this cell's agent ran" };
}

/**
 * The cell's run request: the compare's, with its agent (backend, model, arguments, executable) and its
 * workspace as the working folder; the per-run files (--answer-file, --report, --atif) in the cell's folder.
 */
function cellRequest(
  base: RunRequest,
  cell: Cell,
  workspace: Workspace,
  dir: string,
  paths: CompareRow["paths"],
  rel: (name: string) => string,
): RunRequest {
  const request: RunRequest = {
    ...base,
    backend: cell.agent.backend as RunRequest["backend"],
    cwd: workspace.cwd,
    backendArgs: [...base.backendArgs, ...(cell.agent.args ?? [])],
  };
  if (cell.agent.model !== undefined) request.model = cell.agent.model;
  if (cell.agent.bin !== undefined) request.bin = cell.agent.bin;
  if (base.answerFile !== undefined) {
    request.answerFile = join(dir, "answer.txt");
    paths.answer = rel("answer.txt");
  }
  if (base.report !== undefined) {
    const name = `report${extname(base.report) || ".md"}`;
    request.report = join(dir, name);
    paths.report = rel(name);
  }
  if (base.atif !== undefined) {
    request.atif = join(dir, "atif.json");
    paths.atif = rel("atif.json");
  }
  return request;
}
