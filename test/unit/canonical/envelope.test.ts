// The one list of the envelope's keys (issue 54): the compiler ties it to the Envelope type, and
// the schema, generated from that type, lists the same keys in the same order.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ENVELOPE_KEYS, REQUIRED_ENVELOPE_KEYS } from "../../../src/canonical/envelope.js";
import { payloadOf } from "../../../src/export/atif/trajectory-builder.js";
import type { CanonicalEvent } from "../../../src/canonical/events.js";

const schema = JSON.parse(readFileSync(new URL("../../../schemas/canonical-v1.schema.json", import.meta.url), "utf8"));

describe("the envelope's keys", () => {
  it("are the schema's top-level properties, in its order", () => {
    expect(ENVELOPE_KEYS).toEqual(Object.keys(schema.properties));
  });

  it("the required ones are the schema's required, first and in order", () => {
    expect(REQUIRED_ENVELOPE_KEYS).toEqual(schema.required);
    expect(ENVELOPE_KEYS.slice(0, REQUIRED_ENVELOPE_KEYS.length)).toEqual(REQUIRED_ENVELOPE_KEYS);
  });

  it("an ATIF step's event keeps its type and payload, none of the envelope", () => {
    const event = {
      v: 1,
      seq: 3,
      ts: "2026-01-01T00:00:00.000Z",
      elapsed_ms: 5,
      run_id: "run-1",
      backend: "evosci",
      type: "session.updated",
      session_id: "s",
      agent: { name: "a", instance_id: "i" },
      native: "n",
      native_ts: "2026-01-01T00:00:00.000Z",
      synthetic: true,
      raw: {},
      name: "the session",
    } as unknown as CanonicalEvent;
    expect(payloadOf(event)).toEqual({ type: "session.updated", name: "the session" });
  });
});
