// Minimal inputs the property-based tests once failed on, each with what must hold now.
import { describe, expect, it } from "vitest";
import type { CanonicalEvent, EventOf } from "../../src/canonical/events.js";
import { MAX_NATIVE_DEPTH } from "../../src/core/native-line.js";
import { strictProblems } from "../helpers/strict-schema.js";
import { toJsonl, translate, type TranslateOptions } from "../helpers/translate.js";
import { verifyLines } from "../helpers/verify.js";

/** Translate, and check the written JSONL (not the objects in memory) against verify and the strict schema. */
function translateValid(native: string, options: TranslateOptions) {
  const { events } = translate(native, options);
  const written = toJsonl(events)
    .split("\n")
    .filter((l) => l !== "");
  expect(verifyLines(written)).toEqual([]);
  for (const line of written) expect(strictProblems(JSON.parse(line))).toEqual([]);
  return { events, finished: events.at(-1) as EventOf<"run.finished"> };
}

const types = (events: CanonicalEvent[]) => events.map((e) => e.type);
const assistantEnd = (usage: object) =>
  JSON.stringify({ type: "message_end", message: { role: "assistant", content: [], usage, stopReason: "stop" } });

describe("fuzz regressions: framing", () => {
  it("a line of U+2028 alone is blank, like one of spaces and U+2029", () => {
    for (const line of ["\u2028", "\u3000", "\u00a0\u2029", " \u3000"]) {
      const { events, finished } = translateValid(line, { from: "evosci" });
      expect(types(events), JSON.stringify(line)).toEqual(["run.started", "run.finished"]);
      expect(finished.counts.unparsed_lines).toBe(0);
    }
  });
});

describe("fuzz regressions: usage numbers", () => {
  it("token counts past 2^53 are not reported, so totals never overflow to null", () => {
    const { events, finished } = translateValid(
      [assistantEnd({ cacheWrite: 1e308 }), assistantEnd({ cacheWrite: 1e308 })].join("\n"),
      { from: "atomic" },
    );
    expect(events.filter((e) => e.type === "usage")).toEqual([]);
    expect(finished.usage).toBeUndefined();
  });

  it("a cost past 2^53 is not reported", () => {
    const { finished } = translateValid(assistantEnd({ input: 0, output: 1, cost: { total: 1e308 } }), {
      from: "atomic",
    });
    expect(finished.usage).toEqual({ input_tokens: 0, output_tokens: 1 });
  });

  it("EvoSci usage_stats past 2^53 are kept as backend.event, not counted as 0 (the field being required)", () => {
    const stats = JSON.stringify({ type: "usage_stats", input_tokens: 1e308, output_tokens: 5 });
    const { events, finished } = translateValid(`${stats}\n${stats}`, { from: "evosci" });
    // The model call still happened: its turn opens.
    expect(types(events)).toEqual(["run.started", "turn.started", "backend.event", "backend.event", "run.finished"]);
    expect(finished.usage).toBeUndefined();
  });
});

describe("fuzz regressions: session id", () => {
  it("a second session header naming another session is kept as backend.event; session_id stays", () => {
    const header = (id: string) =>
      JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" });
    const { events } = translateValid([header("sess_3"), header("sess_1")].join("\n"), { from: "atomic" });
    expect(types(events)).toEqual(["run.started", "session.started", "backend.event", "run.finished"]);
    expect(events[2]).toMatchObject({ native: "session", native_type: "session", session_id: "sess_3" });
    expect(events.at(-1)!.session_id).toBe("sess_3");
  });
});

describe("fuzz regressions: --from auto", () => {
  // TranslationSession.onLine reported an overlong line before it checked whether the
  // backend was still being detected, when the stream did not exist yet (TypeError).
  it("an overlong line before the first event is held like any other line", () => {
    const line = '{"type": "tool_call", "name": "ls", "args": {"": null}, "id": "toolu_1"}';
    const { events } = translateValid(line, { from: "auto", maxLineBytes: 64 });
    expect(types(events)).toEqual(["run.started", "backend.unparsed", "run.finished"]);
  });
});

describe("fuzz regressions: nesting", () => {
  // fast-check shrank it to 4094 levels, where the stack ran out under the property; past the
  // stack limit anywhere, JSON.stringify (asText, then the writer) threw RangeError.
  it("a line nested deeper than any real event is backend.unparsed, not a stack overflow", () => {
    const depth = 100_000;
    const line = `{"type":"text","content":${"[".repeat(depth)}1${"]".repeat(depth)}}`;
    const { events, finished } = translateValid(line, { from: "evosci" });
    expect(types(events)).toEqual(["run.started", "backend.unparsed", "run.finished"]);
    expect(events[1]).toMatchObject({ reason: "invalid_json" });
    expect(finished.counts.unparsed_lines).toBe(1);
  });

  it("nesting up to the cap is translated as usual", () => {
    const line = (depth: number) => `{"type":"memory_flush","x":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;
    expect(types(translateValid(line(MAX_NATIVE_DEPTH), { from: "evosci" }).events)[1]).toBe("backend.event");
    expect(types(translateValid(line(MAX_NATIVE_DEPTH + 1), { from: "evosci" }).events)[1]).toBe("backend.unparsed");
  });
});
