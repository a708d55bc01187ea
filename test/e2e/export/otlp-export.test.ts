// OTLP export (issue 15) against a real OpenTelemetry Collector on loopback:
// the built CLI exports, the collector writes what it received, and the spans
// it wrote are checked against the canonical stream they came from.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CanonicalEvent } from "../../../src/canonical/events.js";
import { run } from "../../../src/lib/run.js";
import { BIN, parseJsonl, runCli } from "../../helpers/cli.js";
import { HAS_TMUX, sh, Terminal } from "../../helpers/terminal.js";
import {
  EXAMPLES,
  exampleStreams,
  expectTraceOf,
  goldenStreams,
  readEvents,
  statusOf,
} from "../../helpers/otlp-spans.js";
import {
  closedPort,
  collectorBinary,
  slowProxy,
  startCollector,
  type CollectedSpan,
  type Collector,
} from "../../helpers/otel-collector.js";

const STAND_IN = fileURLToPath(new URL("../../fixtures/backends/stand-in.mjs", import.meta.url));
const TRANSCRIPT = fileURLToPath(new URL("../../fixtures/backends/transcripts/evosci-success.jsonl", import.meta.url));
const PI_NATIVE = `${EXAMPLES}pi/tool.native.jsonl`;
const dir = mkdtempSync(join(tmpdir(), "agentstream-otlp-"));

// The stand-in backend replays an EvoScientist transcript; no model is called.
const standInRun = (extra: string[], env: NodeJS.ProcessEnv = {}) =>
  runCli(["run", "--backend", "evosci", "--bin", STAND_IN, ...extra, "--", "Summarize data/results.csv"], {
    env: { STANDIN_TRANSCRIPT: TRANSCRIPT, ...env },
  });

const byTrace = (spans: CollectedSpan[], traceId: string) => spans.filter((s) => s.traceId === traceId);
const rootOf = (spans: CollectedSpan[]) => spans.find((s) => s.parentSpanId === undefined)!;
/** The traces whose root says this run id. */
const traceOfRun = (spans: CollectedSpan[], runId: string) => {
  const roots = spans.filter((s) => s.parentSpanId === undefined && s.attributes["agentstream.run_id"] === runId);
  expect(roots).toHaveLength(1);
  return byTrace(spans, roots[0]!.traceId);
};
const types = (events: Record<string, unknown>[]) => events.map((e) => e.type);
/** A run's trace is whole once its root span (ended last) has arrived. */
const hasRun = (runId: string) => (spans: CollectedSpan[]) =>
  spans.some((s) => s.parentSpanId === undefined && s.attributes["agentstream.run_id"] === runId);

describe.skipIf(!collectorBinary())("OTLP export to a real collector", () => {
  let collector: Collector;
  beforeAll(async () => {
    collector = await startCollector();
  });
  afterAll(async () => {
    await collector?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("export otlp: every backend's example stream, in one process, becomes one trace each, with its original timing", async () => {
    const streams = exampleStreams();
    const result = await runCli(["export", "otlp", "--endpoint", collector.endpoint, ...streams.map((s) => s.path)], {
      env: { OTEL_SERVICE_NAME: undefined, OTEL_RESOURCE_ATTRIBUTES: undefined },
    });
    expect(result.stdout).toBe("");
    expect(result.code).toBe(0);
    const lines = result.stderr.trim().split("\n");
    expect(lines.at(-1)).toBe(
      `agentstream: ${streams.length} of ${streams.length} runs exported to ${collector.tracesUrl} (${/\((\d+) spans\)/.exec(lines.at(-1)!)![1]} spans) · exit 0`,
    );
    const traceIds = streams.map((stream) => {
      const line = lines.find((l) => l.startsWith(`agentstream: ${stream.path}: sent `));
      expect(line, stream.name).toBeDefined();
      return /trace ([0-9a-f]{32})/.exec(line!)![1]!;
    });
    expect(new Set(traceIds).size).toBe(streams.length);
    const all = await collector.waitForSpans((spans) =>
      traceIds.every((id) => spans.some((s) => s.traceId === id && s.parentSpanId === undefined)),
    );
    streams.forEach((stream, i) => {
      const spans = byTrace(all, traceIds[i]!);
      expectTraceOf(readEvents(stream.path), spans, { content: false });
      const root = rootOf(spans);
      expect(root.kind).toBe("internal");
      expect(root.resource["service.name"]).toBe("agentstream");
      expect(root.scope.name).toBe("agentstream");
      for (const chat of spans.filter((s) => s.attributes["gen_ai.operation.name"] === "chat"))
        expect(chat.kind).toBe("client");
    });
    // The recorded clock: the examples start at 2026-01-01T00:00:00.000Z.
    expect(rootOf(byTrace(all, traceIds[0]!)).startTimeUnixNano).toBe(
      BigInt(Date.parse("2026-01-01T00:00:00.001Z")) * 1_000_000n,
    );
  });

  it("export otlp: the golden streams (retries, compaction, errors, paused sub-agents, every backend) through the collector", async () => {
    const streams = goldenStreams();
    const result = await runCli(["export", "otlp", "--endpoint", collector.endpoint, ...streams.map((s) => s.path)]);
    expect(result.code).toBe(0);
    const lines = result.stderr.trim().split("\n");
    const traceIds = streams.map(
      (stream) =>
        /^agentstream: .*: sent \d+ spans, trace ([0-9a-f]{32})/.exec(
          lines.find((l) => l.startsWith(`agentstream: ${stream.path}: `))!,
        )![1]!,
    );
    const all = await collector.waitForSpans((spans) =>
      traceIds.every((id) => spans.some((s) => s.traceId === id && s.parentSpanId === undefined)),
    );
    for (const [i, stream] of streams.entries()) {
      expectTraceOf(readEvents(stream.path), byTrace(all, traceIds[i]!), { content: false });
    }
    // Span events made it through OTLP with their attributes.
    const retries = all.flatMap((s) => s.events).filter((e) => e.name === "retry.started");
    expect(retries.length).toBeGreaterThan(0);
    expect(retries[0]!.attributes).toHaveProperty("agentstream.retry.attempt");
  });

  it("normalize --otlp: stdout stays the canonical stream, and the trace matches it", async () => {
    const plain = await runCli(["normalize", "--from", "pi", "--backend-exit", "0", PI_NATIVE]);
    const result = await runCli([
      "normalize",
      "--from",
      "pi",
      "--backend-exit",
      "0",
      "--otlp-content",
      PI_NATIVE,
      "--otlp",
      collector.endpoint,
    ]);
    expect(result.code).toBe(plain.code);
    expect(result.stderr).toBe(plain.stderr);
    const events = parseJsonl(result.stdout) as unknown as CanonicalEvent[];
    expect(types(events as never)).toEqual(types(parseJsonl(plain.stdout)));
    const spans = traceOfRun(await collector.waitForSpans(hasRun(events[0]!.run_id)), events[0]!.run_id);
    expectTraceOf(events, spans, { content: true });
    expect(spans.find((s) => s.name === "execute_tool bash")!.attributes["gen_ai.tool.call.result"]).toBe(
      "a.txt\nb.txt\n",
    );
  });

  it("run --otlp with a stand-in backend: the live run's trace, exit code and stdout as without --otlp", async () => {
    const plain = await standInRun([]);
    const result = await standInRun(["--otlp", collector.endpoint]);
    expect(result.code).toBe(plain.code);
    expect(result.code).toBe(0);
    const events = parseJsonl(result.stdout) as unknown as CanonicalEvent[];
    expect(types(events as never)).toEqual(types(parseJsonl(plain.stdout)));
    const runId = events[0]!.run_id;
    const spans = traceOfRun(await collector.waitForSpans(hasRun(runId)), runId);
    expectTraceOf(events, spans, { content: false });
    const root = rootOf(spans);
    expect(root.attributes["agentstream.run.mode"]).toBe("run");
    // The prompt is in run.started.command; without --otlp-content it stays out of the trace.
    expect(
      JSON.stringify(spans, (_key, value: unknown) => (typeof value === "bigint" ? String(value) : value)),
    ).not.toContain("Summarize data/results.csv");
    // With --otlp-content it is there (redacted as in run.started.command).
    const withContent = await standInRun(["--otlp", collector.endpoint, "--otlp-content"]);
    const contentRunId = (parseJsonl(withContent.stdout)[0] as { run_id: string }).run_id;
    const contentRoot = rootOf(traceOfRun(await collector.waitForSpans(hasRun(contentRunId)), contentRunId));
    expect(contentRoot.attributes["agentstream.run.command"]).toContain("Summarize data/results.csv");
  });

  it("run --otlp stopped by SIGINT: exit 130 as without --otlp, and the trace says cancelled", async () => {
    // The transcript without its done line: the run is still going when the signal comes.
    const unfinished = join(dir, "unfinished.jsonl");
    writeFileSync(
      unfinished,
      readFileSync(TRANSCRIPT, "utf8")
        .split("\n")
        .filter((line) => line !== "" && !line.includes('"done"'))
        .map((line) => `${line}\n`)
        .join(""),
    );
    const child = spawn(
      process.execPath,
      [BIN, "run", "--backend", "evosci", "--bin", STAND_IN, "--otlp", collector.endpoint, "--", "hang on"],
      {
        env: { ...process.env, NO_COLOR: "1", STANDIN_TRANSCRIPT: unfinished, STANDIN_END: "hang" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let signalled = false;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      // The transcript is out (its done line is translated): the backend now hangs.
      if (!signalled && stdout.includes('"type":"tool.completed"')) {
        signalled = true;
        child.kill("SIGINT");
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(130);
    const events = parseJsonl(stdout) as unknown as CanonicalEvent[];
    const runId = events[0]!.run_id;
    const spans = traceOfRun(await collector.waitForSpans(hasRun(runId)), runId);
    expectTraceOf(events, spans, { content: false });
    const root = rootOf(spans);
    expect(root.attributes["agentstream.run.status"]).toBe("cancelled");
    expect(root.attributes["error.type"]).toBe("cancelled");
    expect(root.attributes["agentstream.run.exit_code"]).toBe(130);
    expect(statusOf(root)).toBe("error");
  });

  it("the library's run({ otlp }) exports the same trace", async () => {
    const events: CanonicalEvent[] = [];
    const env = { ...process.env, STANDIN_TRANSCRIPT: TRANSCRIPT };
    for await (const event of run({
      backend: "evosci",
      bin: STAND_IN,
      prompt: "Summarize",
      env,
      otlp: { endpoint: collector.endpoint },
    }))
      events.push(event);
    const runId = events[0]!.run_id;
    expectTraceOf(events, traceOfRun(await collector.waitForSpans(hasRun(runId)), runId), { content: false });
  });

  it("OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES work as with any SDK", async () => {
    const result = await runCli(["normalize", "--from", "pi", "--backend-exit", "0", PI_NATIVE, "--otlp"], {
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
        OTEL_SERVICE_NAME: "ci-fleet",
        OTEL_RESOURCE_ATTRIBUTES: "deployment.environment.name=ci,team=agents",
      },
    });
    expect(result.code).toBe(0);
    const runId = (parseJsonl(result.stdout)[0] as { run_id: string }).run_id;
    const root = rootOf(traceOfRun(await collector.waitForSpans(hasRun(runId)), runId));
    expect(root.resource).toMatchObject({
      "service.name": "ci-fleet",
      "deployment.environment.name": "ci",
      team: "agents",
      "service.version": expect.any(String),
    });
  });

  it("a slow collector: the spans arrive, the run is unaffected, nothing is said", async () => {
    const proxy = await slowProxy(collector.endpoint, 1500);
    try {
      const result = await standInRun(["--otlp", proxy.endpoint]);
      expect(result.code).toBe(0);
      expect(result.stderr).not.toContain("OTLP");
      const runId = (parseJsonl(result.stdout)[0] as { run_id: string }).run_id;
      expectTraceOf(
        parseJsonl(result.stdout) as never,
        traceOfRun(await collector.waitForSpans(hasRun(runId)), runId),
        { content: false },
      );
    } finally {
      await proxy.close();
    }
  });

  it("a collector that never answers: one warning line after the export timeout, exit code and stdout unchanged", async () => {
    const proxy = await slowProxy(collector.endpoint, Infinity);
    try {
      const plain = await standInRun([]);
      const result = await standInRun(["--otlp", proxy.endpoint], { OTEL_EXPORTER_OTLP_TIMEOUT: "1000" });
      expect(result.code).toBe(plain.code);
      expect(types(parseJsonl(result.stdout))).toEqual(types(parseJsonl(plain.stdout)));
      const warnings = result.stderr.split("\n").filter((l) => l.includes("OTLP"));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        new RegExp(
          `^agentstream: OTLP export to ${proxy.endpoint}/v1/traces failed: .*timed out.* \\(\\d+ of \\d+ spans not sent\\); the run itself is not affected$`,
        ),
      );
    } finally {
      await proxy.close();
    }
  });

  it("collector down: one clear warning line, the run unaffected, the exit code unchanged", async () => {
    const down = await closedPort();
    for (const transcript of [
      TRANSCRIPT,
      fileURLToPath(new URL("../../fixtures/backends/transcripts/evosci-error-529.jsonl", import.meta.url)),
    ]) {
      const env = { STANDIN_TRANSCRIPT: transcript, OTEL_EXPORTER_OTLP_TIMEOUT: "1000" };
      const plain = await standInRun([], env);
      const result = await standInRun([`--otlp=${down}`], env);
      expect(result.code).toBe(plain.code);
      expect(types(parseJsonl(result.stdout))).toEqual(types(parseJsonl(plain.stdout)));
      const warnings = result.stderr.split("\n").filter((l) => l.includes("OTLP"));
      expect(warnings).toEqual([
        expect.stringMatching(
          new RegExp(
            `^agentstream: OTLP export to ${down}/v1/traces failed: connect ECONNREFUSED .* \\((\\d+) of \\1 spans not sent\\); the run itself is not affected$`,
          ),
        ),
      ]);
    }
  });

  it("export otlp says per file what was not sent: exit 75 when the collector is down, 1 for a file that is no canonical stream", async () => {
    const down = await closedPort();
    const pi = `${EXAMPLES}pi/tool.canonical.jsonl`;
    const refused = await runCli(["export", "otlp", "--endpoint", down, pi, `${EXAMPLES}gemini/tool.canonical.jsonl`], {
      env: { OTEL_EXPORTER_OTLP_TIMEOUT: "1000" },
    });
    expect(refused.code).toBe(75);
    const lines = refused.stderr.trim().split("\n");
    expect(lines[0]).toMatch(new RegExp(`^agentstream: ${pi}: not sent: connect ECONNREFUSED`));
    expect(lines[1]).toMatch(/gemini\/tool\.canonical\.jsonl: not sent: /);
    expect(lines[2]).toBe(
      `agentstream: 0 of 2 runs exported to ${down}/v1/traces (0 spans) · 2 not sent (is a collector listening there? name yours with --endpoint URL or OTEL_EXPORTER_OTLP_ENDPOINT) · exit 75`,
    );

    const native = await runCli([
      "export",
      "otlp",
      "--endpoint",
      collector.endpoint,
      pi,
      PI_NATIVE,
      join(dir, "missing.jsonl"),
    ]);
    expect(native.code).toBe(1);
    const said = native.stderr.trim().split("\n");
    expect(said[0]).toMatch(/: sent 4 spans, trace [0-9a-f]{32} \(run succeeded\)$/);
    expect(said[1]).toBe(
      `agentstream: ${PI_NATIVE}: not exported: no run.started: not a canonical stream (normalize a native stream first)`,
    );
    expect(said[2]).toBe(
      `agentstream: ${join(dir, "missing.jsonl")}: not exported: cannot read ${join(dir, "missing.jsonl")}: no such file`,
    );
    expect(said[3]).toMatch(/^agentstream: 1 of 3 runs exported to .* · 2 unreadable · exit 1$/);
  });

  it.skipIf(!HAS_TMUX)(
    "export otlp on a terminal: a progress bar on stderr while it works, gone once the per-file lines are written",
    async () => {
      const proxy = await slowProxy(collector.endpoint, 2000);
      const files = ["pi/tool", "atomic/tools", "codex/tool"].map((name) => `${EXAMPLES}${name}.canonical.jsonl`);
      const terminal = new Terminal(
        dir,
        `NO_COLOR=1 ${sh(process.execPath)} ${sh(BIN)} export otlp --endpoint ${proxy.endpoint} ${files.map(sh).join(" ")} > ${sh(join(dir, "tty-stdout"))}`,
        { width: 200 },
      );
      try {
        await terminal.waitForScreen(
          (screen) => /exporting .* 3\/3 files · \d+ spans/.test(screen),
          "the progress bar at 3/3",
        );
        expect(await terminal.exited()).toBe(0);
        const screen = terminal.screen();
        expect(screen).not.toContain("exporting");
        for (const file of files) expect(screen).toContain(`agentstream: ${file}: sent `);
        expect(readFileSync(join(dir, "tty-stdout"), "utf8")).toBe("");
      } finally {
        terminal.close();
        await proxy.close();
      }
    },
  );

  it("export otlp of 1,000 recorded runs in one process: 1,000 whole traces", async () => {
    const template = readFileSync(`${EXAMPLES}pi/tool.canonical.jsonl`, "utf8");
    const files: string[] = [];
    const runIds = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const runId = randomUUID();
      runIds.add(runId);
      const file = join(dir, `run-${i}.jsonl`);
      writeFileSync(file, template.replaceAll('"run_id":"run-test"', `"run_id":"${runId}"`));
      files.push(file);
    }
    const result = await runCli(["export", "otlp", "--endpoint", collector.endpoint, ...files]);
    expect(result.code).toBe(0);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1001);
    expect(lines.at(-1)).toBe(
      `agentstream: 1000 of 1000 runs exported to ${collector.tracesUrl} (4000 spans) · exit 0`,
    );
    const spans = await collector.waitForSpans(
      (all) =>
        all.filter((s) => s.parentSpanId === undefined && runIds.has(String(s.attributes["agentstream.run_id"])))
          .length === 1000,
    );
    const ourTraces = new Set(
      spans
        .filter((s) => s.parentSpanId === undefined && runIds.has(String(s.attributes["agentstream.run_id"])))
        .map((s) => s.traceId),
    );
    const ours = spans.filter((s) => ourTraces.has(s.traceId));
    expect(ours).toHaveLength(4000);
    expect(new Set(ours.map((s) => s.traceId)).size).toBe(1000);
    const one = byTrace(ours, ours[0]!.traceId);
    expectTraceOf(
      readEvents(`${EXAMPLES}pi/tool.canonical.jsonl`).map((e) => ({
        ...e,
        run_id: rootOf(one).attributes["agentstream.run_id"] as string,
      })),
      one,
      { content: false },
    );
    expect(statusOf(rootOf(one))).toBe("unset");
  });
});
