import type { ErrorCode, ErrorInfo, ExitCode, RunStatus } from "../canonical/events.js";

/** The contract's exit-code table: the one place that turns an outcome into a code. */
export function exitCodeFor(
  status: RunStatus,
  error?: Pick<ErrorInfo, "code" | "retryable">,
  cancelSignal?: "SIGINT" | "SIGTERM",
): ExitCode {
  switch (status) {
    case "succeeded":
      return 0;
    case "needs_input":
      return 3;
    case "timed_out":
      return 124;
    case "cancelled":
      return cancelSignal === "SIGTERM" ? 143 : 130;
    case "failed":
      return failedExitCode(error);
  }
}

const FAILED_CODES: Partial<Record<ErrorCode, ExitCode>> = {
  backend_not_found: 69,
  backend_crashed: 76,
  backend_protocol: 76,
  auth: 77,
  config: 78,
  // Told after the backend started (rules an ACP agent cannot honour): still agentstream called wrongly.
  usage: 2,
  backend_startup: 78,
};

function failedExitCode(error?: Pick<ErrorInfo, "code" | "retryable">): ExitCode {
  if (!error) return 1;
  const fixed = FAILED_CODES[error.code];
  if (fixed !== undefined) return fixed;
  return error.retryable ? 75 : 1;
}

/** Exit code when the reader closed our stdout (EPIPE): 128 + SIGPIPE. */
export const EXIT_EPIPE = 141;
/** Exit code when stdout cannot be written for any other reason (ENOSPC, EIO): sysexits' EX_IOERR. */
export const EXIT_OUTPUT_ERROR = 74;

/** How agentstream ends once its stdout is lost: the reader left (141), or writing failed (74). */
export function exitCodeForLostOutput(error: NodeJS.ErrnoException): number {
  return readerLeft(error) ? EXIT_EPIPE : EXIT_OUTPUT_ERROR;
}

/** The reader closed its end (or we did, after it left): no failure of ours to report. */
export function readerLeft(error: NodeJS.ErrnoException): boolean {
  return error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED";
}
/** Exit code for a wrong invocation: nothing was spawned or read. */
export const EXIT_USAGE = 2;

/**
 * `export otlp`: 0 when every file was sent; 1 when a file could not be read
 * as a canonical stream (retrying will not help); else 75 when the collector
 * did not take every span (down, slow, refusing: worth retrying, as a
 * retryable failed run).
 */
export function exportExitCode(unreadableFiles: number, unsentFiles: number): number {
  if (unreadableFiles > 0) return exitCodeFor("failed");
  if (unsentFiles > 0) return exitCodeFor("failed", { code: "network", retryable: true });
  return 0;
}
