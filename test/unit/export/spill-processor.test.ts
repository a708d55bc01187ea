// The span processor that spills a burst to a temporary file reads it back
// line by line: a long span (an attribute of a tool's whole output, with
// --otlp-content) comes back whole, its characters intact where a read of the
// file ends inside one; and its file is removed however the process ends (src/core/temp-files.ts, as the
// ATIF step spill's: test/unit/export/atif/step-spill.test.ts).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
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

describe("the span spill's file, however the process ends", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "agentstream-span-spill-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * A process whose spans wait in the spill file (its exporter never answers), which says the files in its
   * temporary folder and then exits (`exit`) or is sent the signal. How it ended, what it said, what is left.
   */
  async function spilling(end: "exit" | NodeJS.Signals) {
    const processor = fileURLToPath(new URL("../../../dist/export/spill-processor.js", import.meta.url));
    const script = `const { readdirSync } = await import("node:fs");
      const { SpillingSpanProcessor } = await import(${JSON.stringify(processor)});
      const never = { export: () => {}, shutdown: async () => {} };
      const processor = new SpillingSpanProcessor(never, { memorySpans: 1, batchSize: 100, delayMs: 60000 });
      const context = { traceId: "${"0".repeat(31)}1", spanId: "${"0".repeat(15)}1", traceFlags: 1 };
      for (const name of ["kept", "spilled", "spilled too"])
        processor.onEnd({ name, kind: 0, spanContext: () => context, startTime: [1, 0], endTime: [2, 0],
          duration: [1, 0], status: { code: 0 }, attributes: {}, links: [], events: [], ended: true, resource: {},
          instrumentationScope: { name: "test" }, droppedAttributesCount: 0, droppedEventsCount: 0,
          droppedLinksCount: 0 });
      console.log(readdirSync(process.env.TMPDIR).join(","));
      ${end === "exit" ? "process.exit(0);" : "setInterval(() => {}, 1000);"}`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      env: { ...process.env, TMPDIR: dir },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let said = "";
    child.stdout.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      if (end !== "exit" && said.endsWith("\n")) child.kill(end);
    });
    const [code, signal] = (await once(child, "close")) as [number | null, NodeJS.Signals | null];
    return { code, signal, said, left: readdirSync(dir) };
  }

  it.each(["SIGINT", "SIGTERM"] as const)(
    "a process %s kills while spans wait in the file dies of it as before, the file removed (before: left)",
    async (signal) => {
      const ended = await spilling(signal);
      expect(ended.said).toMatch(/^agentstream-spans-\d+-[0-9a-f]+\.jsonl\n$/);
      expect([ended.code, ended.signal, ended.left]).toEqual([null, signal, []]);
    },
  );

  it("a process that exits while spans wait in the file leaves no file (before: left)", async () => {
    const ended = await spilling("exit");
    expect(ended.said).toMatch(/^agentstream-spans-\d+-[0-9a-f]+\.jsonl\n$/);
    expect([ended.code, ended.left]).toEqual([0, []]);
  });
});
