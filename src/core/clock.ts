/** Where time comes from; injected so tests get deterministic output. */
export interface Clock {
  /** Wall-clock time in epoch milliseconds (read once, at the start of a run). */
  wallMs(): number;
  /** A monotonic reading in milliseconds. */
  monoMs(): number;
}

export const systemClock: Clock = {
  wallMs: () => Date.now(),
  monoMs: () => performance.now(),
};

/** A clock for tests: starts at `startIso` and advances `stepMs` at each monotonic reading. */
export function steppingClock(startIso = "2026-01-01T00:00:00.000Z", stepMs = 1): Clock {
  const start = Date.parse(startIso);
  let mono = 0;
  return {
    wallMs: () => start,
    monoMs: () => {
      const now = mono;
      mono += stepMs;
      return now;
    },
  };
}
