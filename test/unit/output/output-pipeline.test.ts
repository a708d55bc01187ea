// The output pipeline: every event redacted once, as an object, then handed to
// each sink; a sink that fails is said once by name and dropped, the others go on.
import { describe, expect, it } from "vitest";
import type { CanonicalEvent } from "../../../src/canonical/events.js";
import { serializeEvent } from "../../../src/canonical/serialize.js";
import { Redactor } from "../../../src/core/redactor.js";
import { OutputPipeline } from "../../../src/output/pipeline.js";
import type { Sink } from "../../../src/output/sink.js";

const event = (payload: Record<string, unknown>) =>
  ({ v: 1, seq: 0, type: "message", payload }) as unknown as CanonicalEvent;

function recorder(
  name: string,
  fail?: "event" | "end",
): Sink & { seen: CanonicalEvent[]; lines: (string | undefined)[]; ended: boolean } {
  return {
    name,
    seen: [],
    lines: [],
    ended: false,
    event(e, line) {
      if (fail === "event") throw new Error("boom at event");
      this.seen.push(e);
      this.lines.push(line);
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

  it("hands each sink the line of an event with nothing to hide, serialized once; none for a redacted copy", () => {
    const one = recorder("one");
    const two = recorder("two");
    const pipeline = new OutputPipeline(new Redactor(["a-secret-value"]), [one, two], () => {});
    const plain = event({ text: "plain" });
    const holding = event({ text: "the a-secret-value" });
    pipeline.event(plain);
    pipeline.event(holding);
    expect(one.lines).toEqual([serializeEvent(plain), undefined]);
    expect(two.lines).toEqual(one.lines);
    expect(one.seen[1]).toEqual(event({ text: "the [redacted]" }));
  });

  it("finds every secret and token shape the walk would hide by scanning the event's JSON text", () => {
    // One scan looks for all of them at once: characters a pattern gives a meaning to are taken literally.
    const secrets = [
      'sk_live_"<&\\secret',
      "tab\there-and\u0001",
      "plain-secret-42",
      "ünïcødé-😀-secret",
      "pa$$w.rd(1)*+?[x]{2}|^/",
    ];
    const redactor = new Redactor(secrets);
    const strings = [
      ...secrets.map((s) => `before ${s} after`),
      "token sk-abcdefghijklmnopqrstu here",
      "line\nghp_abcdefghijklmnopqrstuvwxyz",
      "Bearer abcdefghijkl",
      "eyJhbGciOi.eyJzdWIiOi.sig",
      "nothing to hide here",
      "\u0001\u2028 ok",
    ];
    for (const text of strings) {
      for (const value of [{ text }, { [text]: 1 }, { list: [1, { deep: text }] }]) {
        const hides = redactor.value(value) !== value;
        // The scan may say "maybe" where the walk hides nothing; never "no" where it hides something.
        if (hides) expect(redactor.mayHide(JSON.stringify(value)), text).toBe(true);
      }
    }
    expect(redactor.mayHide(JSON.stringify({ text: "nothing to hide here" }))).toBe(false);
    // A secret with a lone surrogate may not show in JSON text as it is in a string: every value is walked.
    expect(new Redactor(["abc\ud800def"]).mayHide("{}")).toBe(true);
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
