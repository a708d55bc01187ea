import type { CanonicalEvent, EventOf } from "../canonical/events.js";
import { canonicalStdout, eventChecker, finalAnswerText } from "../core/canonical-output.js";
import { LineWriter } from "../core/line-writer.js";
import { Redactor } from "../core/redactor.js";

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
export async function runOutput(
  format: OutputFormat,
  options: { validate: boolean; onGone: () => void; redactor?: Redactor },
): Promise<RunOutput> {
  if (format === "jsonl") return { ...(await canonicalStdout(options)), finish: () => {} };
  const redactor = options.redactor ?? new Redactor([]);
  const writer = new LineWriter(process.stdout, options.onGone);
  const check = await eventChecker(options.validate);
  let finished: EventOf<"run.finished"> | undefined;
  const sink = (event: CanonicalEvent): void => {
    check(event);
    if (event.type === "run.finished") finished = event;
  };
  const finish = (): void => {
    if (!finished) return;
    if (format === "json") writer.write(`${redactor.jsonLine(JSON.stringify(finished))}\n`);
    else writer.write(redactor.text(finalAnswerText(finished) ?? ""));
  };
  return { writer, sink, finish };
}
