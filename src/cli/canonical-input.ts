import { CanonicalLineError, readCanonicalStream } from "../core/read-canonical.js";
import { AgentstreamError, UsageError } from "../core/errors.js";
import type { Redactor } from "../core/redactor.js";
import type { CanonicalEvent } from "../canonical/events.js";
import { envelopeProblem } from "../report/input-check.js";
import { fileErrorReason, openInput } from "./input.js";

const STDIN_NOTICE = "agentstream: reading a canonical stream from stdin (Ctrl-D ends it)…\n";

/**
 * Every event of one canonical stream (a file, or `-` for stdin), redacted, handed to `each` as it is read.
 * A line that is not a canonical event, an unreadable file, or a stream with no event is a usage error
 * (exit 2); `each` may throw one too (`notCanonical` words it), and the input is closed then.
 */
export async function forEachCanonicalEvent(
  file: string,
  /** The command reading it, as the hint names it (`report`, `export atif`). */
  command: string,
  redactor: Redactor,
  each: (event: CanonicalEvent, notCanonical: (problem: string) => UsageError) => void,
): Promise<void> {
  const input = openInput(file);
  const name = file === "-" ? "stdin" : file;
  if (file === "-" && process.stdin.isTTY) process.stderr.write(STDIN_NOTICE);
  const notCanonical = (problem: string, first: boolean): UsageError =>
    new UsageError(
      `${name} is not a canonical stream: ${problem}`,
      first
        ? `a backend's native stream is translated first: agentstream normalize ${file === "-" ? "" : `${file} `}| agentstream ${command} -`
        : undefined,
    );
  let events = 0;
  try {
    for await (const event of readCanonicalStream(input)) {
      events++;
      const problem = envelopeProblem(event);
      if (problem) throw notCanonical(`event ${events} has ${problem}`, events === 1);
      each(redactor.value(event), (p) => notCanonical(p, events === 1));
    }
  } catch (err) {
    input.destroy();
    if (err instanceof AgentstreamError) throw err;
    if (err instanceof CanonicalLineError) throw notCanonical(err.message.replace(/^canonical stream, /, ""), false);
    throw new UsageError(`cannot read ${name}: ${fileErrorReason(err as NodeJS.ErrnoException)}`);
  }
  if (events === 0)
    throw new UsageError(
      `${name} holds no canonical events`,
      "a canonical stream starts with run.started: see agentstream run and agentstream normalize",
    );
}
