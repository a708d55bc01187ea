// A live scenario's ending and drift, kept under the run's results for the compatibility report.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CanonicalLine, Drift } from "../../helpers/live/drift.js";
import { RESULTS_DIR } from "./results-dir.js";

/** One scenario's ending and drift, kept for the run's compatibility report (compat-reporter.ts). */
export function recordScenario(targetId: string, scenario: string, finished: CanonicalLine, drift: Drift): void {
  const dir = join(RESULTS_DIR, "scenarios", targetId);
  mkdirSync(dir, { recursive: true });
  const ending = { status: finished.status, exit_code: finished.exit_code, error_code: finished.error?.code ?? null };
  writeFileSync(join(dir, `${scenario}.json`), `${JSON.stringify({ scenario, ending, ...drift })}\n`);
}
