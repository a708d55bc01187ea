import type { CanonicalEvent, EventOf } from "../canonical/events.js";
import { serializeEvent } from "../canonical/serialize.js";
import { LineWriter } from "./line-writer.js";
import { Redactor } from "./redactor.js";
import { showControls } from "./control-chars.js";
import { describeErrors, loadValidator } from "../schema/validator.js";

export interface CanonicalOutput {
  writer: LineWriter;
  sink: (event: CanonicalEvent) => void;
}

/** A bug in agentstream, found while running: said on stderr, and the run goes on. */
export function reportBug(message: string, stderr: NodeJS.WritableStream = process.stderr): void {
  stderr.write(`agentstream: ${showControls(message)}\n`);
}

/**
 * Checks each event against the schema (when enabled). A failure is a bug in
 * agentstream, never the backend's doing: it is said on stderr, and the line kept.
 */
export async function eventChecker(enabled: boolean): Promise<(event: CanonicalEvent) => void> {
  if (!enabled) return () => {};
  const validate = await loadValidator();
  return (event) => {
    if (!validate(event)) {
      reportBug(
        `bug: event seq ${event.seq} (${event.type}) fails the schema: ${describeErrors(validate.errors, event)}`,
      );
    }
  };
}

/** stdout as a canonical sink: each event checked, serialized, redacted, and written as one line. */
export async function canonicalStdout(options: {
  validate: boolean;
  onGone?: () => void;
  redactor?: Redactor;
}): Promise<CanonicalOutput> {
  const redactor = options.redactor ?? new Redactor([]);
  const writer = new LineWriter(process.stdout, options.onGone);
  const check = await eventChecker(options.validate);
  const sink = (event: CanonicalEvent): void => {
    check(event);
    writer.write(`${redactor.jsonLine(serializeEvent(event))}\n`);
  };
  return { writer, sink };
}

/** The run's final answer as `--output text` and `--answer-file` write it (ending with a newline), or undefined when it has none. */
export function finalAnswerText(finished: EventOf<"run.finished">): string | undefined {
  const text = finished.result?.text;
  if (text === undefined) return undefined;
  return text.endsWith("\n") ? text : `${text}\n`;
}
