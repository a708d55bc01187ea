import type { CanonicalEvent, EventOf } from "../canonical/events.js";
import { canonicalStdout } from "../cli/canonical-output.js";
import { LineWriter } from "../core/line-writer.js";
import { describeErrors, loadValidator } from "../schema/validator.js";

export type OutputFormat = "jsonl" | "json" | "text";

export interface RunOutput {
  writer: LineWriter;
  sink: (event: CanonicalEvent) => void;
  /** After run.finished: write what the format keeps of the run (nothing more for jsonl). */
  finish(): void;
}

/**
 * stdout for `run`: the canonical stream (jsonl), only the run.finished object
 * as one JSON document (json), or only the final answer (text). The stream is
 * built and checked the same way in all three.
 */
export async function runOutput(format: OutputFormat, options: { validate: boolean; onGone: () => void }): Promise<RunOutput> {
  if (format === "jsonl") return { ...(await canonicalStdout(options)), finish: () => {} };
  const writer = new LineWriter(process.stdout, options.onGone);
  const validate = options.validate ? await loadValidator() : undefined;
  let finished: EventOf<"run.finished"> | undefined;
  const sink = (event: CanonicalEvent): void => {
    if (validate && !validate(event)) {
      process.stderr.write(`agentstream: bug: event seq ${event.seq} (${event.type}) fails the schema: ${describeErrors(validate.errors)}\n`);
    }
    if (event.type === "run.finished") finished = event;
  };
  const finish = (): void => {
    if (!finished) return;
    if (format === "json") writer.write(`${JSON.stringify(finished)}\n`);
    else if (finished.result) writer.write(finished.result.text.endsWith("\n") ? finished.result.text : `${finished.result.text}\n`);
  };
  return { writer, sink, finish };
}
