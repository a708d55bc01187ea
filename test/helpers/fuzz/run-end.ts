import fc from "fast-check";
import type { Interruption } from "../../../src/core/outcome.js";
import type { StreamEndFacts } from "../../../src/core/translator.js";
import { anyText } from "./text.js";

/** How the backend process ended: unknown (a recording), exited with a code, or killed by a signal. */
const backendExit = fc.oneof(
  fc.constant(null),
  fc.record({ code: fc.oneof(fc.constantFrom(0, 1, 2, 130, 137, 143), fc.nat(255)), signal: fc.constant(null) }),
  fc.record({ code: fc.constant(null), signal: fc.constantFrom("SIGKILL", "SIGTERM", "SIGINT", "SIGHUP") }),
);

/** How EvoSci ends its stderr: the session to resume. */
export const RESUME_LINE = "EvoSci --resume 5e6f7a8b";

const stderrLine = fc.oneof(
  fc.constantFrom(
    "Loading agent...",
    "Goodbye!",
    RESUME_LINE,
    "Error: Unknown option --x",
    "No API key found for provider",
    "Traceback (most recent call last):",
  ),
  anyText,
);

export const streamEnd: fc.Arbitrary<StreamEndFacts> = fc.record({
  backendExit,
  stderrTail: fc.array(stderrLine, { maxLength: 3 }),
});

/** agentstream stopped the backend itself (--timeout, a signal), or did not. */
export const interruption: fc.Arbitrary<Interruption | undefined> = fc.option(
  fc.oneof(
    fc.constant({ kind: "timeout" as const }),
    fc.constantFrom("SIGINT" as const, "SIGTERM" as const).map((signal) => ({ kind: "signal" as const, signal })),
  ),
  { nil: undefined, freq: 3 },
);

/** The normalize options that change the output: --raw, --no-deltas, a small --max-line-bytes, live durations. */
export const translateFlags = fc.record({
  includeRaw: fc.boolean(),
  deltas: fc.boolean(),
  maxLineBytes: fc.option(fc.integer({ min: 64, max: 2048 }), { nil: undefined, freq: 4 }),
  liveDurations: fc.boolean(),
});
