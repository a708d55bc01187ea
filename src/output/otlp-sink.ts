import type { CanonicalEvent } from "../canonical/events.js";
import type { Redactor } from "../core/redactor.js";
import type { TraceParent } from "../export/run-trace.js";
import type { Sink } from "./sink.js";

/** `--otlp [URL]` and `--otlp-content` as commander gives them. */
/** One run exported as it happens; end() waits (boundedly) for the collector and says what did not reach it. */
export interface OtlpSink extends Sink {
  /** Spans are queued faster than they are sent: a replay waits for drained() before it reads on. */
  readonly busy: boolean;
  drained(): Promise<void>;
}

/**
 * The run's export to an OTLP collector (OpenTelemetry is loaded only now):
 * `endpoint` undefined lets the OTEL_EXPORTER_OTLP_* variables decide. A
 * collector that does not take every span is one line through `warn`; the
 * run's outcome stands. An endpoint with port 0 is a UsageError.
 */
export async function openOtlpSink(
  settings: { endpoint?: string; content: boolean; version: string; parent?: TraceParent },
  redactor: Redactor,
  warn: (line: string) => void,
): Promise<OtlpSink> {
  const { exportOneRun } = await import("../export/otlp.js");
  const otlp = exportOneRun({
    endpoint: settings.endpoint,
    content: settings.content,
    version: settings.version,
    ...(settings.parent ? { parent: settings.parent } : {}),
  });
  return {
    name: "OTLP export",
    event: (event: CanonicalEvent) => otlp.trace.event(event),
    get busy() {
      return otlp.busy;
    },
    drained: () => otlp.drained(),
    async end() {
      const warning = await otlp.end();
      if (warning) warn(redactor.text(`agentstream: ${warning}; the run itself is not affected\n`));
    },
  };
}
