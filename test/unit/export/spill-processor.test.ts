// The span processor that spills a burst to a temporary file reads it back
// line by line: a long span (an attribute of a tool's whole output, with
// --otlp-content) comes back whole, its characters intact where a read of the
// file ends inside one.
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { SpillingSpanProcessor } from "../../../src/export/spill-processor.js";

function span(name: string, attributes: Record<string, string>): ReadableSpan {
  const context = { traceId: `${"0".repeat(31)}1`, spanId: `${"0".repeat(15)}1`, traceFlags: 1 };
  return {
    name,
    kind: 0,
    spanContext: () => context,
    startTime: [1, 0],
    endTime: [2, 0],
    duration: [1, 0],
    status: { code: 0 },
    attributes,
    links: [],
    events: [],
    ended: true,
    resource: {} as ReadableSpan["resource"],
    instrumentationScope: { name: "test" },
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

describe("SpillingSpanProcessor", () => {
  it("a span line of 1.2 MB of 3-byte characters (longer than four reads) comes back as it went in", async () => {
    const exported: ReadableSpan[] = [];
    const exporter: SpanExporter = {
      export: (spans, done) => {
        exported.push(...spans);
        done({ code: 0 });
      },
      shutdown: async () => {},
    };
    // One span kept in memory: the rest go to the file.
    const processor = new SpillingSpanProcessor(exporter, { memorySpans: 1, batchSize: 10, delayMs: 1 });
    const output = "€".repeat(400_000);
    const spans = [span("first", {}), span("long", { output }), span("after", { n: "é" }), span("last", {})];
    for (const s of spans) processor.onEnd(s);
    await processor.shutdown();
    expect(exported.map((s) => s.name)).toEqual(["first", "long", "after", "last"]);
    expect(exported[1]!.attributes.output === output).toBe(true);
    expect(exported[2]!.attributes).toEqual({ n: "é" });
  });
});
