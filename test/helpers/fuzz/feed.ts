import { TRANSLATORS } from "../../../src/backends/registry.js";
import type { CanonicalEvent } from "../../../src/canonical/events.js";
import { steppingClock } from "../../../src/core/clock.js";
import { TranslationSession } from "../../../src/core/translation-session.js";
import { TEST_RUN_ID, type TranslateOptions, warnOfTranslatorBug } from "../translate.js";

export interface Fed {
  /** The events each write produced, one list per chunk. */
  perChunk: CanonicalEvent[][];
  /** All the events, from the session's start to its end. */
  events: CanonicalEvent[];
}

/**
 * translate() with the bytes fed in the given chunks, keeping which events each
 * chunk produced (the session writes them synchronously, so they belong to it).
 */
export function feedChunks(chunks: Buffer[], options: Omit<TranslateOptions, "chunkBytes" | "outputSchema">): Fed {
  let current: CanonicalEvent[] = [];
  const perChunk: CanonicalEvent[][] = [];
  const { from = "auto", end, interruption, model, onTranslatorBug = warnOfTranslatorBug, ...flags } = options;
  // Run id, clock and run.started as translate() sets them, so the outputs compare equal.
  const started = { mode: "normalize" as const, input: "-" };
  const session = new TranslationSession({
    ...flags,
    onTranslatorBug,
    ...(model !== undefined ? { model: () => model } : {}),
    from,
    translators: TRANSLATORS,
    runId: TEST_RUN_ID,
    clock: steppingClock(),
    agentstreamVersion: "0.0.0-test",
    started,
    sink: (e) => current.push(e),
  });
  const atStart = current;
  for (const chunk of chunks) {
    current = [];
    session.write(chunk);
    perChunk.push(current);
  }
  current = [];
  session.end({ backendExit: end?.backendExit ?? null, stderrTail: end?.stderrTail ?? [] }, interruption);
  return { perChunk, events: [...atStart, ...perChunk.flat(), ...current] };
}

/** The bytes cut at the given offsets (any order, any size: taken modulo the length + 1). */
export function cutAt(bytes: Buffer, offsets: number[]): Buffer[] {
  const points = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const p of [...points, bytes.length]) {
    chunks.push(bytes.subarray(start, p));
    start = p;
  }
  return chunks;
}
