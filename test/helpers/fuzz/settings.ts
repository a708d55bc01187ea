import type { Parameters } from "fast-check";

// Enough for the whole fuzz suite to take seconds in `npm test`; CI sets more.
const DEFAULT_RUNS = 150;

/**
 * fast-check parameters from the environment:
 *   FUZZ_RUNS  cases per property (default 150)
 *   FUZZ_SEED  replay a failure: the seed fast-check printed
 *   FUZZ_PATH  replay a failure: the path fast-check printed (goes straight to the shrunk case)
 */
export function fuzzParameters<T>(): Parameters<T> {
  const runs = Number(process.env.FUZZ_RUNS ?? DEFAULT_RUNS);
  const seed = process.env.FUZZ_SEED;
  const path = process.env.FUZZ_PATH;
  return {
    numRuns: Number.isInteger(runs) && runs > 0 ? runs : DEFAULT_RUNS,
    ...(seed !== undefined && seed !== "" ? { seed: Number(seed) } : {}),
    ...(path !== undefined && path !== "" ? { path } : {}),
  };
}

/** Room for FUZZ_RUNS-sized suites: vitest's default of 5 s per test is far too short for CI's numbers. */
export function fuzzTimeoutMs(): number {
  return Math.max(60_000, fuzzParameters().numRuns! * 200);
}
