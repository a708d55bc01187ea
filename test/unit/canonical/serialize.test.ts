// The line writer's serializer must give exactly JSON.stringify's bytes for
// every event, and fall back to it for anything that is not laid out as
// CanonicalStream lays events out.
import { describe, expect, it } from "vitest";
import type { CanonicalEvent } from "../../../src/canonical/events.js";
import { serializeEvent } from "../../../src/canonical/serialize.js";
import { goldenEvents, variants } from "../../helpers/golden-events.js";

const same = (event: unknown): void => {
  expect(serializeEvent(event as CanonicalEvent)).toBe(JSON.stringify(event));
};

const base = {
  v: 1,
  seq: 7,
  ts: "2026-01-01T00:00:00.000Z",
  elapsed_ms: 12,
  run_id: "run-1",
  backend: "evosci",
  type: "message.delta",
  message_id: "m1",
  text: "hi",
  native: "text",
};

describe("serializeEvent", () => {
  it("writes every golden event, and thousands of variants of them, as JSON.stringify does", () => {
    let checked = 0;
    for (const event of goldenEvents()) {
      for (const candidate of variants(event)) {
        same(candidate);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10_000);
  });

  it("escapes what JSON must escape, in the envelope and in the fields", () => {
    same({
      ...base,
      ts: 'quote " and \\ and \u2028',
      run_id: "\ud800 lone surrogate",
      type: "a\nb",
      text: "\u0000\u001f \ud83d\ude00 \udc00",
    });
    same({ ...base, backend: "é", native: "</script>" });
  });

  it("leaves out what JSON.stringify leaves out, and keeps a field named __proto__", () => {
    same({ ...base, text: undefined, extra: () => 1, sym: Symbol("x") });
    same({ ...base, raw: { toJSON: () => undefined } });
    same({ ...base, raw: { nested: [undefined, () => 1, new Date(0)] } });
    same(JSON.parse(`${JSON.stringify(base).slice(0, -1)},"__proto__":{"a":1}}`));
  });

  it("writes the run id and timestamp of each event, not of the one before", () => {
    same({ ...base, run_id: "run-2", ts: "2026-01-01T00:00:00.001Z" });
    same(base);
    same({ ...base, seq: 8 });
  });

  it("hands anything not laid out like an envelope to JSON.stringify", () => {
    const { v: _v, ...noVersion } = base;
    same(noVersion);
    same(Object.fromEntries(Object.entries(base).reverse()));
    same({ ...base, v: 2 });
    same({ ...base, seq: 1.5 });
    same({ ...base, seq: "7" });
    same({ ...base, elapsed_ms: Number.MAX_SAFE_INTEGER + 2 });
    same({ ...base, elapsed_ms: -0 });
    same({ 0: "integer keys come first", ...base });
    same({ v: 1, seq: 1, ts: "t", elapsed_ms: 0, run_id: "r", backend: "pi" });
  });
});
