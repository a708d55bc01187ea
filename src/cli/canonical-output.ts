import type { CanonicalEvent } from "../canonical/events.js";
import { LineWriter } from "../core/line-writer.js";
import { describeErrors, loadValidator, type Validator } from "../schema/validator.js";

export interface CanonicalOutput {
  writer: LineWriter;
  sink: (event: CanonicalEvent) => void;
}

/**
 * stdout as a canonical sink: each event checked against the schema (unless
 * disabled), serialized, and written as one line.
 */
export async function canonicalStdout(options: { validate: boolean; onGone?: () => void }): Promise<CanonicalOutput> {
  const writer = new LineWriter(process.stdout, options.onGone);
  const validate: Validator | undefined = options.validate ? await loadValidator() : undefined;
  const sink = (event: CanonicalEvent): void => {
    if (validate && !validate(event)) {
      // A bug in agentstream, never the backend's doing: say so, and keep the line.
      process.stderr.write(`agentstream: bug: event seq ${event.seq} (${event.type}) fails the schema: ${describeErrors(validate.errors)}\n`);
    }
    writer.write(`${JSON.stringify(event)}\n`);
  };
  return { writer, sink };
}
