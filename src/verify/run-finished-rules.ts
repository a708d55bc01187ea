import { type ErrorCode, RUN_STATUSES, type RunStatus } from "../canonical/events.js";
import { exitCodeFor } from "../core/exit-codes.js";
import { isObject } from "../core/fields.js";

const STATUSES = new Set<string>(RUN_STATUSES);
const STATUSES_WITH_ERROR = new Set<string>(["failed", "cancelled", "timed_out"]);

/** run.finished's own consistency: exit_code from the outcome, error and pending where the status needs them. */
export function runFinishedProblems(event: Record<string, unknown>): string[] {
  if (typeof event.status !== "string" || !STATUSES.has(event.status)) return [];
  const status = event.status as RunStatus;
  const out: string[] = [];
  if (STATUSES_WITH_ERROR.has(status) && event.error === undefined)
    out.push(`run.finished with status ${status} has no error`);
  if (status === "needs_input" && event.pending === undefined)
    out.push("run.finished with status needs_input has no pending");
  const exitProblem = exitCodeProblem(status, event.exit_code, errorOf(event.error));
  if (exitProblem) out.push(exitProblem);
  return out;
}

type ErrorKind = { code: ErrorCode; retryable: boolean };

function exitCodeProblem(status: RunStatus, exitCode: unknown, error: ErrorKind | undefined): string | undefined {
  if (typeof exitCode !== "number") return undefined;
  // The signal that cancelled the run is not in the stream: either code is right.
  const expected =
    status === "cancelled"
      ? [exitCodeFor(status, error, "SIGINT"), exitCodeFor(status, error, "SIGTERM")]
      : [exitCodeFor(status, error)];
  if (expected.includes(exitCode as never)) return undefined;
  const cause =
    status === "failed" && error ? ` with error code ${error.code}${error.retryable ? " (retryable)" : ""}` : "";
  return `exit_code is ${exitCode}, but must be ${expected.join(" or ")} for status ${status}${cause}`;
}

function errorOf(error: unknown): ErrorKind | undefined {
  if (!isObject(error) || typeof error.code !== "string" || typeof error.retryable !== "boolean") return undefined;
  return { code: error.code as ErrorCode, retryable: error.retryable };
}
