// The mapping from canonical events to spans, through the real SDK with its
// in-memory exporter (the collector tests check the same over OTLP).
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import type { CanonicalEvent } from "../../../src/canonical/events.js";
import { exportWarning, OtlpExport, tracesUrl } from "../../../src/export/otlp.js";
import {
  CONTENT_ATTRIBUTES,
  EXAMPLES,
  exampleStreams,
  expectTraceOf,
  fromReadable,
  goldenStreams,
  readEvents,
  statusOf,
  type FlatSpan,
} from "../../helpers/otlp-spans.js";

async function exportEvents(
  events: CanonicalEvent[],
  options: { content?: boolean; env?: NodeJS.ProcessEnv; finish?: boolean } = {},
): Promise<FlatSpan[]> {
  const memory = new InMemorySpanExporter();
  const otlp = new OtlpExport({
    content: options.content ?? false,
    version: "9.9.9",
    exporter: memory,
    env: options.env ?? {},
  });
  const { trace, counts } = otlp.run();
  for (const event of events) trace.event(event);
  if (options.finish === false) trace.abandon("cut");
  await otlp.drained();
  const spans = memory.getFinishedSpans().map(fromReadable);
  const report = await otlp.close();
  expect(report.notSent).toBe(0);
  expect(counts.sent).toBe(spans.length);
  return spans;
}

describe("canonical stream → spans (SDK in-memory exporter)", () => {
  it("there are example streams of every backend", () => {
    expect(new Set(exampleStreams().map((s) => s.name.split("/")[0])).size).toBeGreaterThanOrEqual(6);
  });

  for (const { name, path } of exampleStreams()) {
    it(`${name}: tree, names, attributes, times, status`, async () => {
      const events = readEvents(path);
      expectTraceOf(events, await exportEvents(events), { content: false });
    });
    it(`${name}: with --otlp-content, prompts and outputs are there`, async () => {
      const events = readEvents(path);
      const spans = await exportEvents(events, { content: true });
      expectTraceOf(events, spans, { content: true });
      const tools = spans.filter((s) => s.attributes["gen_ai.operation.name"] === "execute_tool");
      for (const tool of tools) expect(typeof tool.attributes["gen_ai.tool.call.arguments"]).toBe("string");
    });
  }

  // The golden streams: retries, compaction, errors, paused sub-agents, cut streams, every backend.
  for (const { name, path } of goldenStreams()) {
    it(`golden ${name}: tree, names, attributes, times, status, span events`, async () => {
      const events = readEvents(path);
      expectTraceOf(events, await exportEvents(events), { content: false });
    });
  }

  it("sub-agents nest under the tool call that started them (EvoScientist's task)", async () => {
    const spans = await exportEvents(readEvents(`${EXAMPLES}evosci/research.canonical.jsonl`));
    const subagents = spans.filter((s) => s.name === "invoke_agent research-agent");
    expect(subagents).toHaveLength(2);
    for (const sub of subagents) {
      const parent = spans.find((s) => s.spanId === sub.parentSpanId)!;
      expect(parent.name).toBe("execute_tool task");
      const inside = spans.filter((s) => s.parentSpanId === sub.spanId).map((s) => s.name.split(" ")[0]);
      expect(inside).toContain("chat");
      expect(inside).toContain("execute_tool");
    }
    const failed = spans.find((s) => s.attributes["gen_ai.tool.call.id"] === "toolu_01SubSearchA")!;
    expect(statusOf(failed)).toBe("error");
    expect(failed.attributes["error.type"]).toBe("tool_error");
  });

  it("a failed run's root span carries its error; retries and errors are span events", async () => {
    const base = readEvents(`${EXAMPLES}pi/tool.canonical.jsonl`).slice(0, 3);
    const env = (seq: number, type: string, extra: object) =>
      ({
        ...base[0]!,
        seq,
        ts: `2026-01-01T00:00:00.0${10 + seq}Z`,
        elapsed_ms: 10 + seq,
        type,
        ...extra,
      }) as unknown as CanonicalEvent;
    const events = [
      ...base,
      env(4, "retry.started", {
        scope: "request",
        attempt: 1,
        max_attempts: 3,
        delay_ms: 2000,
        error: "503 overloaded",
      }),
      env(5, "compaction.started", { reason: "overflow" }),
      env(6, "compaction.completed", {
        reason: "overflow",
        tokens_before: 9000,
        tokens_after: 1000,
        summary: "secret summary",
      }),
      env(7, "error", { code: "overloaded", message: "503 overloaded", retryable: true, http_status: 503 }),
      env(8, "turn.completed", { turn: 1 }),
      env(9, "run.finished", {
        status: "failed",
        exit_code: 75,
        backend_exit: { code: 0, signal: null },
        duration_ms: 19,
        result: null,
        counts: {
          turns: 1,
          messages: 0,
          tool_calls: 0,
          tool_failures: 0,
          errors: 1,
          retries: 1,
          unknown_events: 0,
          unparsed_lines: 0,
        },
        error: { code: "overloaded", message: "503 overloaded", retryable: true },
      }),
    ];
    const spans = await exportEvents(events);
    expectTraceOf(events, spans, { content: false });
    const root = spans.find((s) => !s.parentSpanId)!;
    expect(statusOf(root)).toBe("error");
    expect(root.status?.message).toBe("503 overloaded");
    expect(root.attributes["error.type"]).toBe("overloaded");
    const turn = spans.find((s) => s.attributes["agentstream.turn"] === 1)!;
    expect(turn.events!.map((e) => e.name)).toEqual([
      "retry.started",
      "compaction.started",
      "compaction.completed",
      "error",
    ]);
    expect(turn.events![0]!.attributes).toMatchObject({
      "agentstream.retry.attempt": 1,
      "agentstream.retry.max_attempts": 3,
      "agentstream.retry.delay_ms": 2000,
    });
    expect(turn.events![2]!.attributes).not.toHaveProperty("agentstream.compaction.summary");
    expect(turn.events![3]!.attributes).toMatchObject({ "error.type": "overloaded", "http.response.status_code": 503 });
  });

  it("a stream cut before run.finished closes its open spans at its last time, marked incomplete", async () => {
    const events = readEvents(`${EXAMPLES}pi/tool.canonical.jsonl`);
    const cut = events.slice(
      0,
      events.findIndex((e) => e.type === "tool.completed"),
    );
    const spans = await exportEvents(cut, { finish: false });
    const root = spans.find((s) => !s.parentSpanId)!;
    expect(root.attributes["agentstream.stream.incomplete"]).toBe(true);
    expect(statusOf(root)).toBe("error");
    expect(spans.map((s) => s.name).sort()).toEqual(["chat fake-model", "execute_tool bash", "invoke_agent pi"]);
    const last = cut.at(-1)!;
    for (const span of spans)
      expect(BigInt(span.endTimeUnixNano as bigint)).toBe(BigInt(Date.parse(last.ts)) * 1_000_000n);
  });

  it("service.name is agentstream unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES say otherwise", async () => {
    const events = readEvents(`${EXAMPLES}pi/tool.canonical.jsonl`);
    const before = { ...process.env };
    try {
      delete process.env.OTEL_SERVICE_NAME;
      delete process.env.OTEL_RESOURCE_ATTRIBUTES;
      expect((await exportEvents(events))[0]!.resource).toMatchObject({
        "service.name": "agentstream",
        "service.version": "9.9.9",
      });
      process.env.OTEL_RESOURCE_ATTRIBUTES = "deployment.environment.name=ci,service.name=from-attributes";
      expect((await exportEvents(events))[0]!.resource).toMatchObject({
        "service.name": "from-attributes",
        "deployment.environment.name": "ci",
      });
      process.env.OTEL_SERVICE_NAME = "fleet-7";
      expect((await exportEvents(events))[0]!.resource).toMatchObject({
        "service.name": "fleet-7",
        "deployment.environment.name": "ci",
      });
    } finally {
      process.env = before;
    }
  });

  it("content attributes stay out by default", () => {
    expect(CONTENT_ATTRIBUTES).toContain("gen_ai.tool.call.result");
  });
});

describe("the traces URL", () => {
  it("follows --otlp / --endpoint, then the OTEL_EXPORTER_OTLP_* variables, then the SDK's default", () => {
    expect(tracesUrl("http://127.0.0.1:4318", {})).toBe("http://127.0.0.1:4318/v1/traces");
    expect(tracesUrl("http://127.0.0.1:4318/", {})).toBe("http://127.0.0.1:4318/v1/traces");
    expect(tracesUrl("https://otel.example.com/v1/traces", {})).toBe("https://otel.example.com/v1/traces");
    expect(tracesUrl("https://gw.example.com/otlp", {})).toBe("https://gw.example.com/otlp/v1/traces");
    expect(tracesUrl(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" })).toBe("http://c:4318/v1/traces");
    expect(
      tracesUrl(undefined, {
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://t:9/custom",
      }),
    ).toBe("http://t:9/custom");
    expect(tracesUrl(undefined, {})).toBe("http://localhost:4318/v1/traces");
  });

  it("a warning says what failed and how much was lost; none when all was sent", () => {
    expect(
      exportWarning("http://x/v1/traces", { ended: 4, sent: 4, failed: 0, notSent: 0, timedOut: false }),
    ).toBeUndefined();
    expect(
      exportWarning("http://x/v1/traces", {
        ended: 4,
        sent: 0,
        failed: 4,
        notSent: 4,
        timedOut: false,
        error: "connect ECONNREFUSED",
      }),
    ).toBe("OTLP export to http://x/v1/traces failed: connect ECONNREFUSED (4 of 4 spans not sent)");
  });
});

describe("cost with its source on the spans", () => {
  it("an estimated cost (Gemini CLI) says estimated on its chat span and the run's; a reported one (Claude Code) says reported", async () => {
    const golden = (name: string) => new URL(`../../fixtures/golden/${name}.canonical.jsonl`, import.meta.url).pathname;
    const gemini = await exportEvents(readEvents(golden("gemini/priced")));
    const sources = (spans: FlatSpan[]) =>
      spans
        .filter((s) => s.attributes["agentstream.usage.cost_usd"] !== undefined)
        .map((s) => s.attributes["agentstream.usage.cost_source"]);
    expect(sources(gemini).length).toBeGreaterThan(0);
    expect(new Set(sources(gemini))).toEqual(new Set(["estimated"]));
    const claude = await exportEvents(readEvents(golden("claude/priced")));
    expect(new Set(sources(claude))).toEqual(new Set(["reported"]));
  });
});
