// A compare's exit status, from the contract's exit-code table (src/core/exit-codes.ts, README):
//   0    every cell ran, succeeded and passed its check (if any)
//   130/143  the compare was stopped by SIGINT/SIGTERM (its cells end cancelled)
//   75   every cell that did not pass failed retryably (exit 75): worth running again with --retry failed
//   1    otherwise: mixed outcomes, a failed check, a cell not run (the budget), a cell missing from a merge
import { exitCodeFor } from "../core/exit-codes.js";
import type { CompareRow } from "./row.js";

/** What the exit status needs of a compare's rows: how many did not pass, and how many of those failed retryably. */
export interface Outcomes {
  failing: number;
  failingRetryably: number;
}

const RETRYABLE = exitCodeFor("failed", { code: "network", retryable: true });

/** A row that did not pass because its run failed retryably (exit 75), its check not failed. */
export function failedRetryably(row: CompareRow): boolean {
  return !row.passed && row.exit_code === RETRYABLE && row.check !== "failed";
}

export function compareExitCode(outcomes: Outcomes, stoppedBy?: "SIGINT" | "SIGTERM", missing = 0): number {
  if (stoppedBy) return exitCodeFor("cancelled", undefined, stoppedBy);
  if (outcomes.failing === 0 && missing === 0) return 0;
  if (missing === 0 && outcomes.failing === outcomes.failingRetryably) return RETRYABLE;
  return exitCodeFor("failed");
}
