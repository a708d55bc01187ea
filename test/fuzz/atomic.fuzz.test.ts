// Property-based tests of the Atomic/pi translator over generated native streams
// (in test/helpers/fuzz/: the properties, check-case.ts; the generators, atomic-events.ts and native-bytes.ts).
//
// Cases per property: FUZZ_RUNS (default 150). On a failure fast-check prints the
// shrunk counterexample and a line like
//   { seed: -1819918769, path: "33:1:0:2", endOnFailure: true }
// Replay exactly that case with
//   FUZZ_SEED=-1819918769 FUZZ_PATH="33:1:0:2" npx vitest run test/fuzz/atomic.fuzz.test.ts -t "<test name>"
// then add the shrunk input to test/fuzz/regressions.test.ts with the fix.
import fc from "fast-check";
import type { BackendName } from "../../src/backends/registry.js";
import { atomicEvent, atomicPlausible, atomicWildEvent } from "../helpers/fuzz/atomic-events.js";
import { atomicSerializer } from "../helpers/fuzz/native-bytes.js";
import { describeTranslatorProperties } from "../helpers/fuzz/translator-properties.js";

describeTranslatorProperties("atomic", {
  from: fc.constantFrom<BackendName | "auto">("atomic", "pi", "auto"),
  serialize: atomicSerializer,
  plausible: atomicPlausible,
  event: atomicEvent,
  wildEvent: atomicWildEvent,
});
