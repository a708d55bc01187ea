import type { AnsweredBy, BackendExit, ErrorInfo, RunStatus } from "../canonical/events.js";
import type { Outcome, ResumeHint, StreamEndFacts } from "./translator.js";
import { classifyStartupFailure } from "./classify.js";
import { exitCodeFor } from "./exit-codes.js";
import { clip } from "./clip.js";

/** Why agentstream itself stopped the backend, when it did. */
export type Interruption =
  | { kind: "timeout" }
  | { kind: "signal"; signal: "SIGINT" | "SIGTERM" | "SIGHUP" }
  | { kind: "aborted" }
  /** A --max-turns / --max-tokens / --max-cost-usd limit was crossed: what was reached. */
  | { kind: "budget"; message: string };

/** --output-schema's verdict on an answer (answer-check.ts): its value, the run's error, or the check stopped. */
export type AnswerVerdict = { json: { value: unknown } } | { error: ErrorInfo } | { stopped: Interruption };

/** A refused call that ran, as the run's error names it. */
export interface RefusedCall {
  tool_call_id: string;
  name: string;
  /** Who rejected it (input.answered.by). */
  by: AnsweredBy;
}

/** What the stream showed of refused calls that ran (refused-runs.ts watches the events written). */
export interface RefusedRuns {
  /** The first call that ran though someone rejected it (a rule, the command, a person, the callback). */
  rejected?: RefusedCall;
  /** How many rejected calls ran. */
  rejectedCount: number;
  /** A call ran whose request no one decided (answered by default, or cancelled): it still waits for its approval. */
  undecided: boolean;
}

/** A failure on agentstream's side: the backend could not be started, or the input could not be read. */
export interface OwnFailure {
  code: "backend_not_found" | "internal";
  message: string;
}

/** The run's outcome as run.finished states it: status, exit code, error, result, the backend's exit and stderr tail. */
export interface RunOutcome {
  status: RunStatus;
  exitCode: number;
  error?: ErrorInfo;
  resultText: string | null;
  /** --output-schema: the answer's value, which matched the schema (run.finished.result.json). */
  resultJson?: { value: unknown };
  resume?: ResumeHint;
  backendExit: BackendExit | null;
  stderrTail: string[];
  usageComplete: boolean;
  /** The backend told its usage, but no tokens (context fill only): run.finished.usage says complete: false. */
  usageUntold?: true;
  /** The backend process ended before finishing its protocol (closes open calls as backend_exited). */
  backendGone: boolean;
  /** agentstream stopped it (a limit, --timeout, a signal, an abort): its last model call may be unreported. */
  stopped?: true;
}

/** @deprecated use RunOutcome */
export type ResolvedOutcome = RunOutcome;

export interface OutcomeFacts {
  /** The translator's verdict from a terminal event, if there was one. */
  terminal: Outcome | undefined;
  resume?: ResumeHint;
  end: StreamEndFacts;
  interruption?: Interruption;
  ownFailure?: OwnFailure;
  /** At least one native line was a JSON event. */
  sawEvents: boolean;
  /** At least one native line was not. */
  sawGarbage: boolean;
  /** The backend got past its start-up header. */
  started: boolean;
  usageComplete: boolean;
  usageUntold?: boolean;
  /** Calls the agent ran though their permission request was refused (tool.completed.unapproved). */
  refusedRuns?: RefusedRuns;
}

/**
 * Decide the run's outcome: the backend's own verdict where it gave one, else how and why it stopped. Three
 * rules hold for every backend (docs/canonical-stream.md "Outcome rules"): only a run that succeeded has a
 * result (what a failed, stopped or paused run said is in its messages, not an answer), a turn its backend
 * says was aborted by its user ended cancelled, not failed, and no refused call ends in success.
 */
export function resolveOutcome(facts: OutcomeFacts): RunOutcome {
  const decided = decide({ ...facts, terminal: facts.terminal && userStopped(facts.terminal) });
  // agentstream's own failure: nothing ran.
  const outcome = facts.ownFailure ? decided : refusalStands(decided, facts.refusedRuns);
  return outcome.status === "succeeded" ? outcome : { ...outcome, resultText: null };
}

// A call's name and id as the run's error quotes them (the agent chose both).
const MAX_NAMED = 200;

/**
 * No refused call ends in success. A call the agent ran though a rule, the command, a person or the callback
 * rejected it fails the run (refused_call_ran, exit 1), whatever the agent or a stop said after: what was
 * refused happened. A call it ran whose request no one decided still waits for its approval: a run that would
 * have succeeded needs input, the call pending.
 */
function refusalStands(outcome: RunOutcome, refused: RefusedRuns | undefined): RunOutcome {
  if (refused?.rejected) {
    const { tool_call_id, name, by } = refused.rejected;
    const more = refused.rejectedCount > 1 ? ` (and ${refused.rejectedCount - 1} more rejected calls)` : "";
    const error: ErrorInfo = {
      code: "refused_call_ran",
      message: `the agent ran a call that was rejected (by ${by}): ${clip(name, MAX_NAMED)} ${JSON.stringify(clip(tool_call_id, MAX_NAMED))}${more}`,
      retryable: false,
    };
    return { ...outcome, status: "failed", error, exitCode: exitCodeFor("failed", error) };
  }
  if (refused?.undecided && outcome.status === "succeeded")
    return { ...outcome, status: "needs_input", exitCode: exitCodeFor("needs_input") };
  return outcome;
}

/**
 * A turn its backend ended `aborted` was cancelled. The code `aborted` comes only from a backend's structured
 * field naming its user's abort (OpenCode's MessageAbortedError, Gemini CLI's FatalCancellationError, pi's
 * stopReason "aborted", ...: classification.ts's rows by type, never words), so no message decides it.
 */
function userStopped(terminal: Outcome): Outcome {
  if (terminal.status !== "failed" || terminal.error?.code !== "aborted") return terminal;
  return {
    ...terminal,
    status: "cancelled",
    error: { code: "cancelled", message: terminal.error.message, retryable: false },
  };
}

function decide(facts: OutcomeFacts): RunOutcome {
  const { end } = facts;
  const base = {
    backendExit: end.backendExit,
    stderrTail: end.stderrTail,
    usageComplete: facts.usageComplete,
    ...(facts.usageUntold ? { usageUntold: true as const } : {}),
    ...(facts.resume ? { resume: facts.resume } : {}),
    ...(facts.interruption ? { stopped: true as const } : {}),
  };
  if (facts.ownFailure) {
    const error: ErrorInfo = { code: facts.ownFailure.code, message: facts.ownFailure.message, retryable: false };
    return {
      ...base,
      status: "failed",
      error,
      resultText: null,
      exitCode: exitCodeFor("failed", error),
      backendGone: false,
    };
  }
  if (facts.interruption?.kind === "budget") {
    // Stopped for a limit: whatever the backend concluded after, the run went over what it was allowed.
    const error: ErrorInfo = { code: "budget", message: facts.interruption.message, retryable: false };
    return {
      ...base,
      status: "failed",
      error,
      resultText: null,
      exitCode: exitCodeFor("failed", error),
      backendGone: false,
    };
  }
  // A turn the backend ended cancelled because we stopped it (ACP's session/cancel): a timeout is timed_out
  // (124), and the signal we heard gives the exit code (SIGTERM 143); the backend's own words are kept.
  const ours = facts.terminal?.status === "cancelled" ? facts.interruption : undefined;
  if (facts.terminal && ours?.kind !== "timeout") {
    const { structured: _answer, ...t } = facts.terminal;
    const signal = ours?.kind === "signal" ? (ours.signal === "SIGINT" ? "SIGINT" : "SIGTERM") : undefined;
    return {
      ...base,
      ...t,
      exitCode: signal ? exitCodeFor(t.status, t.error, signal) : exitCodeFor(t.status, t.error),
      backendGone: false,
    };
  }
  const stopped =
    facts.interruption && stoppedOutcome(facts.interruption, "the run exceeded --timeout and was stopped");
  if (stopped) return { ...base, ...stopped, resultText: null, backendGone: false };
  const error = unterminatedError(facts);
  return {
    ...base,
    status: "failed",
    error,
    resultText: null,
    exitCode: exitCodeFor("failed", error),
    backendGone: end.backendExit !== null,
  };
}

/**
 * --output-schema's verdict on a succeeded run's answer (TranslationSession.end checks it): the value that
 * matched, the run failed with output_schema, or the check stopped by --timeout or a stop signal.
 */
export function withAnswerVerdict(outcome: RunOutcome, verdict: AnswerVerdict): RunOutcome {
  if ("json" in verdict) return { ...outcome, resultJson: verdict.json };
  const ended =
    "error" in verdict
      ? { status: "failed" as const, error: verdict.error, exitCode: exitCodeFor("failed", verdict.error) }
      : stoppedOutcome(
          verdict.stopped,
          "the run exceeded --timeout while its answer was checked against the output schema",
        )!;
  // Only a succeeded run has a result: an answer the check refused (or could not finish) is none.
  return { ...outcome, ...ended, resultText: null };
}

/** How a run that agentstream stopped ends: --timeout, a library caller's abort, a stop signal (a limit is not this). */
function stoppedOutcome(
  interruption: Interruption,
  timeoutMessage: string,
): Pick<RunOutcome, "status" | "error" | "exitCode"> | undefined {
  const ended = (status: RunStatus, error: ErrorInfo, signal?: "SIGINT" | "SIGTERM") => ({
    status,
    error,
    exitCode: exitCodeFor(status, error, signal),
  });
  switch (interruption.kind) {
    case "timeout":
      return ended("timed_out", { code: "timeout", message: timeoutMessage, retryable: false });
    case "aborted":
      // A library caller's AbortSignal: a cancellation asked for by the user, exit status as for Ctrl-C.
      return ended(
        "cancelled",
        { code: "cancelled", message: "cancelled: the run was aborted", retryable: false },
        "SIGINT",
      );
    case "signal": {
      const { signal } = interruption;
      const error: ErrorInfo = { code: "cancelled", message: `cancelled by ${signal}`, retryable: false };
      // The exit-code table knows SIGINT (130) and SIGTERM (143); a hang-up ends the run like SIGTERM.
      return ended("cancelled", error, signal === "SIGINT" ? "SIGINT" : "SIGTERM");
    }
    case "budget":
      return undefined;
  }
}

function unterminatedError(facts: OutcomeFacts): ErrorInfo {
  const exit = facts.end.backendExit;
  const fail = (code: ErrorInfo["code"], message: string): ErrorInfo => ({ code, message, retryable: false });
  if (!facts.sawEvents && facts.sawGarbage) {
    return fail("backend_protocol", "the backend's stdout was not the expected JSONL protocol");
  }
  if (exit === null) return fail("backend_crashed", "the stream ended without a terminal event");
  if (exit.signal) return fail("backend_crashed", `the backend was killed by ${exit.signal}`);
  const code = exit.code ?? -1;
  if (code > 128 && code < 160)
    return fail("backend_crashed", `the backend exited with code ${code} (killed by a signal)`);
  if (code !== 0 && !facts.started) {
    const stderr = facts.end.stderrTail.join("\n");
    const kind = classifyStartupFailure(stderr);
    const said = mostTellingLine(facts.end.stderrTail);
    return fail(
      kind,
      said
        ? `the backend exited with code ${code} before starting: ${said}`
        : `the backend exited with code ${code} before starting`,
    );
  }
  return fail("backend_crashed", `the backend exited with code ${code} without a terminal event`);
}

const ERROR_WORDS = /error|exception|fail|invalid|unknown|not found|no api key|denied|missing|refused/i;

/** The stderr line that says what went wrong: the last one that sounds like an error (a traceback ends with it), else the last one. */
function mostTellingLine(lines: string[]): string | undefined {
  const said = lines.map((l) => l.trim()).filter((l) => l !== "");
  return said.findLast((l) => ERROR_WORDS.test(l)) ?? said.at(-1);
}
