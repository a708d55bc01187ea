import type { Context, Tracer } from "@opentelemetry/api";
import { ExportResultCode, type ExportResult } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  type ReadableSpan,
  type Span,
  type SpanExporter,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions";
import { OutputRefused } from "../core/errors.js";
import { RunTrace, type TraceParent } from "./run-trace.js";
import { SpillingSpanProcessor } from "./spill-processor.js";

// The one place agentstream talks OTLP: a BasicTracerProvider per process, a
// SpillingSpanProcessor (a batch processor that spills a burst to a temporary
// file rather than drop it) in front of the official OTLP/HTTP (protobuf) exporter,
// and the bookkeeping that says, per run, how many spans reached the
// collector. Loaded (with import()) only when export is asked for.

/** The SDK's own default when no variable names an endpoint. */
const DEFAULT_TRACES_URL = "http://localhost:4318/v1/traces";
/** The SDK's default OTEL_EXPORTER_OTLP_TIMEOUT. */
const DEFAULT_TIMEOUT_MS = 10_000;
// Spans kept in memory before a burst spills to the file; a replay (normalize, export) waits at half of it.
const QUEUE_SIZE = 8192;

export interface OtlpSettings {
  /** --otlp URL / --endpoint URL: a collector's base URL (/v1/traces is added) or its full traces URL. Else the OTEL_* variables decide. */
  endpoint?: string;
  content: boolean;
  /** agentstream's version, as service.version. */
  version: string;
  env?: NodeJS.ProcessEnv;
  /** For tests: another exporter than OTLP's (an InMemorySpanExporter). */
  exporter?: SpanExporter;
  /** Each run's trace hangs under this span (a compare's): see RunTraceOptions.parent. */
  parent?: TraceParent;
}

/** How many of a run's spans reached the collector. */
export interface SpanCounts {
  ended: number;
  sent: number;
  failed: number;
  /** The first export failure that hit this run's spans. */
  error?: string;
}

export interface OtlpReport extends SpanCounts {
  /** Ended spans that never reached the collector (failed, dropped, or still on their way when the wait ended). */
  notSent: number;
  /** The wait for the collector ended before it answered. */
  timedOut: boolean;
}

/** The traces URL the exporter will use, as the OTLP exporter works it out (for messages). */
export function tracesUrl(endpoint: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (endpoint !== undefined) return withTracesPath(endpoint);
  const specific = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (specific) return specific;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base ? `${base.endsWith("/") ? base : `${base}/`}v1/traces` : DEFAULT_TRACES_URL;
}

/** A URL as messages show it: without its user name and password (`http://user:pw@host` → `http://host`). */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username === "" && parsed.password === "") return url;
    parsed.username = "";
    parsed.password = "";
    return parsed.href;
  } catch {
    return url.replace(/\/\/[^/@]*@/, "//");
  }
}

/** Port 0 names no collector (the exporter would send to the scheme's default port): a usage error. */
function checkCollectorPort(url: string): void {
  let port: string | undefined;
  try {
    port = new URL(url).port;
  } catch {
    return; // the exporter says what is wrong with it
  }
  if (port === "0")
    throw new OutputRefused(
      "otlp",
      `OTLP endpoint ${shownUrl(url)}: port 0 names no collector`,
      "give the collector's port, such as http://localhost:4318",
    );
}

/** A collector's base URL gets /v1/traces, as OTEL_EXPORTER_OTLP_ENDPOINT does; a URL already ending in it is kept. */
function withTracesPath(url: string): string {
  const parsed = new URL(url);
  if (/\/v1\/traces\/?$/.test(parsed.pathname)) return url;
  return `${url.endsWith("/") ? url : `${url}/`}v1/traces`;
}

/** The export timeout the exporter reads from the environment (milliseconds). */
function exportTimeoutMs(env: NodeJS.ProcessEnv): number {
  for (const name of ["OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT"]) {
    const value = Number(env[name]);
    if (env[name] !== undefined && Number.isFinite(value) && value > 0) return value;
  }
  return DEFAULT_TIMEOUT_MS;
}

/** Counts each span's fate against the run it belongs to. */
class CountingExporter implements SpanExporter {
  readonly total: SpanCounts = { ended: 0, sent: 0, failed: 0 };

  constructor(
    private readonly inner: SpanExporter,
    private readonly owners: WeakMap<object, SpanCounts>,
  ) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      const ok = result.code === ExportResultCode.SUCCESS;
      const error = ok ? undefined : describeExportError(result.error);
      const count = (counts: SpanCounts | undefined, n: number): void => {
        if (!counts) return;
        if (ok) counts.sent += n;
        else {
          counts.failed += n;
          counts.error ??= error;
        }
      };
      count(this.total, spans.length);
      for (const span of spans) count(this.owners.get(span), 1);
      resultCallback(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/** Notes which run each span belongs to, and counts it as ended; the batch processor does the rest. */
class OwningProcessor implements SpanProcessor {
  current: SpanCounts | undefined;

  constructor(
    private readonly inner: SpanProcessor,
    private readonly owners: WeakMap<object, SpanCounts>,
    private readonly total: SpanCounts,
  ) {}

  onStart(span: Span, parentContext: Context): void {
    if (this.current) this.owners.set(span, this.current);
    this.inner.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    this.total.ended++;
    const counts = this.owners.get(span);
    if (counts) counts.ended++;
    this.inner.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}

/** One process's export: any number of runs, one after another, then close(). */
export class OtlpExport {
  readonly url: string;
  private readonly provider: BasicTracerProvider;
  private readonly exporter: CountingExporter;
  private readonly processor: OwningProcessor;
  private readonly timeoutMs: number;
  private readonly queueSize: number;
  private readonly spill: SpillingSpanProcessor;
  private readonly runs: SpanCounts[];
  private closing: Promise<OtlpReport> | undefined;

  constructor(private readonly settings: OtlpSettings) {
    const env = settings.env ?? process.env;
    this.url = tracesUrl(settings.endpoint, env);
    checkCollectorPort(this.url);
    this.timeoutMs = exportTimeoutMs(env);
    const owners = new WeakMap<object, SpanCounts>();
    const otlp = settings.exporter ?? new OTLPTraceExporter(settings.endpoint === undefined ? {} : { url: this.url });
    this.exporter = new CountingExporter(otlp, owners);
    this.queueSize = Number(env.OTEL_BSP_MAX_QUEUE_SIZE) > 0 ? Number(env.OTEL_BSP_MAX_QUEUE_SIZE) : QUEUE_SIZE;
    // A span read back from the file is a new object: which run it is of travels with it.
    const runs: SpanCounts[] = [];
    this.spill = new SpillingSpanProcessor(this.exporter, {
      memorySpans: this.queueSize,
      carry: {
        save: (span) => {
          const counts = owners.get(span);
          return counts ? runs.indexOf(counts) : -1;
        },
        load: (span, saved) => {
          if (saved >= 0) owners.set(span, runs[saved]!);
        },
      },
    });
    this.runs = runs;
    this.processor = new OwningProcessor(this.spill, owners, this.exporter.total);
    // service.name is agentstream's unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES say otherwise.
    const resource = defaultResource()
      .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: "agentstream", [ATTR_SERVICE_VERSION]: settings.version }))
      .merge(detectResources({ detectors: [envDetector] }));
    this.provider = new BasicTracerProvider({ resource, spanProcessors: [this.processor] });
  }

  /** A new run's trace; its spans are counted apart (see counts()). */
  run(): { trace: RunTrace; counts: SpanCounts } {
    const counts: SpanCounts = { ended: 0, sent: 0, failed: 0 };
    this.runs.push(counts);
    this.processor.current = counts;
    const parent = this.settings.parent;
    return {
      trace: new RunTrace({ tracer: this.tracer(), content: this.settings.content, ...(parent ? { parent } : {}) }),
      counts,
    };
  }

  /** The tracer of this export's spans (a run's, a compare's own). */
  tracer(): Tracer {
    return this.provider.getTracer("agentstream", this.settings.version);
  }

  /** Spans are queued faster than they are sent: a replay should wait (drained()) before it reads on. */
  get busy(): boolean {
    const { ended, sent, failed } = this.exporter.total;
    return ended - sent - failed >= this.queueSize / 2;
  }

  /** The collector has taken some span already: it is there and answering. */
  get reached(): boolean {
    return this.exporter.total.sent > 0;
  }

  /** Some export has failed already. */
  get failure(): string | undefined {
    return this.exporter.total.error;
  }

  /** Everything queued is sent (or has failed); never rejects. */
  async drained(): Promise<void> {
    await this.processor.forceFlush().catch(() => {});
    await this.exporter.forceFlush().catch(() => {});
  }

  /**
   * Sends what is left and shuts the exporter down, waiting at most the
   * export timeout (OTEL_EXPORTER_OTLP_TIMEOUT, 10 s by default, the bound of
   * the exporter's own retries) plus a second: a slow or absent collector never holds the CLI longer.
   */
  close(): Promise<OtlpReport> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<OtlpReport> {
    // Waits as long as the collector keeps taking spans (a long backlog is sent whole), but gives up once an
    // export fails or nothing has been answered for the export timeout plus a second: then the rest is dropped.
    const total = this.exporter.total;
    const failedBefore = total.failed;
    let answered = total.sent + total.failed;
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<boolean>((resolve) => {
      timer = setInterval(
        () => {
          const now = total.sent + total.failed;
          if (now === answered || total.failed > failedBefore) resolve(now === answered);
          answered = now;
        },
        Math.max(250, this.timeoutMs + 1000),
      );
      timer.unref();
    });
    const timedOut = await Promise.race([
      this.provider.shutdown().then(
        () => false,
        () => false,
      ),
      stalled,
    ]);
    clearInterval(timer);
    this.spill.abandon();
    const lost = total.error === undefined ? this.spill.lostBecause : undefined;
    return { ...total, ...(lost !== undefined ? { error: lost } : {}), notSent: total.ended - total.sent, timedOut };
  }
}

/** An export failure in a few words: the network error, the HTTP status, or the timeout. */
function describeExportError(error: Error | undefined): string {
  if (!error) return "the export failed";
  const withCode = error as Error & { code?: number | string; data?: string };
  if (typeof withCode.code === "number") return `HTTP ${withCode.code}${error.message ? ` ${error.message}` : ""}`;
  if (/retryable status/.test(error.message))
    return "the collector kept answering that it is busy (HTTP 429/502/503/504)";
  return error.message || error.name;
}

/** The one stderr line for an export that did not fully reach the collector, or undefined when it did. */
export function exportWarning(url: string, report: OtlpReport): string | undefined {
  if (report.notSent === 0) return undefined;
  const why = report.error ?? (report.timedOut ? `no answer within the export timeout` : "spans were dropped");
  return `OTLP export to ${shownUrl(url)} failed: ${why} (${report.notSent} of ${report.ended} spans not sent)`;
}

/** One run exported on its own (run, normalize, the library's run()). */
export interface SingleRunExport {
  trace: RunTrace;
  readonly busy: boolean;
  drained(): Promise<void>;
  /** Closes what the stream left open, sends the rest, and gives the warning line when not all reached the collector. */
  end(): Promise<string | undefined>;
}

export function exportOneRun(settings: OtlpSettings): SingleRunExport {
  const otlp = new OtlpExport(settings);
  const { trace } = otlp.run();
  return {
    trace,
    get busy() {
      return otlp.busy;
    },
    drained: () => otlp.drained(),
    async end() {
      trace.abandon("the stream ended without run.finished");
      return exportWarning(otlp.url, await otlp.close());
    },
  };
}
