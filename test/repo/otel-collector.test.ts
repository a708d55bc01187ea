// The collector harness (test/helpers/otel-collector.ts) proved with the
// official OpenTelemetry JS SDK against the real collector the globalSetup
// built: what the SDK sends over OTLP/HTTP (protobuf) is what spans() reads
// back; closedPort() refuses; slowProxy() delays (and with Infinity, holds).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { ExportResultCode, type ExportResult } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  closedPort,
  collectorBinary,
  freePort,
  parseFileExporterOutput,
  runCollector,
  slowProxy,
  startCollector,
  type Collector,
} from "../helpers/otel-collector.js";

const SERVICE = "agentstream-harness-test";

function provider(exporter: OTLPTraceExporter, batch = false): BasicTracerProvider {
  return new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": SERVICE, "service.version": "9.9.9" }),
    spanProcessors: [
      batch
        ? new BatchSpanProcessor(exporter, { maxExportBatchSize: 64, scheduledDelayMillis: 100 })
        : new SimpleSpanProcessor(exporter),
    ],
  });
}

/** Spans made by the SDK but not sent, to hand to an exporter's export() directly. */
function recordedSpans(names: string[]): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const p = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": SERVICE }),
    spanProcessors: [new SimpleSpanProcessor(memory)],
  });
  const tracer = p.getTracer("recorded");
  for (const name of names) tracer.startSpan(name).end();
  return memory.getFinishedSpans();
}

function exportOnce(exporter: OTLPTraceExporter, spans: ReadableSpan[]): Promise<ExportResult> {
  return new Promise((resolve) => exporter.export(spans, resolve));
}

describe("parseFileExporterOutput", () => {
  it("decodes every AnyValue type and leaves a line still being written for the next read", () => {
    const line = JSON.stringify({
      resourceSpans: [
        {
          resource: { attributes: [{ key: "service.name", value: { stringValue: "svc" } }] },
          scopeSpans: [
            {
              scope: { name: "lib", version: "1.2" },
              spans: [
                {
                  traceId: "0af7651916cd43dd8448eb211c80319c",
                  spanId: "b7ad6b7169203331",
                  name: "s",
                  kind: 3,
                  startTimeUnixNano: "1700000000000000001",
                  endTimeUnixNano: "1700000000000000002",
                  attributes: [
                    { key: "small", value: { intValue: "42" } },
                    { key: "big", value: { intValue: "9223372036854775807" } },
                    { key: "d", value: { doubleValue: 1.5 } },
                    { key: "b", value: { boolValue: false } },
                    { key: "bytes", value: { bytesValue: Buffer.from([1, 2, 255]).toString("base64") } },
                    { key: "arr", value: { arrayValue: { values: [{ stringValue: "x" }, { intValue: "7" }] } } },
                    { key: "kv", value: { kvlistValue: { values: [{ key: "k", value: { boolValue: true } }] } } },
                    { key: "empty", value: {} },
                  ],
                  status: {},
                },
              ],
            },
          ],
        },
      ],
    });
    const [span, ...rest] = parseFileExporterOutput(`${line}\n{"resourceSpans":[{"scopeSpa`);
    expect(rest).toEqual([]);
    expect(span).toMatchObject({
      name: "s",
      kind: "client",
      parentSpanId: undefined,
      startTimeUnixNano: 1700000000000000001n,
      status: { code: 0, message: "" },
      resource: { "service.name": "svc" },
      scope: { name: "lib", version: "1.2" },
      attributes: {
        small: 42,
        big: 9223372036854775807n,
        d: 1.5,
        b: false,
        arr: ["x", 7],
        kv: { k: true },
        empty: null,
      },
    });
    expect(Array.from(span!.attributes.bytes as Uint8Array)).toEqual([1, 2, 255]);
  });
});

describe.skipIf(!collectorBinary())("a real OpenTelemetry Collector on loopback", () => {
  let collector: Collector;
  beforeAll(async () => {
    collector = await startCollector();
  });
  afterAll(async () => {
    await collector?.stop();
  });

  it("listens on loopback and writes what the official SDK sends: names, parent/child, kinds, attributes, events, times, status, resource, scope", async () => {
    expect(collector.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(collector.tracesUrl).toBe(`${collector.endpoint}/v1/traces`);
    const p = provider(new OTLPTraceExporter({ url: collector.tracesUrl }));
    const tracer = p.getTracer("harness-scope", "3.1.4");
    const t0 = new Date("2026-01-02T03:04:05.000Z");
    const root = tracer.startSpan("invoke_agent demo", {
      kind: SpanKind.SERVER,
      startTime: t0,
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.usage.input_tokens": 1234,
        "cost.usd": 0.25,
        ok: true,
        tags: ["a", "b"],
        sizes: [1, 2, 3],
      },
    });
    const child = tracer.startSpan(
      "execute_tool Bash",
      { kind: SpanKind.CLIENT, startTime: new Date(t0.getTime() + 1000) },
      trace.setSpan(ROOT_CONTEXT, root),
    );
    child.addEvent("gen_ai.tool.message", { "gen_ai.tool.call.id": "call_1", exit: 2 }, new Date(t0.getTime() + 1500));
    child.setStatus({ code: SpanStatusCode.ERROR, message: "tool failed" });
    child.end(new Date(t0.getTime() + 2000));
    root.setStatus({ code: SpanStatusCode.OK });
    root.end(new Date(t0.getTime() + 3000));
    await p.forceFlush();

    const spans = await collector.waitForSpans(
      (s) => s.some((x) => x.name === "invoke_agent demo") && s.some((x) => x.name === "execute_tool Bash"),
    );
    const r = spans.find((s) => s.name === "invoke_agent demo")!;
    const c = spans.find((s) => s.name === "execute_tool Bash")!;
    expect(r.parentSpanId).toBeUndefined();
    expect(c.parentSpanId).toBe(r.spanId);
    expect(c.traceId).toBe(r.traceId);
    expect(r.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(r.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(r.kind).toBe("server");
    expect(c.kind).toBe("client");
    const ns = (ms: number) => BigInt(ms) * 1_000_000n;
    expect(r.startTimeUnixNano).toBe(ns(t0.getTime()));
    expect(r.endTimeUnixNano).toBe(ns(t0.getTime() + 3000));
    expect(c.startTimeUnixNano).toBe(ns(t0.getTime() + 1000));
    expect(c.endTimeUnixNano).toBe(ns(t0.getTime() + 2000));
    expect(r.attributes).toEqual({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.usage.input_tokens": 1234,
      "cost.usd": 0.25,
      ok: true,
      tags: ["a", "b"],
      sizes: [1, 2, 3],
    });
    expect(c.events).toEqual([
      {
        name: "gen_ai.tool.message",
        timeUnixNano: ns(t0.getTime() + 1500),
        attributes: { "gen_ai.tool.call.id": "call_1", exit: 2 },
      },
    ]);
    expect(r.status).toEqual({ code: SpanStatusCode.OK, message: "" });
    expect(c.status).toEqual({ code: SpanStatusCode.ERROR, message: "tool failed" });
    expect(r.resource).toMatchObject({ "service.name": SERVICE, "service.version": "9.9.9" });
    expect(r.scope).toMatchObject({ name: "harness-scope", version: "3.1.4" });
    await p.shutdown();
  });

  it("takes a batch of 500 spans through the BatchSpanProcessor, each once", async () => {
    const p = provider(new OTLPTraceExporter({ url: collector.tracesUrl }), true);
    const tracer = p.getTracer("batch");
    for (let i = 0; i < 500; i++) tracer.startSpan(`batch span ${i}`, { attributes: { i } }).end();
    await p.forceFlush();
    const spans = (
      await collector.waitForSpans((s) => s.filter((x) => x.name.startsWith("batch span ")).length >= 500)
    ).filter((x) => x.name.startsWith("batch span "));
    expect(spans).toHaveLength(500);
    expect(new Set(spans.map((s) => s.attributes.i))).toEqual(new Set(Array.from({ length: 500 }, (_, i) => i)));
    await p.shutdown();
  });

  it("takes OTLP/gRPC on grpcEndpoint too (sent by a second collector's otlp_grpc exporter)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "agentstream-grpc-sender-"));
    const [http, health] = [await freePort(), await freePort()];
    const config = join(dir, "config.yaml");
    writeFileSync(
      config,
      JSON.stringify({
        receivers: { otlp: { protocols: { http: { endpoint: `127.0.0.1:${http}` } } } },
        exporters: { otlp_grpc: { endpoint: new URL(collector.grpcEndpoint).host, tls: { insecure: true } } },
        extensions: { health_check: { endpoint: `127.0.0.1:${health}` } },
        service: {
          extensions: ["health_check"],
          pipelines: { traces: { receivers: ["otlp"], exporters: ["otlp_grpc"] } },
          telemetry: { metrics: { level: "none" } },
        },
      }),
    );
    const sender = await runCollector({ config, healthUrl: `http://127.0.0.1:${health}/` });
    try {
      expect(
        (
          await exportOnce(
            new OTLPTraceExporter({ url: `http://127.0.0.1:${http}/v1/traces` }),
            recordedSpans(["over grpc"]),
          )
        ).code,
      ).toBe(ExportResultCode.SUCCESS);
      const spans = await collector.waitForSpans((s) => s.some((x) => x.name === "over grpc"));
      expect(spans.find((x) => x.name === "over grpc")!.resource["service.name"]).toBe(SERVICE);
    } finally {
      await sender.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("slowProxy forwards every request to the collector after its delay", async () => {
    const proxy = await slowProxy(collector.endpoint, 200);
    try {
      const result = await exportOnce(
        new OTLPTraceExporter({ url: proxy.tracesUrl, timeoutMillis: 30_000 }),
        recordedSpans(["through the slow proxy"]),
      );
      expect(result.code).toBe(ExportResultCode.SUCCESS);
      expect(proxy.requests()).toBeGreaterThanOrEqual(1);
      await collector.waitForSpans((s) => s.some((x) => x.name === "through the slow proxy"));
    } finally {
      await proxy.close();
    }
  });

  it("slowProxy with Infinity never answers: an exporter with a short timeout fails, and nothing arrives", async () => {
    const proxy = await slowProxy(collector.endpoint, Infinity);
    try {
      const result = await exportOnce(
        new OTLPTraceExporter({ url: proxy.tracesUrl, timeoutMillis: 300 }),
        recordedSpans(["held forever"]),
      );
      expect(result.code).toBe(ExportResultCode.FAILED);
      expect(proxy.requests()).toBeGreaterThanOrEqual(1);
    } finally {
      await proxy.close();
    }
    // A marker sent straight after proves the collector is taking spans, and "held forever" is not among them.
    await exportOnce(new OTLPTraceExporter({ url: collector.tracesUrl }), recordedSpans(["after the held one"]));
    const spans = await collector.waitForSpans((s) => s.some((x) => x.name === "after the held one"));
    expect(spans.map((s) => s.name)).not.toContain("held forever");
  });
});

describe.skipIf(!collectorBinary())("collector down and stop()", () => {
  it("closedPort() refuses: the SDK's export fails", async () => {
    const endpoint = await closedPort();
    const result = await exportOnce(
      new OTLPTraceExporter({ url: `${endpoint}/v1/traces`, timeoutMillis: 2000 }),
      recordedSpans(["nowhere"]),
    );
    expect(result.code).toBe(ExportResultCode.FAILED);
  });

  it("stop() ends the collector (its port then refuses) and removes its files; a second stop() is harmless", async () => {
    const c = await startCollector();
    await exportOnce(new OTLPTraceExporter({ url: c.tracesUrl }), recordedSpans(["before stop"]));
    await c.waitForSpans(1);
    expect(existsSync(c.outputFile)).toBe(true);
    await c.stop();
    await c.stop();
    expect(existsSync(dirname(c.outputFile))).toBe(false);
    const result = await exportOnce(
      new OTLPTraceExporter({ url: c.tracesUrl, timeoutMillis: 2000 }),
      recordedSpans(["after stop"]),
    );
    expect(result.code).toBe(ExportResultCode.FAILED);
  });

  it("a collector started on a given port (a down endpoint coming up) takes spans there", async () => {
    const endpoint = await closedPort();
    const c = await startCollector({ httpPort: Number(new URL(endpoint).port) });
    try {
      expect(c.endpoint).toBe(endpoint);
      await exportOnce(new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }), recordedSpans(["came up"]));
      await c.waitForSpans((s) => s.some((x) => x.name === "came up"));
    } finally {
      await c.stop();
    }
  });
});

describe("startCollector without a runnable binary", () => {
  it("fails at once with the reason, whether or not a collector was built", async () => {
    await expect(startCollector({ binary: "/nonexistent/otelcol" })).rejects.toThrow(
      /exited .*before it was ready.*ENOENT/s,
    );
  });
});
