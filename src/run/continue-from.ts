// `run --continue-from FILE`: the backend and session a recorded canonical
// stream can be continued with, read from its run.finished.resume (else the
// session_id its events carry). Read as a stream, line by line.
import { nameProblem, quoted } from "../core/argv-value.js";
import { OptionError, StoppedBeforeStart } from "../core/errors.js";
import { NumberedLineSplitter } from "../core/numbered-lines.js";
import { CANONICAL_MAX_LINE_BYTES } from "../core/read-canonical.js";
import { MAX_RECORDING_BYTES, readFileBounded } from "./bounded-file.js";
import { NO_STOPS, type StopWatch } from "./stop-signals.js";

/** What a recorded run says of how to continue it. */
export interface Continuation {
  backend: string;
  sessionId: string;
  /** Where the session id came from: run.finished.resume, or the events' session_id. */
  from: "resume" | "session_id";
}

interface Seen {
  backend?: string;
  resumeId?: string;
  sessionId?: string;
}

function see(seen: Seen, line: string): void {
  let event: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(line);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return;
    event = parsed as Record<string, unknown>;
  } catch {
    return;
  }
  if (event.type === "run.started" && typeof event.backend === "string") seen.backend = event.backend;
  if (typeof event.session_id === "string" && event.session_id !== "") seen.sessionId = event.session_id;
  const resume = event.type === "run.finished" ? (event.resume as { session_id?: unknown } | undefined) : undefined;
  if (typeof resume?.session_id === "string" && resume.session_id !== "") seen.resumeId = resume.session_id;
}

/**
 * Read FILE (a canonical stream, as run wrote it); an OptionError when it names no backend or no session.
 * A line longer than `maxLineBytes` is skipped unread (it is never held whole).
 */
export async function readContinuation(
  file: string,
  stops: StopWatch = NO_STOPS,
  maxLineBytes = CANONICAL_MAX_LINE_BYTES,
): Promise<Continuation> {
  const seen: Seen = {};
  let firstOverlong: number | undefined;
  const lines = new NumberedLineSplitter(
    (line, number) => {
      if ("overlong" in line) firstOverlong ??= number;
      else see(seen, line.text);
    },
    { maxLineBytes },
  );
  const read = await readFileBounded(file, { bound: MAX_RECORDING_BYTES, stops }, (chunk) => lines.push(chunk));
  if ("stopped" in read)
    throw new StoppedBeforeStart(read.stopped, (name) => `reading ${name("continueFrom")} ${file}`);
  if ("refused" in read) {
    const { problem } = read.refused;
    throw new OptionError((name) => `${name("continueFrom")} ${file}: ${problem}`);
  }
  lines.end();
  const unread =
    firstOverlong === undefined ? "" : ` (line ${firstOverlong} is longer than ${maxLineBytes} bytes and was not read)`;
  if (seen.backend === undefined)
    throw new OptionError(
      (name) => `${name("continueFrom")} ${file}: no run.started names the backend${unread}`,
      () => "give a canonical stream as agentstream run wrote it",
    );
  const sessionId = seen.resumeId ?? seen.sessionId;
  if (sessionId === undefined)
    throw new OptionError(
      (name) => `${name("continueFrom")} ${file}: the stream has no resume hint and no session_id to continue${unread}`,
      () => "the backend never told its session (a run that failed before it started?)",
    );
  // The id becomes an argument of the backend's: the file is what is wrong when it cannot be one.
  const problem = nameProblem(sessionId);
  if (problem !== undefined)
    throw new OptionError(
      (name) => `${name("continueFrom")} ${file}: its session id ${quoted(sessionId)} ${problem}`,
      (name) =>
        `give a canonical stream as agentstream run wrote it, or ${name("resume")} with the session id the backend reported`,
    );
  return { backend: seen.backend, sessionId, from: seen.resumeId !== undefined ? "resume" : "session_id" };
}
