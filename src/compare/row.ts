// A compare's row: one JSON line per cell on stdout (schemas/compare-row-v1.schema.json), the same in a
// cell's record.json, in `compare --merge` and in the library's compare().
import type { CostSource, EventOf, RunStatus } from "../canonical/events.js";
import type { CommandVerdict } from "./command.js";
import type { DiffStat } from "./diff.js";
import type { Cell } from "./plan.js";

/** A setup's or check's verdict in a row: none when the task has none, skipped when it did not run. */
export type StepVerdict = Exclude<CommandVerdict, "stopped"> | "none" | "skipped";

export interface CompareRow {
  v: 1;
  cell_id: string;
  task: string;
  backend: string;
  model: string | null;
  repeat: number;
  /** The run's status; not_run: the cell was not started (the budget was spent, the compare was stopped, its setup failed). */
  status: RunStatus | "not_run";
  /** The run's exit code (the exit-code table); null when it did not run. */
  exit_code: number | null;
  /** The run's error code, or why the cell did not run (budget, stopped, setup). */
  error: { code: string; message: string } | null;
  setup: StepVerdict;
  check: StepVerdict;
  check_exit_code: number | null;
  /** The cell's verdict: its run succeeded and its check (if any) passed. */
  passed: boolean;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
  cost_source: CostSource | null;
  duration_ms: number | null;
  turns: number | null;
  tool_calls: number | null;
  files_changed: number | null;
  lines_added: number | null;
  lines_removed: number | null;
  /** Printed again from the cell's record: it finished in an earlier run with the same --out. */
  resumed: boolean;
  /** The cell's files, relative to the --out folder (null: not written). */
  paths: {
    dir: string;
    stream: string | null;
    stderr: string | null;
    diff: string | null;
    setup_log: string | null;
    check_log: string | null;
    atif: string | null;
    report: string | null;
    answer: string | null;
    workspace: string | null;
  };
}

/** A cell's paths before anything of it is written: its folder only. */
export function emptyPaths(dir: string): CompareRow["paths"] {
  return {
    dir,
    stream: null,
    stderr: null,
    diff: null,
    setup_log: null,
    check_log: null,
    atif: null,
    report: null,
    answer: null,
    workspace: null,
  };
}

/** Everything a cell's row is made of. */
export interface CellFacts {
  finished?: EventOf<"run.finished">;
  error?: { code: string; message: string };
  setup: StepVerdict;
  check: StepVerdict;
  checkExitCode: number | null;
  diff?: DiffStat;
  paths: CompareRow["paths"];
}

export function rowOf(cell: Cell, facts: CellFacts): CompareRow {
  const { finished } = facts;
  const usage = finished?.usage;
  const status = finished?.status ?? "not_run";
  return {
    v: 1,
    cell_id: cell.id,
    task: cell.task.id,
    backend: cell.agent.backend,
    model: cell.agent.model ?? null,
    repeat: cell.repeat,
    status,
    exit_code: finished?.exit_code ?? null,
    error: facts.error ?? (finished?.error ? { code: finished.error.code, message: finished.error.message } : null),
    setup: facts.setup,
    check: facts.check,
    check_exit_code: facts.checkExitCode,
    passed: status === "succeeded" && (facts.check === "passed" || facts.check === "none"),
    input_tokens: usage?.input_tokens ?? null,
    output_tokens: usage?.output_tokens ?? null,
    cost_usd: usage?.cost_usd ?? null,
    cost_source: usage?.cost_source ?? null,
    duration_ms: finished?.duration_ms ?? null,
    turns: finished?.counts.turns ?? null,
    tool_calls: finished?.counts.tool_calls ?? null,
    files_changed: facts.diff?.files ?? null,
    lines_added: facts.diff?.added ?? null,
    lines_removed: facts.diff?.removed ?? null,
    resumed: false,
    paths: facts.paths,
  };
}
