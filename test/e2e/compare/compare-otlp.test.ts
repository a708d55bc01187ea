// agentstream compare --otlp (and the library's compare() with otlp), exported to a real OpenTelemetry
// Collector: the compare is one trace, its span (agentstream.compare) the root, each cell's run under it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compare } from "../../../src/index.js";
import { runCli } from "../../helpers/cli.js";
import { agents, COMPARE_AGENT, rowsOf, scratchRepo } from "../../helpers/compare.js";
import { collectorBinary, startCollector, type CollectedSpan, type Collector } from "../../helpers/otel-collector.js";
import { Scratch } from "../../helpers/stand-in.js";

const scratch = new Scratch();

/** The compare's span and, for each of its cells' runs, that run's root span (invoke_agent), from one trace. */
function oneTrace(spans: CollectedSpan[], runs: number): { compare: CollectedSpan; runRoots: CollectedSpan[] } {
  // One trace: every span the compare exported shares the compare span's trace id.
  expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
  const roots = spans.filter((span) => span.parentSpanId === undefined);
  expect(roots.map((span) => span.name)).toEqual(["agentstream.compare"]);
  const compare = roots[0]!;
  const runRoots = spans.filter((span) => span.name.startsWith("invoke_agent") && span.parentSpanId === compare.spanId);
  expect(runRoots).toHaveLength(runs);
  // Every other span hangs, through its parents, under one of those runs.
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  for (const span of spans) {
    let at = span;
    while (at.parentSpanId !== undefined && at.parentSpanId !== compare.spanId) at = byId.get(at.parentSpanId)!;
    expect(at === compare || runRoots.includes(at), span.name).toBe(true);
  }
  // The compare's span spans its runs.
  for (const run of runRoots) {
    expect(run.startTimeUnixNano >= compare.startTimeUnixNano).toBe(true);
    expect(run.endTimeUnixNano <= compare.endTimeUnixNano).toBe(true);
  }
  return { compare, runRoots };
}

/** The compare's span has come, and as many runs' root spans (its own, or on old code each a trace's root). */
function complete(spans: CollectedSpan[], runs: number): boolean {
  return (
    spans.some((span) => span.name === "agentstream.compare") &&
    spans.filter((span) => span.name.startsWith("invoke_agent")).length >= runs
  );
}

describe.skipIf(!collectorBinary())("compare --otlp: one trace", () => {
  let collector: Collector;
  beforeAll(async () => {
    collector = await startCollector();
  });
  afterAll(async () => {
    await collector?.stop();
    scratch.remove();
  });

  it("the CLI: the compare's span is the root, each cell's run its child, the outcome on it", {
    timeout: 60_000,
  }, async () => {
    const repo = scratchRepo(scratch.path("repo"));
    const result = await runCli(
      [
        "compare",
        ...agents("m1", "m2", "m3-fail"),
        "--out",
        join(scratch.dir, "cli-out"),
        "--otlp",
        collector.endpoint,
        "go",
      ],
      { cwd: repo },
    );
    expect(result.code, result.stderr).toBe(1);
    const rows = rowsOf(result.stdout);
    expect(rows).toHaveLength(3);
    const spans = await collector.waitForSpans((all) => complete(all, 3), 15_000);
    const { compare, runRoots } = oneTrace(spans, 3);
    expect(compare.attributes).toMatchObject({
      "agentstream.compare.cells": 3,
      "agentstream.compare.agents": ["claude:m1", "claude:m2", "claude:m3-fail"],
      "agentstream.compare.exit_code": 1,
      "agentstream.compare.passed": 2,
      "agentstream.compare.failed": 1,
      "agentstream.compare.resumed": 0,
    });
    expect(compare.attributes).not.toHaveProperty("agentstream.compare.shard");
    expect(compare.status).toEqual({ code: 2, message: "1 of 3 cell(s) did not pass" });
    expect(compare.resource["service.name"]).toBe("agentstream");
    // Each cell's run, by its run id: the one its stream holds.
    expect(runRoots.map((span) => span.attributes["agentstream.run_id"]).sort()).toEqual(
      rows
        .map((row) => {
          const stream = readFileSync(join(scratch.dir, "cli-out", row.paths.stream!), "utf8");
          return (JSON.parse(stream.split("\n")[0]!) as { run_id: string }).run_id;
        })
        .sort(),
    );
  });

  it("the library's compare() with otlp, a shard: the same one trace, the shard on the compare's span", {
    timeout: 60_000,
  }, async () => {
    const repo = scratchRepo(scratch.path("lib-repo"));
    const before = new Set((await collector.spans()).map((span) => span.traceId));
    const run = compare({
      agents: [
        { backend: "claude", model: "a1", bin: COMPARE_AGENT },
        { backend: "claude", model: "a2", bin: COMPARE_AGENT },
        { backend: "claude", model: "a3", bin: COMPARE_AGENT },
        { backend: "claude", model: "a4", bin: COMPARE_AGENT },
      ],
      prompt: "go",
      cwd: repo,
      out: join(scratch.dir, "lib-out"),
      shard: { index: 1, total: 2 },
      otlp: { endpoint: collector.endpoint },
    });
    let cells = 0;
    for await (const row of run) if (row.passed) cells++;
    expect(cells).toBe(2);
    const isMine = (span: CollectedSpan): boolean => !before.has(span.traceId);
    const spans = (await collector.waitForSpans((all) => complete(all.filter(isMine), 2), 15_000)).filter(isMine);
    const { compare: span } = oneTrace(spans, 2);
    expect(span.attributes).toMatchObject({
      "agentstream.compare.cells": 2,
      "agentstream.compare.agents": ["claude:a1", "claude:a3"],
      "agentstream.compare.shard": "1/2",
      "agentstream.compare.exit_code": 0,
      "agentstream.compare.passed": 2,
      "agentstream.compare.failed": 0,
    });
    expect(span.status.code).toBe(0);
  });
});
