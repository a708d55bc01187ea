// The translation session stamps native_ts: a translator only says, through its
// optional nativeTime(event), what time a native event states.
import { describe, expect, it } from "vitest";
import type { CanonicalEvent } from "../../../src/canonical/events.js";
import { steppingClock } from "../../../src/core/clock.js";
import { TranslationSession } from "../../../src/core/translation-session.js";
import { draft, type NativeEvent, type Translator, type TranslatorCatalog } from "../../../src/core/translator.js";
import { TRANSLATORS } from "../../../src/backends/registry.js";
import { warnOfTranslatorBug } from "../../helpers/translate.js";

/** Two drafts per native event (one of them synthetic), one more at the end; `at` is the time a line states. */
function timedTranslator(withNativeTime: boolean): Translator {
  let turn = 0;
  const translator: Translator = {
    protocol: "timed",
    usageComplete: true,
    started: true,
    translate: (e: NativeEvent) => [
      draft("turn.started", { turn: ++turn }, { synthetic: true }),
      draft("message.completed", { message_id: `m${turn}`, text: String(e.text) }, { native: e.type }),
    ],
    finish: () => ({ drafts: [draft("turn.completed", { turn }, { synthetic: true })], outcome: undefined }),
  };
  if (withNativeTime)
    translator.nativeTime = (e: NativeEvent) => (typeof e.at === "string" ? `${e.at}T00:00:00.000Z` : undefined);
  return translator;
}

function run(withNativeTime: boolean): CanonicalEvent[] {
  const catalog: TranslatorCatalog = { create: () => timedTranslator(withNativeTime), detector: TRANSLATORS.detector };
  const events: CanonicalEvent[] = [];
  const session = new TranslationSession({
    from: "evosci",
    translators: catalog,
    runId: "run-test",
    clock: steppingClock(),
    agentstreamVersion: "0.0.0-test",
    started: { mode: "normalize", input: "-" },
    onTranslatorBug: warnOfTranslatorBug,
    sink: (e) => events.push(e),
  });
  session.write(
    Buffer.from(
      '{"type":"say","text":"a","at":"2026-01-02"}\n{"type":"say","text":"b"}\n{"type":"say","text":"c","at":"2026-01-03"}\n',
    ),
  );
  session.end({ backendExit: { code: 0, signal: null }, stderrTail: [] });
  return events;
}

describe("TranslationSession and a translator's nativeTime", () => {
  it("stamps the time an event states on every draft translated from it, and on nothing else", () => {
    const stamps = run(true).map((e) => [e.type, e.native_ts]);
    expect(stamps).toEqual([
      ["run.started", undefined],
      ["turn.started", "2026-01-02T00:00:00.000Z"],
      ["message.completed", "2026-01-02T00:00:00.000Z"],
      ["turn.started", undefined],
      ["message.completed", undefined],
      ["turn.started", "2026-01-03T00:00:00.000Z"],
      ["message.completed", "2026-01-03T00:00:00.000Z"],
      ["turn.completed", undefined],
      ["run.finished", undefined],
    ]);
  });

  it("stamps nothing for a translator without nativeTime", () => {
    expect(run(false).filter((e) => "native_ts" in e)).toEqual([]);
  });
});
