import type { Readable } from "node:stream";
import { DEFAULT_MAX_LINE_BYTES } from "./line-splitter.js";
import { NumberedLineSplitter } from "./numbered-lines.js";
import type { CanonicalEvent } from "../canonical/events.js";

/** A line of a canonical stream that is not a JSON object; `line` is its 1-based number. */
export class CanonicalLineError extends Error {
  constructor(
    readonly line: number,
    problem: string,
  ) {
    super(`canonical stream, line ${line}: ${problem}`);
    this.name = "CanonicalLineError";
  }
}

// A canonical line can carry a whole native line (up to normalize's cap) as `raw`, plus its translation.
export const CANONICAL_MAX_LINE_BYTES = 4 * DEFAULT_MAX_LINE_BYTES;

/**
 * Read a canonical stream (agentstream's own output, e.g. a child process's
 * stdout or a saved log) as events, as they arrive. A canonical stream holds
 * nothing but JSON objects, one a line, so every event before the first line
 * that is not one is yielded, then the iteration fails with a
 * CanonicalLineError naming that line (unlike a native stream, where a bad
 * line becomes backend.unparsed).
 */
export async function* readCanonicalStream(
  input: Readable | AsyncIterable<Buffer | string>,
): AsyncGenerator<CanonicalEvent> {
  let ready: CanonicalEvent[] = [];
  let failure: CanonicalLineError | undefined;
  const lines = new NumberedLineSplitter(
    (line, number) => {
      if (failure) return;
      if ("overlong" in line) failure = new CanonicalLineError(number, `longer than ${CANONICAL_MAX_LINE_BYTES} bytes`);
      else {
        const event = parseObject(line.text);
        if (event) ready.push(event);
        else failure = new CanonicalLineError(number, `not a JSON object: ${line.text.slice(0, 80)}`);
      }
    },
    { maxLineBytes: CANONICAL_MAX_LINE_BYTES },
  );
  const flush = function* (): Generator<CanonicalEvent> {
    const batch = ready;
    ready = [];
    yield* batch;
    if (failure) throw failure;
  };
  for await (const chunk of input) {
    lines.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
    // No canonical line is longer: said at once, not at its end, which may never come (/dev/zero).
    const overlong = lines.overlongLine;
    if (overlong !== undefined)
      failure ??= new CanonicalLineError(overlong, `longer than ${CANONICAL_MAX_LINE_BYTES} bytes`);
    yield* flush();
  }
  lines.end();
  yield* flush();
}

function parseObject(text: string): CanonicalEvent | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as CanonicalEvent) : undefined;
  } catch {
    return undefined;
  }
}
