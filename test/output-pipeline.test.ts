// The output pipeline: every event redacted once, as an object, then handed to
// each sink; a sink that fails is said once by name and dropped, the others go on.
import { describe, expect, it } from "vitest";
import type { CanonicalEvent } from "../src/canonical/events.js";
import { Redactor } from "../src/core/redactor.js";
import { OutputPipeline } from "../src/output/pipeline.js";
import type { Sink } from "../src/output/sink.js";

const event = (payload: Record<string, unknown>) =>
  ({ v: 1, seq: 0, type: "message", payload }) as unknown as CanonicalEvent;

function recorder(name: string, fail?: "event" | "end"): Sink & { seen: CanonicalEvent[]; ended: boolean } {
  return {
    name,
    seen: [],
    ended: false,
    event(e) {
      if (fail === "event") throw new Error("boom at event");
      this.seen.push(e);
    },
    end() {
      if (fail === "end") throw new RangeError("Maximum call stack size exceeded");
      this.ended = true;
    },
  };
}

describe("OutputPipeline", () => {
  it("redacts every string of the object, keys included, before any sink sees it, and leaves the original alone", () => {
    const secret = 'sk_live_"<&\\secret';
    const one = recorder("one");
    const pipeline = new OutputPipeline(new Redactor([secret]), [one], () => {});
    const original = event({ text: `key ${secret}`, [secret]: 1, list: [secret, 2], n: 5 });
    pipeline.event(original);
    expect(one.seen[0]).toEqual(event({ text: "key [redacted]", "[redacted]": 1, list: ["[redacted]", 2], n: 5 }));
    expect((original as unknown as { payload: { text: string } }).payload.text).toBe(`key ${secret}`);
  });

  it("hands an event with nothing to hide over as it is (no copy)", () => {
    const one = recorder("one");
    const original = event({ text: "plain" });
    new OutputPipeline(new Redactor(["a-secret-value"]), [one], () => {}).event(original);
    expect(one.seen[0]).toBe(original);
  });

  it("a sink that throws is one warning line naming it; the other sinks get every event and their end", async () => {
    const warnings: string[] = [];
    const first = recorder("stdout");
    const broken = recorder("--report", "end");
    const failing = recorder("OTLP export", "event");
    const last = recorder("--summary");
    const pipeline = new OutputPipeline(new Redactor([]), [first, broken, failing, last], (line) =>
      warnings.push(line),
    );
    pipeline.event(event({ text: "a" }));
    pipeline.event(event({ text: "b" }));
    await pipeline.end();
    expect(first.seen).toHaveLength(2);
    expect(last.seen).toHaveLength(2);
    expect(first.ended && last.ended).toBe(true);
    expect(warnings).toEqual([
      "agentstream: OTLP export failed: boom at event; the run itself is not affected\n",
      "agentstream: --report failed: Maximum call stack size exceeded; the run itself is not affected\n",
    ]);
  });
});
