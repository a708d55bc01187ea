import fc from "fast-check";
import { describe, it } from "vitest";
import type { BackendName } from "../../../src/backends/registry.js";
import type { NativeEvent } from "../../../src/core/translator.js";
import { checkCase } from "./check-case.js";
import { fuzzCase } from "./fuzz-case.js";
import { nativeStream } from "./native-bytes.js";
import { fuzzParameters, fuzzTimeoutMs } from "./settings.js";

export interface TranslatorFuzzSpec {
  /** The --from values to translate with. */
  from: fc.Arbitrary<BackendName | "auto">;
  /** How the backend writes one event as a line. */
  serialize: fc.Arbitrary<(e: NativeEvent) => string>;
  /** A run in the order the backend writes it. */
  plausible: fc.Arbitrary<NativeEvent[]>;
  /** Any one valid event, ids from a small pool. */
  event: fc.Arbitrary<NativeEvent>;
  /** Any one event, sometimes with fields of the wrong type and unknown fields. */
  wildEvent: fc.Arbitrary<NativeEvent>;
}

/** The same properties for each translator, over streams of increasing disorder. */
export function describeTranslatorProperties(name: string, spec: TranslatorFuzzSpec): void {
  const check = (events: fc.Arbitrary<NativeEvent[]>) => () =>
    fc.assert(fc.property(fuzzCase(spec.from, nativeStream(events, spec.serialize)), checkCase), fuzzParameters());
  const shuffled = spec.plausible.chain((events) => fc.shuffledSubarray(events, { minLength: events.length }));

  describe(`${name} translator: properties over generated streams`, () => {
    it("plausible runs, damaged (noise, duplicates, drops, cuts, CRLF)", check(spec.plausible), fuzzTimeoutMs());
    it("plausible runs in a random order", check(shuffled), fuzzTimeoutMs());
    it(
      "valid events in any order, ids repeated, missing and mismatched",
      check(fc.array(spec.event, { maxLength: 25 })),
      fuzzTimeoutMs(),
    );
    it(
      "wild events: unknown types, unknown fields, fields of the wrong type",
      check(fc.array(spec.wildEvent, { maxLength: 25 })),
      fuzzTimeoutMs(),
    );
    // Where start-up failures live: an exit before (or right after) the first event, told apart by stderr.
    it(
      "runs that end at once: no events or a few, any exit, any stderr",
      check(fc.array(spec.event, { maxLength: 2 })),
      fuzzTimeoutMs(),
    );
  });
}
