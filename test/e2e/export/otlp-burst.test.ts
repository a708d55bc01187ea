// A live run whose backend bursts 30,000 tool calls as fast as it can write:
// every span reaches a real collector (none dropped), stdout is the whole
// canonical stream, and nothing is left in the temporary folder. Spans the
// exporter cannot send yet wait in a temporary file, not in memory.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseJsonl, runCli } from "../../helpers/cli.js";
import { STAND_IN } from "../../helpers/stand-in.js";
import { collectorBinary, startCollector, type Collector } from "../../helpers/otel-collector.js";

const CALLS = 30_000;

describe.skipIf(!collectorBinary())("run --otlp under a burst of tool calls", () => {
  let collector: Collector;
  const dir = mkdtempSync(join(tmpdir(), "agentstream-burst-"));
  const spillDir = mkdtempSync(join(tmpdir(), "agentstream-burst-tmp-"));
  beforeAll(async () => {
    collector = await startCollector();
  });
  afterAll(async () => {
    await collector?.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(spillDir, { recursive: true, force: true });
  });

  it(`delivers every one of ${CALLS} tool spans; stdout and the exit code as without --otlp`, async () => {
    const transcript = join(dir, "burst.jsonl");
    const lines: string[] = [];
    for (let i = 0; i < CALLS; i++) {
      lines.push(JSON.stringify({ type: "tool_call", name: "ls", args: { path: `/d/${i}` }, id: `t${i}` }));
      lines.push(JSON.stringify({ type: "tool_result", name: "ls", content: "ok", success: true, id: `t${i}` }));
    }
    lines.push(JSON.stringify({ type: "done", response: "burst done" }));
    writeFileSync(transcript, `${lines.join("\n")}\n`);
    const result = await runCli(
      ["run", "--backend", "evosci", "--bin", STAND_IN, "--otlp", collector.endpoint, "--", "burst"],
      { env: { STANDIN_TRANSCRIPT: transcript, TMPDIR: spillDir } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain("OTLP export");
    const events = parseJsonl(result.stdout);
    expect(events.filter((e) => e.type === "tool.completed")).toHaveLength(CALLS);
    const runId = events[0]!.run_id as string;
    const spans = await collector.waitForSpans(
      (all) => all.some((s) => s.parentSpanId === undefined && s.attributes["agentstream.run_id"] === runId),
      120_000,
    );
    const root = spans.find((s) => s.parentSpanId === undefined && s.attributes["agentstream.run_id"] === runId)!;
    const tools = spans.filter((s) => s.traceId === root.traceId && s.name === "execute_tool ls");
    expect(tools).toHaveLength(CALLS);
    expect(new Set(tools.map((s) => s.spanId)).size).toBe(CALLS);
    // The spill file is gone once everything is sent.
    expect(readdirSync(spillDir)).toEqual([]);
  });
});
