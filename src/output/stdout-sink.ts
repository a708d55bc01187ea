import type { Writable } from "node:stream";
import type { CanonicalEvent, EventOf } from "../canonical/events.js";
import { serializeEvent } from "../canonical/serialize.js";
import { showControlsInText } from "../core/control-chars.js";
import { eventChecker } from "./event-check.js";
import { LineWriter } from "./line-writer.js";
import type { Sink } from "./sink.js";

export type OutputFormat = "jsonl" | "json" | "text";

/** stdout as a sink, and the writer whose backpressure the backend waits on. */
export interface StdoutSink extends Sink {
  writer: LineWriter;
}

/**
 * stdout for `run` and `normalize`: the canonical stream, one line per event
 * (jsonl), only the run.finished object as one JSON document (json), or only
 * the final answer (text; on a terminal its control characters are shown, not
 * sent). Events arrive redacted; each is checked against the schema when asked.
 */
export async function stdoutSink(
  format: OutputFormat,
  options: { validate: boolean; onGone?: () => void; out?: Writable & { isTTY?: boolean } },
): Promise<StdoutSink> {
  const out = options.out ?? process.stdout;
  const writer = new LineWriter(out, options.onGone);
  const check = await eventChecker(options.validate);
  let finished: EventOf<"run.finished"> | undefined;
  return {
    name: "stdout",
    writer,
    event(event: CanonicalEvent, line?: string): void {
      check(event);
      if (format === "jsonl") writer.writeLine(line ?? serializeEvent(event));
      else if (event.type === "run.finished") finished = event;
    },
    end(): void {
      if (!finished) return;
      if (format === "json") writer.write(`${JSON.stringify(finished)}\n`);
      else {
        const text = finalAnswerText(finished) ?? "";
        // A terminal acts on escape sequences (clear, retitle, OSC 52 clipboard writes): there they are only shown.
        writer.write(out.isTTY === true ? showControlsInText(text) : text);
      }
    },
  };
}

/** The run's final answer as `--output text` and `--answer-file` write it (ending with a newline), or undefined when it has none. */
export function finalAnswerText(finished: EventOf<"run.finished">): string | undefined {
  const text = finished.result?.text;
  if (text === undefined) return undefined;
  return text.endsWith("\n") ? text : `${text}\n`;
}
