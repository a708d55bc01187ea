// The Fleets collector example of docs/fleets.md (docs/fleets/collector.yaml) run as it
// stands by the real collector the globalSetup built, its backend pointed
// (${env:OTLP_BACKEND_ENDPOINT}) at a second harness collector that stands in
// for Jaeger: a span the official SDK sends to the first arrives in the second.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { SpanKind } from "@opentelemetry/api";
import { ExportResultCode, type ExportResult } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import {
  closedPort,
  collectorBinary,
  freePort,
  runCollector,
  startCollector,
  type RunningCollector,
} from "../helpers/otel-collector.js";

const FLEET_CONFIG = fileURLToPath(new URL("../../docs/fleets/collector.yaml", import.meta.url));

/** The fleet collector on free loopback ports (the example's defaults listen on 0.0.0.0:4318 and friends). */
async function startFleetCollector(
  backend: string | undefined,
): Promise<{ collector: RunningCollector; tracesUrl: string }> {
  // A port found free can be taken by a test beside this one before the collector binds it: new ports then.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startFleetCollectorOnce(backend);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof Error && /address already in use/i.test(error.message))) throw error;
    }
  }
}

async function startFleetCollectorOnce(
  backend: string | undefined,
): Promise<{ collector: RunningCollector; tracesUrl: string }> {
  const [http, grpc, health, metrics] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const env: Record<string, string> = {
    COLLECTOR_OTLP_HTTP_ENDPOINT: `127.0.0.1:${http}`,
    COLLECTOR_OTLP_GRPC_ENDPOINT: `127.0.0.1:${grpc}`,
    COLLECTOR_HEALTH_ENDPOINT: `127.0.0.1:${health}`,
    COLLECTOR_METRICS_HOST: "127.0.0.1",
    COLLECTOR_METRICS_PORT: String(metrics),
  };
  if (backend !== undefined) env.OTLP_BACKEND_ENDPOINT = backend;
  const collector = await runCollector({ config: FLEET_CONFIG, env, healthUrl: `http://127.0.0.1:${health}/` });
  return { collector, tracesUrl: `http://127.0.0.1:${http}/v1/traces` };
}

function spanNamed(name: string, attributes: Record<string, string | number>): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": "agentstream-fleet-test" }),
    spanProcessors: [new SimpleSpanProcessor(memory)],
  });
  provider.getTracer("fleet").startSpan(name, { kind: SpanKind.INTERNAL, attributes }).end();
  return memory.getFinishedSpans();
}

function exportOnce(url: string, spans: ReadableSpan[]): Promise<ExportResult> {
  return new Promise((resolve) => new OTLPTraceExporter({ url, timeoutMillis: 30_000 }).export(spans, resolve));
}

async function until(condition: () => boolean, guardMs = 60_000): Promise<void> {
  const deadline = Date.now() + guardMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met after ${guardMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("docs/fleets.md: the collector configuration", () => {
  it("names the example's file and documents every variable it reads, with the defaults it has", () => {
    const page = readFileSync(new URL("../../docs/fleets.md", import.meta.url), "utf8");
    const section = page.slice(page.indexOf("\n## Collector configuration\n"));
    // A relative link, which resolves in the clone and the package alike (test/docs/readme-links.test.ts).
    expect(section).toContain("[`docs/fleets/collector.yaml`](fleets/collector.yaml)");
    // What the collector reads: the file less its comments.
    const yaml = readFileSync(FLEET_CONFIG, "utf8")
      .split("\n")
      .filter((line) => !line.trimStart().startsWith("#"))
      .join("\n");
    const used = new Map([...yaml.matchAll(/\$\{env:([A-Z_]+)(?::-([^}]*))?\}/g)].map((m) => [m[1]!, m[2]]));
    const rows = section
      .split("\n")
      .filter((line) => line.startsWith("| `"))
      .map((line) =>
        line
          .split("|")
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    const documented = new Map<string, string | undefined>();
    for (const [names, defaults] of rows) {
      const n = [...names!.matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]!);
      const d = [...defaults!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
      for (const [i, name] of n.entries()) documented.set(name, d[i]);
    }
    expect(documented).toEqual(used);
  });
});

describe.skipIf(!collectorBinary())("docs/fleets/collector.yaml forwards to an OTLP backend", () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (cleanup.length) await cleanup.pop()!();
  });

  it("a span sent to the fleet collector arrives, whole, at the backend it forwards to", async () => {
    const backend = await startCollector();
    cleanup.push(backend.stop);
    const fleet = await startFleetCollector(backend.endpoint);
    cleanup.push(fleet.collector.stop);

    const sent = spanNamed("invoke_agent fleet", { "gen_ai.agent.name": "evosci", "gen_ai.usage.output_tokens": 77 });
    expect((await exportOnce(fleet.tracesUrl, sent)).code).toBe(ExportResultCode.SUCCESS);
    const spans = await backend.waitForSpans((s) => s.some((x) => x.name === "invoke_agent fleet"));
    const got = spans.find((x) => x.name === "invoke_agent fleet")!;
    expect(got.traceId).toBe(sent[0]!.spanContext().traceId);
    expect(got.spanId).toBe(sent[0]!.spanContext().spanId);
    expect(got.attributes).toEqual({ "gen_ai.agent.name": "evosci", "gen_ai.usage.output_tokens": 77 });
    expect(got.resource["service.name"]).toBe("agentstream-fleet-test");
    expect(got.scope.name).toBe("fleet");
  });

  it("takes spans while the backend is down and delivers them once it is up (queue and retry)", async () => {
    const down = await closedPort();
    const fleet = await startFleetCollector(down);
    cleanup.push(fleet.collector.stop);
    expect((await exportOnce(fleet.tracesUrl, spanNamed("sent while the backend was down", {}))).code).toBe(
      ExportResultCode.SUCCESS,
    );
    // The collector has tried the backend, failed, and holds the span for a retry.
    await until(() => /Exporting failed\. Will retry/.test(fleet.collector.log()));

    const backend = await startCollector({ httpPort: Number(new URL(down).port) });
    cleanup.push(backend.stop);
    await backend.waitForSpans((s) => s.some((x) => x.name === "sent while the backend was down"), 120_000);
  }, 180_000);

  it("refuses to start without OTLP_BACKEND_ENDPOINT", async () => {
    await expect(startFleetCollector(undefined)).rejects.toThrow(
      /exited .*before it was ready.*at least one endpoint must be specified/s,
    );
  });
});
