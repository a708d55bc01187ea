// Property: any canonical stream the fuzzers make (a generated Atomic/pi or EvoScientist native stream,
// damaged, shuffled or wild, translated; whole or cut at any event) exports to an ATIF document, or to a clear
// error (AtifInputError), never a crash. Every document is then read by others' code in one Python process:
// the `atif` models in strict mode (test/helpers/atif_check.py), skipped with a notice without Python >= 3.11
// (AGENTSTREAM_REQUIRE_ATIF=1 makes that a failure).
//
// Cases per property: FUZZ_RUNS (default 150); FUZZ_SEED / FUZZ_PATH replay one (test/helpers/fuzz/settings.ts).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { BackendName } from "../../src/backends/registry.js";
import type { CanonicalEvent } from "../../src/canonical/events.js";
import type { NativeEvent } from "../../src/core/translator.js";
import { atifText } from "../../src/export/atif/document.js";
import { AtifInputError, AtifRuns } from "../../src/export/atif/runs.js";
import { ATIF_CHECK, atifPython } from "../helpers/atif-python.js";
import { atomicEvent, atomicPlausible, atomicWildEvent } from "../helpers/fuzz/atomic-events.js";
import { evosciEvent, evosciPlausible, evosciWildEvent } from "../helpers/fuzz/evosci-events.js";
import { fuzzCase } from "../helpers/fuzz/fuzz-case.js";
import { atomicSerializer, evosciSerializer, nativeStream, streamBytes } from "../helpers/fuzz/native-bytes.js";
import { fuzzParameters, fuzzTimeoutMs } from "../helpers/fuzz/settings.js";
import { translate } from "../helpers/translate.js";

const dir = mkdtempSync(join(tmpdir(), "agentstream-atif-fuzz-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** The documents written, for the one Python check at the end. */
const written: string[] = [];

/**
 * The stream's documents (each serialized as export atif writes it), or the clear error; anything else thrown
 * fails. Each is made twice, whole (atifText of the document) and step by step (its steps spilled as they can
 * no longer change, then copied through, as export atif and --atif write it): the two must be the same bytes.
 */
function exported(events: CanonicalEvent[]): string[] {
  const texts: string[] = [];
  const spilled: string[] = [];
  try {
    const runs = new AtifRuns((run) => texts.push(atifText(run.document)));
    const stepwise = AtifRuns.spilling((run) => {
      spilled.push(Buffer.concat([...run.document.chunks()].map((c) => Buffer.from(c))).toString("utf8"));
      run.document.dispose();
    });
    for (const event of events) {
      runs.event(event);
      stepwise.event(event);
    }
    runs.end();
    stepwise.end();
  } catch (err) {
    if (err instanceof AtifInputError) return [];
    throw err;
  }
  expect(spilled).toEqual(texts);
  return texts;
}

const SOURCES: [
  string,
  fc.Arbitrary<BackendName | "auto">,
  fc.Arbitrary<(e: NativeEvent) => string>,
  fc.Arbitrary<NativeEvent[]>[],
][] = [
  [
    "atomic",
    fc.constantFrom<BackendName | "auto">("atomic", "pi"),
    atomicSerializer,
    [atomicPlausible, fc.array(atomicEvent, { maxLength: 25 }), fc.array(atomicWildEvent, { maxLength: 25 })],
  ],
  [
    "evosci",
    fc.constant<BackendName | "auto">("evosci"),
    evosciSerializer,
    [evosciPlausible, fc.array(evosciEvent, { maxLength: 25 }), fc.array(evosciWildEvent, { maxLength: 25 })],
  ],
];

describe("export atif over the canonical streams the fuzzers make", () => {
  for (const [name, from, serialize, kinds] of SOURCES) {
    it(
      `${name}: plausible, valid-in-any-order and wild streams, whole or cut, export without a crash`,
      () => {
        const cases = fc.record({
          c: fuzzCase(from, nativeStream(fc.oneof(...kinds), serialize)),
          cut: fc.option(fc.nat(), { nil: undefined }),
        });
        fc.assert(
          fc.property(cases, ({ c, cut }) => {
            const { events } = translate(streamBytes(c.stream), {
              from: c.from,
              ...c.flags,
              end: c.end,
              interruption: c.interruption,
            });
            // A translated stream is canonical: it exports to exactly one document, whole or cut.
            const shown = cut === undefined ? events : events.slice(0, 1 + (cut % events.length));
            const texts = exported(shown);
            expect(texts).toHaveLength(1);
            const file = join(dir, `${name}-${written.length}.json`);
            writeFileSync(file, texts[0]!);
            written.push(file);
          }),
          fuzzParameters(),
        );
      },
      fuzzTimeoutMs(),
    );
  }

  it("events of a run whose run.started the stream lacks: the clear error, no document", () => {
    const { events } = translate(Buffer.from('{"type":"text","content":"hi"}\n'), { from: "evosci" });
    expect(exported(events.slice(1))).toEqual([]);
    expect(() => new AtifRuns(() => {}).event(events[1]!)).toThrow(AtifInputError);
  });

  const py = atifPython();
  it.skipIf(!py)(
    "every document passes the atif models (strict), in one Python process",
    () => {
      expect(written.length).toBeGreaterThan(0);
      const check = spawnSync(py!.python, [ATIF_CHECK, ...written], { encoding: "utf8", maxBuffer: 1 << 28 });
      expect(check.status, check.stderr).toBe(0);
      expect(JSON.parse(check.stdout)).toEqual({ files: written.length, problems: [] });
    },
    300_000,
  );
});
