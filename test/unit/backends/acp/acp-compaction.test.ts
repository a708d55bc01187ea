// ACP's compaction updates as the canonical compaction events (src/backends/acp/compaction.ts).
import { describe, expect, it } from "vitest";
import { AcpCompactions } from "../../../../src/backends/acp/compaction.js";

const text = (t: string) => ({ type: "text", text: t });

describe("AcpCompactions", () => {
  it("starts an id once, ends it once: cancelled is aborted, a summary replaced whole or cleared by null", () => {
    const c = new AcpCompactions();
    const types = (d: ReturnType<AcpCompactions["update"]>) => d?.map((x) => [x.type, x.payload]);
    expect(types(c.update("compaction_update", { compactionId: "a", status: "in_progress" }, "n"))).toEqual([
      ["compaction.started", {}],
    ]);
    expect(
      types(c.update("compaction_update", { compactionId: "a", status: "in_progress", summary: [text("x")] }, "n")),
    ).toEqual([]);
    expect(
      types(c.update("compaction_update", { compactionId: "a", status: "cancelled", summary: null }, "n")),
    ).toEqual([["compaction.completed", { aborted: true }]]);
    // A patch after the end, and an id or status this version cannot read: kept whole by the caller.
    expect(c.update("compaction_update", { compactionId: "a", status: "completed" }, "n")).toBeUndefined();
    expect(c.update("compaction_update", { status: "completed" }, "n")).toBeUndefined();
    c.update("compaction_update", { compactionId: "b", status: "in_progress" }, "n");
    expect(c.update("compaction_update", { compactionId: "b", status: "_paused" }, "n")).toBeUndefined();
  });

  it("first seen ended: started and completed at once; a failure without words still says it failed", () => {
    const c = new AcpCompactions();
    const out = c.update("compaction_update", { compactionId: "z", status: "failed" }, "n");
    expect(out?.map((d) => [d.type, d.payload])).toEqual([
      ["compaction.started", {}],
      ["compaction.completed", { error: "the compaction failed" }],
    ]);
  });

  it("keeps a summary told in chunks to 64 KiB", () => {
    const c = new AcpCompactions();
    const big = "y".repeat(40 * 1024);
    c.update("compaction_summary_chunk", { compactionId: "s", content: text(big) }, "n");
    c.update("compaction_summary_chunk", { compactionId: "s", content: text(big) }, "n");
    const [done] = c.update("compaction_update", { compactionId: "s", status: "completed" }, "n")!;
    const summary = (done!.payload as { summary: string }).summary;
    expect(summary.length).toBeLessThanOrEqual(64 * 1024);
    expect(summary.length).toBeGreaterThan(60 * 1024);
  });
});
