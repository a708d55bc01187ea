// A real OpenTelemetry Collector on loopback for tests: the binary that
// test/otel/build-collector.mjs built (the default suite's globalSetup builds it
// once and provides its path as `otelcolPath`), started on free ports with the
// OTLP receiver (HTTP and gRPC), the health_check extension (readiness) and the
// contrib file exporter writing OTLP JSON to a temporary file, which spans()
// reads back as flat spans. Plus slowProxy() ("collector slow") and
// closedPort() ("collector down").
//
//   const collector = await startCollector();
//   ... export to collector.endpoint (OTLP/HTTP base) or collector.tracesUrl ...
//   const spans = await collector.waitForSpans(3);
//   await collector.stop();
//
// A test file skips itself where no collector was built (Go missing, not
// required): `describe.skipIf(!collectorBinary())(...)`.
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, fstatSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from "node:fs";
import {
  createServer as createHttpServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** The built collector binary; absent where Go is missing and AGENTSTREAM_REQUIRE_COLLECTOR is not 1. */
    otelcolPath?: string;
  }
}

/** The collector binary the globalSetup built, or undefined (then collector tests skip). */
export function collectorBinary(): string | undefined {
  return inject("otelcolPath");
}

export type SpanKindName = "unspecified" | "internal" | "server" | "client" | "producer" | "consumer";

export interface CollectedEvent {
  name: string;
  timeUnixNano: bigint;
  attributes: Record<string, unknown>;
}

export interface CollectedLink {
  traceId: string;
  spanId: string;
  attributes: Record<string, unknown>;
}

/** One span as the collector wrote it, flattened with its resource and scope. */
export interface CollectedSpan {
  traceId: string;
  spanId: string;
  /** undefined for a root span. */
  parentSpanId: string | undefined;
  name: string;
  /** OTLP's SpanKind by name (OTLP's numbers differ from @opentelemetry/api's enum). */
  kind: SpanKindName;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  /** code as OTLP (and @opentelemetry/api's SpanStatusCode) numbers it: 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string };
  /** Decoded AnyValues: string, number (int64 past 2^53 as bigint), boolean, array, object, Uint8Array (bytes), null (empty). */
  attributes: Record<string, unknown>;
  events: CollectedEvent[];
  links: CollectedLink[];
  resource: Record<string, unknown>;
  scope: { name: string; version: string; attributes: Record<string, unknown> };
}

export interface StartCollectorOptions {
  /** The binary to run; default the one the globalSetup built. */
  binary?: string;
  /** Listen for OTLP/HTTP on this port instead of a free one (e.g. to bring a "down" collector up on a known port). */
  httpPort?: number;
  /** Environment for the collector process, added to the test's. */
  env?: Record<string, string>;
  /** How long to wait for readiness before failing (a guard, not an expectation). Default 60 s. */
  readyGuardMs?: number;
}

export interface Collector {
  /** OTLP/HTTP base, http://127.0.0.1:PORT (exporters add /v1/traces). */
  endpoint: string;
  /** `${endpoint}/v1/traces`. */
  tracesUrl: string;
  /** OTLP/gRPC endpoint, http://127.0.0.1:PORT. */
  grpcEndpoint: string;
  /** The JSON file the file exporter writes (one ExportTraceServiceRequest a line). */
  outputFile: string;
  /** Every span written so far. */
  spans(): Promise<CollectedSpan[]>;
  /** Wait until at least `count` spans, or spans satisfying the predicate, have been written; throws after guardMs (default 60 s). */
  waitForSpans(until: number | ((spans: CollectedSpan[]) => boolean), guardMs?: number): Promise<CollectedSpan[]>;
  /** The collector's own log (stderr) so far, for diagnostics. */
  log(): string;
  /** Stop the process and remove its temporary files. Safe to call twice. */
  stop(): Promise<void>;
}

export interface RunCollectorOptions {
  binary?: string;
  /** The config file to run with (--config). */
  config: string;
  env?: Record<string, string>;
  /** The health_check endpoint to wait for, http://127.0.0.1:PORT. */
  healthUrl: string;
  readyGuardMs?: number;
}

export interface RunningCollector {
  process: ChildProcess;
  log(): string;
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of live) child.kill("SIGKILL");
});

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/**
 * An OTLP/HTTP endpoint nothing listens on ("collector down"): connections are refused. Its port is
 * below the kernel's ephemeral range, so no `listen(0)` of a test running beside it (freePort) can take
 * it while it is meant to be down, nor before a test starts a collector on it ("the backend comes up").
 */
export async function closedPort(): Promise<string> {
  const below = ephemeralRangeStart();
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 10_000 + Math.floor(Math.random() * (below - 10_000));
    if (await canListen(port)) return `http://127.0.0.1:${port}`;
  }
  throw new Error(`no free port found between 10000 and ${below}`);
}

/** The first port the kernel hands out for listen(0) (Linux: ip_local_port_range; elsewhere IANA's 49152). */
function ephemeralRangeStart(): number {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    if (Number.isInteger(low) && low > 11_000) return low;
  } catch {}
  return 49_152;
}

async function canListen(port: number): Promise<boolean> {
  const server = createNetServer();
  const listening = await new Promise<boolean>((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => resolve(true));
  });
  if (listening) await new Promise<void>((resolve) => server.close(() => resolve()));
  return listening;
}

/**
 * Run the collector binary with a config file of the caller's (e.g. the Fleets
 * example) and wait until its health_check endpoint answers 200.
 */
export async function runCollector(options: RunCollectorOptions): Promise<RunningCollector> {
  const binary = options.binary ?? collectorBinary();
  if (!binary)
    throw new Error(
      "no collector binary: the globalSetup (test/otel/collector.global-setup.ts) built none (is Go installed?)",
    );
  const child = spawn(binary, ["--config", options.config], {
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  live.add(child);
  let log = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (log = (log + d).slice(-64_000)));
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exit = new Promise<void>((resolve) => {
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      exited ??= { code, signal };
      live.delete(child);
      resolve();
    };
    child.once("close", finish);
    // A binary that cannot be started (ENOENT, EACCES) may never emit "close".
    child.once("error", (error) => {
      log += `\nspawn error: ${error.message}`;
      finish(null, null);
    });
  });
  const stop = async (): Promise<void> => {
    if (exited) return;
    child.kill("SIGTERM");
    const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await exit;
    clearTimeout(killer);
  };

  const guard = options.readyGuardMs ?? 60_000;
  const deadline = Date.now() + guard;
  for (;;) {
    if (exited)
      throw new Error(
        `the collector exited (${exited.signal ?? (exited.code === null ? "not started" : `exit ${exited.code}`)}) before it was ready:\n${log.slice(-4000)}`,
      );
    if (await answers200(options.healthUrl)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the collector was not ready after ${guard} ms (${options.healthUrl}):\n${log.slice(-4000)}`);
    }
    await Promise.race([exit, new Promise((r) => setTimeout(r, 50))]);
  }
  return { process: child, log: () => log, stop };
}

function answers200(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { method: "GET", timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(false));
    req.end();
  });
}

/** The port a collector failed to bind, retried with other free ports. */
function portClash(error: unknown): boolean {
  return error instanceof Error && /address already in use/i.test(error.message);
}

/** Start a collector that writes every span it receives to a file the returned handle reads. */
export async function startCollector(options: StartCollectorOptions = {}): Promise<Collector> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options);
    } catch (error) {
      if (attempt >= 3 || !portClash(error)) throw error;
    }
  }
}

async function startOnce(options: StartCollectorOptions): Promise<Collector> {
  const dir = mkdtempSync(join(tmpdir(), "agentstream-otelcol-"));
  const outputFile = join(dir, "spans.json");
  const httpPort = options.httpPort ?? (await freePort());
  const grpcPort = await freePort();
  const healthPort = await freePort();
  const config = {
    receivers: {
      otlp: {
        protocols: {
          http: { endpoint: `127.0.0.1:${httpPort}` },
          grpc: { endpoint: `127.0.0.1:${grpcPort}` },
        },
      },
    },
    exporters: {
      // Flushed often so waitForSpans sees a batch soon after the receiver took it.
      file: { path: outputFile, format: "json", flush_interval: "50ms" },
    },
    extensions: { health_check: { endpoint: `127.0.0.1:${healthPort}` } },
    service: {
      extensions: ["health_check"],
      pipelines: { traces: { receivers: ["otlp"], exporters: ["file"] } },
      // No internal metrics server (its default port 8888 would clash between collectors).
      telemetry: { metrics: { level: "none" }, logs: { level: "warn" } },
    },
  };
  const configFile = join(dir, "config.yaml"); // JSON is YAML
  writeFileSync(configFile, JSON.stringify(config, null, 2));

  let running: RunningCollector;
  try {
    running = await runCollector({
      binary: options.binary,
      config: configFile,
      env: options.env,
      healthUrl: `http://127.0.0.1:${healthPort}/`,
      readyGuardMs: options.readyGuardMs,
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  const endpoint = `http://127.0.0.1:${httpPort}`;
  const output = new FileExporterReader(outputFile);
  const spans = async (): Promise<CollectedSpan[]> => output.read();
  let stopped = false;
  return {
    endpoint,
    tracesUrl: `${endpoint}/v1/traces`,
    grpcEndpoint: `http://127.0.0.1:${grpcPort}`,
    outputFile,
    spans,
    log: running.log,
    async waitForSpans(until, guardMs = 60_000) {
      const done = typeof until === "number" ? (s: CollectedSpan[]) => s.length >= until : until;
      const deadline = Date.now() + guardMs;
      for (;;) {
        const seen = await spans();
        if (done(seen)) return seen;
        if (Date.now() > deadline) {
          const names = seen
            .slice(0, 20)
            .map((s) => s.name)
            .join(", ");
          throw new Error(
            `waitForSpans: condition not met after ${guardMs} ms; ${seen.length} span(s) seen (${names})\ncollector log:\n${running.log().slice(-4000)}`,
          );
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        await running.stop();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Reads the file exporter's output as it grows: each read parses only the complete lines added since the last. */
class FileExporterReader {
  private offset = 0;
  private readonly spans: CollectedSpan[] = [];
  constructor(private readonly file: string) {}

  read(): CollectedSpan[] {
    let fd: number;
    try {
      fd = openSync(this.file, "r");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [...this.spans];
      throw error;
    }
    try {
      const size = fstatSync(fd).size;
      if (size > this.offset) {
        const chunk = Buffer.alloc(size - this.offset);
        const got = readSync(fd, chunk, 0, chunk.length, this.offset);
        const end = chunk.subarray(0, got).lastIndexOf(0x0a) + 1; // up to the last whole line
        if (end > 0) {
          for (const span of parseFileExporterOutput(chunk.subarray(0, end).toString("utf8"))) this.spans.push(span);
          this.offset += end;
        }
      }
    } finally {
      closeSync(fd);
    }
    return [...this.spans];
  }
}

// ---- The file exporter's OTLP JSON, flattened ------------------------------

interface OtlpKeyValue {
  key: string;
  value?: OtlpAnyValue;
}
interface OtlpAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number | string;
  bytesValue?: string;
  arrayValue?: { values?: OtlpAnyValue[] };
  kvlistValue?: { values?: OtlpKeyValue[] };
}
interface OtlpSpan {
  traceId?: string;
  spanId?: string;
  parentSpanId?: string;
  name?: string;
  kind?: number;
  startTimeUnixNano?: string;
  endTimeUnixNano?: string;
  attributes?: OtlpKeyValue[];
  events?: { name?: string; timeUnixNano?: string; attributes?: OtlpKeyValue[] }[];
  links?: { traceId?: string; spanId?: string; attributes?: OtlpKeyValue[] }[];
  status?: { code?: number; message?: string };
}
interface OtlpTracesData {
  resourceSpans?: {
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: { scope?: { name?: string; version?: string; attributes?: OtlpKeyValue[] }; spans?: OtlpSpan[] }[];
  }[];
}

const KINDS: SpanKindName[] = ["unspecified", "internal", "server", "client", "producer", "consumer"];

/** Decode one OTLP JSON AnyValue. */
export function decodeAnyValue(value: OtlpAnyValue | undefined): unknown {
  if (value === undefined) return null;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) {
    const big = BigInt(value.intValue);
    return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
  }
  if (value.doubleValue !== undefined) return Number(value.doubleValue); // "NaN"/"Infinity" arrive as strings
  if (value.bytesValue !== undefined) return new Uint8Array(Buffer.from(value.bytesValue, "base64"));
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(decodeAnyValue);
  if (value.kvlistValue !== undefined) return decodeAttributes(value.kvlistValue.values);
  return null;
}

export function decodeAttributes(list: OtlpKeyValue[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of list ?? []) out[kv.key] = decodeAnyValue(kv.value);
  return out;
}

/** Parse what the file exporter wrote (one JSON TracesData a line; a last line still being written is left for the next read). */
export function parseFileExporterOutput(text: string): CollectedSpan[] {
  const out: CollectedSpan[] = [];
  const complete = text.slice(0, text.lastIndexOf("\n") + 1);
  for (const line of complete.split("\n")) {
    if (line.trim() === "") continue;
    const data = JSON.parse(line) as OtlpTracesData;
    for (const rs of data.resourceSpans ?? []) {
      const resource = decodeAttributes(rs.resource?.attributes);
      for (const ss of rs.scopeSpans ?? []) {
        const scope = {
          name: ss.scope?.name ?? "",
          version: ss.scope?.version ?? "",
          attributes: decodeAttributes(ss.scope?.attributes),
        };
        for (const span of ss.spans ?? []) {
          out.push({
            traceId: span.traceId ?? "",
            spanId: span.spanId ?? "",
            parentSpanId: span.parentSpanId ? span.parentSpanId : undefined,
            name: span.name ?? "",
            kind: KINDS[span.kind ?? 0] ?? "unspecified",
            startTimeUnixNano: BigInt(span.startTimeUnixNano ?? 0),
            endTimeUnixNano: BigInt(span.endTimeUnixNano ?? 0),
            status: { code: span.status?.code ?? 0, message: span.status?.message ?? "" },
            attributes: decodeAttributes(span.attributes),
            events: (span.events ?? []).map((e) => ({
              name: e.name ?? "",
              timeUnixNano: BigInt(e.timeUnixNano ?? 0),
              attributes: decodeAttributes(e.attributes),
            })),
            links: (span.links ?? []).map((l) => ({
              traceId: l.traceId ?? "",
              spanId: l.spanId ?? "",
              attributes: decodeAttributes(l.attributes),
            })),
            resource,
            scope,
          });
        }
      }
    }
  }
  return out;
}

// ---- "Collector slow" --------------------------------------------------------

export interface SlowProxy {
  /** The proxy's base, http://127.0.0.1:PORT: use it as the exporter's OTLP/HTTP endpoint. */
  endpoint: string;
  tracesUrl: string;
  /** Requests received so far (whether or not forwarded yet). */
  requests(): number;
  /** Stop listening and drop every open connection (held requests included). */
  close(): Promise<void>;
}

/**
 * A loopback HTTP proxy that holds every request delayMs before forwarding it
 * to targetEndpoint and relaying the answer. delayMs = Infinity holds every
 * request until close() (a collector that never answers).
 */
export async function slowProxy(targetEndpoint: string, delayMs: number): Promise<SlowProxy> {
  const target = new URL(targetEndpoint);
  let count = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    count++;
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (delayMs === Infinity) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        forward(target, req, Buffer.concat(chunks), res);
      }, delayMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    tracesUrl: `${endpoint}/v1/traces`,
    requests: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function forward(target: URL, req: IncomingMessage, body: Buffer, res: ServerResponse): void {
  if (res.destroyed) return;
  const headers = { ...req.headers, host: target.host, "content-length": String(body.length) };
  delete headers["transfer-encoding"];
  const upstream = httpRequest(
    {
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on("error", (error) => {
    if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
    res.end(`slowProxy: ${error.message}`);
  });
  upstream.end(body);
}
