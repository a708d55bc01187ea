// The contract's outcome rules, written out independently of src/core: which
// statuses a stream may end with, and the exit code each outcome must give.
import type { ErrorCode, ErrorInfo, RunStatus } from "../../../src/canonical/events.js";
import type { Interruption } from "../../../src/core/outcome.js";
import type { ProtocolName } from "../../../src/backends/registry.js";
import type { StreamEndFacts } from "../../../src/core/translator.js";

// The contract's exit-code table, row by row; deliberately not src/core/exit-codes.ts,
// whose answers run.finished carries and this oracle checks.
const EXIT_BY_STATUS = { succeeded: 0, needs_input: 3, timed_out: 124 } as const;
const EXIT_BY_ERROR: Partial<Record<ErrorCode, number>> = {
  backend_not_found: 69,
  backend_crashed: 76,
  backend_protocol: 76,
  auth: 77,
  config: 78,
  backend_startup: 78,
};

/** The exit code the contract gives an outcome. */
export function contractExitCode(
  status: RunStatus,
  error: Pick<ErrorInfo, "code" | "retryable"> | undefined,
  interruption: Interruption | undefined,
): number {
  if (status === "cancelled") return interruption?.kind === "signal" && interruption.signal === "SIGTERM" ? 143 : 130;
  if (status === "failed") return (error && EXIT_BY_ERROR[error.code]) ?? (error?.retryable ? 75 : 1);
  return EXIT_BY_STATUS[status];
}

/** Without a terminal event, how agentstream stopping the backend decides the status. */
function unterminated(interruption: Interruption | undefined): RunStatus {
  if (interruption?.kind === "timeout") return "timed_out";
  if (interruption?.kind === "signal") return "cancelled";
  return "failed";
}

/**
 * A terminal event that fails the run may say in its structure that its user aborted it (pi's stopReason "aborted",
 * agent_settled.aborted): that run ended cancelled (docs/canonical-stream.md "Outcome rules"), or timed out where
 * --timeout was what stopped it. Words never do: EvoScientist's error event, whatever it says, failed the run.
 */
const failedOrAborted = (interruption: Interruption | undefined): RunStatus[] => [
  "failed",
  interruption?.kind === "timeout" ? "timed_out" : "cancelled",
];

/** The statuses the mapping allows for these native event types (in stream order) and this ending. */
export function allowedStatuses(
  protocol: ProtocolName,
  types: string[],
  end: StreamEndFacts,
  interruption: Interruption | undefined,
): RunStatus[] {
  if (protocol === "evosci") {
    const terminal = types.findIndex((t) => t === "done" || t === "error");
    if (terminal === -1) return [unterminated(interruption)];
    if (types[terminal] === "error") return ["failed"];
    const before = types.slice(0, terminal);
    if (before.some((t) => t === "interrupt" || t === "ask_user")) return ["needs_input"];
    // A sub-agent that ended paused waits for input; a graded run (--rubric: a verdict, or the
    // backend's 3 after done) fails unless its last verdict is satisfied.
    const paused: RunStatus[] = before.includes("subagent_end") ? ["needs_input"] : [];
    if (end.backendExit?.code === 3) return ["failed", ...paused];
    const graded = before.some((t) => t.startsWith("rubric_evaluation"));
    return ["succeeded", ...paused, ...(graded ? (["failed"] as const) : [])];
  }
  // Atomic: a prompt ends with agent_settled (a new agent_start begins another); pi 0.73 ends
  // at a clean exit, or, in a recording, after an agent_end with nothing pending.
  const settled = types.lastIndexOf("agent_settled") > types.lastIndexOf("agent_start");
  const exit = end.backendExit;
  const clean = exit !== null && exit.code === 0 && exit.signal === null;
  if (settled) return ["succeeded", ...failedOrAborted(interruption)];
  // A clean exit decides only after an assistant message; without one the run ended unfinished.
  if (clean) return ["succeeded", ...failedOrAborted(interruption), unterminated(interruption)];
  if (exit !== null) return [unterminated(interruption)];
  return ["succeeded", ...failedOrAborted(interruption), unterminated(interruption)];
}
