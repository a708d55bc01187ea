import { libraryNaming, OPTIONS } from "../app/options.js";
import { requestFromLibrary, type LibraryOptions } from "../app/request.js";
import { compareRows, prepareCompare } from "../compare/compare.js";
import type { CompareRow } from "../compare/row.js";
import { Tally, type SideBySide } from "../compare/side-by-side.js";
import { asLibraryError, checkEntryOptions } from "./options.js";
import type { RunOptions } from "./run.js";

/** What compare() takes of run()'s options: every one that shapes a run; the agent and prompt are compare's own. */
type RunPart = Omit<
  RunOptions,
  "backend" | "prompt" | "continueFrom" | "resume" | "runId" | "clock" | "onStderr" | "onTranslatorBug"
>;

/**
 * The options of compare(): its own (`agents`, `prompt` or `plan`, `repeat`, `workspace`, `setup`, `check`,
 * `checkTimeoutMs`, `parallel`, `out` (required), `retry`, `keep`, `maxTotalCostUsd`, `shard`; docs/compare.md)
 * and every run() option that shapes one run, applied to each cell. `signal` stops every cell (each ends
 * cancelled); `onNote` hears what the CLI says before the cells start.
 */
export type CompareOptions = LibraryOptions<"compare"> & RunPart;

export type { CompareRow } from "../compare/row.js";
export type { AgentSummary, SideBySide as CompareSummary } from "../compare/side-by-side.js";

/** Left to compare() itself: what only one run can take, and what each cell is given of its own. */
const NOT_RUN_OPTIONS = new Set(["backend", "prompt", "runId", "clock", "onStderr", "onTranslatorBug"]);

/**
 * Run a compare as `agentstream compare` does, yielding one row per cell as it ends (rows of cells finished by
 * an earlier compare with the same `out` first, marked resumed); its return value is the side by side. Invalid
 * options and refusals throw a UsageError before any cell starts. Leaving the loop early stops every cell.
 */
export async function* compare(options: CompareOptions): AsyncGenerator<CompareRow, SideBySide> {
  checkEntryOptions("compare", options);
  checkEntryOptions("run", options, OPTIONS, { caller: "compare", skip: NOT_RUN_OPTIONS });
  // continueFrom and resume are in the request, to be refused as the CLI refuses them.
  const made = requestFromLibrary("run", options).request;
  // As run() writes its events: not checked against the schema at run time (the CLI's --no-validate is its own).
  const request = { ...made, validate: false };
  const { request: own } = requestFromLibrary("compare", options);
  const prepared = await prepareCompare(own, request, options.prompt, { env: process.env }).catch((err: unknown) => {
    throw asLibraryError(err, "compare(): ");
  });
  const note = options.onNote ?? ((text: string) => void process.emitWarning(text, "AgentstreamWarning"));
  for (const text of prepared.notes) note(text);
  // The side by side, made as the rows come (in the plan's order): no row is kept.
  const order = new Map(prepared.cells.map((cell) => [cell.id, cell.index]));
  const tally = new Tally();
  const rowsOfCells = compareRows(prepared, own, request, {
    stop: options.signal ?? new AbortController().signal,
    naming: libraryNaming,
    exportProblem: note,
  });
  try {
    for await (const row of rowsOfCells) {
      tally.add(row, order.get(row.cell_id));
      yield row;
    }
  } catch (err) {
    // Refused as the compare's span opens (the OTLP endpoint the environment names), before any cell: as planning's are.
    throw asLibraryError(err, "compare(): ");
  }
  return tally.summary();
}
