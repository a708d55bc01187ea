// A compare's exit status, from the contract's exit-code table (src/core/exit-codes.ts, README):
//   0    every cell ran, succeeded and passed its check (if any)
//   130/143  the compare was stopped by SIGINT/SIGTERM (its cells end cancelled)
//   75   every cell that did not pass failed retryably (exit 75): worth running again with --retry failed
//   1    otherwise: mixed outcomes, a failed check, a cell not run (the budget), a cell missing from a merge
import { exitCodeFor } from "../core/exit-codes.js";
import type { CompareRow } from "./row.js";

export function compareExitCode(rows: readonly CompareRow[], stoppedBy?: "SIGINT" | "SIGTERM", missing = 0): number {
  if (stoppedBy) return exitCodeFor("cancelled", undefined, stoppedBy);
  const failing = rows.filter((row) => !row.passed);
  if (failing.length === 0 && missing === 0) return 0;
  const retryable = exitCodeFor("failed", { code: "network", retryable: true });
  if (missing === 0 && failing.every((row) => row.exit_code === retryable && row.check !== "failed")) return retryable;
  return exitCodeFor("failed");
}
