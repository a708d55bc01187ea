// A translator that throws on a native event is a bug in agentstream: the
// event is kept whole as backend.event, the bug is reported, and the run
// goes on to its usual end.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CanonicalEvent } from "../../../src/canonical/events.js";
import { normalizeStream } from "../../../src/lib/normalize.js";
import { TranslationSession, TRANSLATORS } from "../../../src/index.js";
import { EvosciTranslator } from "../../../src/backends/evosci/translator.js";
import type { NativeEvent } from "../../../src/core/translator.js";
import { parseJsonl, runCli } from "../../helpers/cli.js";
import { fixtureIdentity, translate } from "../../helpers/translate.js";

const BREAK_TRANSLATOR = new URL("../../fixtures/break-translator.mjs", import.meta.url).href;

const STREAM = [
  { type: "text", content: "Looking." },
  { type: "tool_call", id: "t1", name: "read_file", args: { path: "a" } },
  { type: "text", content: "Done." },
  { type: "done", response: "Done." },
]
  .map((e) => JSON.stringify(e))
  .join("\n");

function breakOn(type: string): void {
  const original = EvosciTranslator.prototype.translate;
  vi.spyOn(EvosciTranslator.prototype, "translate").mockImplementation(function (
    this: EvosciTranslator,
    event: NativeEvent,
  ) {
    if (event.type === type) throw new Error("boom");
    return original.call(this, event);
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a translator that throws", () => {
  it("keeps the event as backend.event, reports the bug, and ends the run as usual", () => {
    breakOn("tool_call");
    const bugs: string[] = [];
    const { events, outcome } = translate(STREAM, { from: "evosci", onTranslatorBug: (m) => bugs.push(m) });

    const kept = events.filter((e) => e.type === "backend.event");
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({
      native: "tool_call",
      native_type: "tool_call",
      raw: { type: "tool_call", id: "t1", name: "read_file" },
    });
    expect(events.some((e) => e.type === "tool.started")).toBe(false);
    expect(bugs).toEqual(['bug: translating a "tool_call" event failed (boom); it is kept as backend.event']);
    expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "succeeded", counts: { unknown_events: 1 } });
    expect(outcome.exitCode).toBe(0);
  });

  it("through the library, is reported as a process warning when no one listens for it", async () => {
    breakOn("text");
    const warnings: string[] = [];
    const spy = vi
      .spyOn(process, "emitWarning")
      .mockImplementation((w: string | Error) => void warnings.push(String(w)));
    const events: CanonicalEvent[] = [];
    for await (const event of normalizeStream([STREAM], { from: "evosci" })) events.push(event);
    expect(spy).toHaveBeenCalled();
    expect(warnings[0]).toContain('translating a "text" event failed (boom)');
    expect(events.filter((e) => e.type === "backend.event")).toHaveLength(2);
    expect(events.at(-1)?.type).toBe("run.finished");
  });

  it("a TranslationSession the library exports, used alone, reports it as a process warning when no one listens", () => {
    breakOn("text");
    const warnings: string[] = [];
    vi.spyOn(process, "emitWarning").mockImplementation((w: string | Error) => void warnings.push(String(w)));
    const events: CanonicalEvent[] = [];
    const session = new TranslationSession({
      ...fixtureIdentity(),
      from: "evosci",
      translators: TRANSLATORS,
      sink: (e) => events.push(e),
    });
    session.write(Buffer.from(`${STREAM}\n`));
    session.end({ backendExit: null, stderrTail: [] });
    expect(warnings[0]).toContain('translating a "text" event failed (boom)');
    expect(events.filter((e) => e.type === "backend.event")).toHaveLength(2);
  });

  it("through the library, tells onTranslatorBug and keeps the event", async () => {
    breakOn("tool_call");
    const bugs: string[] = [];
    const events: CanonicalEvent[] = [];
    for await (const event of normalizeStream([STREAM], { from: "evosci", onTranslatorBug: (m) => bugs.push(m) }))
      events.push(event);
    expect(bugs).toHaveLength(1);
    expect(events.filter((e) => e.type === "backend.event")).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "succeeded" });
  });

  it("a stream that trips it on every line: the first 10 said, then one line, not one a line; a long type is cut", () => {
    vi.spyOn(EvosciTranslator.prototype, "translate").mockImplementation(() => {
      throw new Error("x".repeat(100_000));
    });
    const bugs: string[] = [];
    const many = Array.from({ length: 1000 }, (_, i) => JSON.stringify({ type: `t${i}${"y".repeat(100_000)}` }));
    const { events } = translate(many.join("\n"), { from: "evosci", onTranslatorBug: (m) => bugs.push(m) });
    expect(events.filter((e) => e.type === "backend.event")).toHaveLength(1000);
    expect(bugs).toHaveLength(11);
    expect(bugs[0]).toMatch(/^bug: translating a "t0y+…" event failed \(x+…\); it is kept as backend.event$/);
    expect(Math.max(...bugs.map((b) => b.length))).toBeLessThan(700);
    expect(bugs[10]).toBe(
      "bug: more events failed to translate; they are kept as backend.event, not reported one by one",
    );
  });

  it("in the built CLI, says so on stderr and still ends with run.finished and exit 0", async () => {
    const result = await runCli(["normalize", "--from", "evosci", "-"], {
      input: STREAM,
      env: { NODE_OPTIONS: `--import ${BREAK_TRANSLATOR}` },
    });
    expect(result.stderr).toContain(
      'agentstream: bug: translating a "tool_call" event failed (boom); it is kept as backend.event',
    );
    const events = parseJsonl(result.stdout);
    expect(events.filter((e) => e.type === "backend.event")).toMatchObject([{ native_type: "tool_call" }]);
    expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "succeeded" });
    expect(result.code).toBe(0);
  });
});
