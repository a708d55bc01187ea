import fc from "fast-check";
import type { BackendName } from "../../../src/backends/registry.js";
import type { FuzzCase } from "./check-case.js";
import type { NativeStream } from "./native-bytes.js";
import { interruption, streamEnd, translateFlags } from "./run-end.js";

/** A native stream with everything else a translation depends on: --from, flags, how the run ended, chunking. */
export function fuzzCase(
  from: fc.Arbitrary<BackendName | "auto">,
  stream: fc.Arbitrary<NativeStream>,
): fc.Arbitrary<FuzzCase> {
  return fc.record({
    from,
    stream,
    flags: translateFlags,
    end: streamEnd,
    interruption,
    chunkBytes: fc.integer({ min: 1, max: 64 }),
    cuts: fc.array(fc.nat(), { maxLength: 12 }),
  });
}
