import { SpanKind, SpanStatusCode, type Attributes } from "@opentelemetry/api";
import { exportWarning, OtlpExport, type OtlpSettings } from "./otlp.js";
import type { TraceParent } from "./run-trace.js";

// A compare with --otlp is one trace: this span is its root, each cell's run (its own export, given
// `parent`) hangs under it. Its time is the compare's own (the clock), its runs' the streams'.

/** agentstream's attributes of a compare's span. */
export const COMPARE_ATTR = {
  cells: "agentstream.compare.cells",
  agents: "agentstream.compare.agents",
  shard: "agentstream.compare.shard",
  exitCode: "agentstream.compare.exit_code",
  passed: "agentstream.compare.passed",
  failed: "agentstream.compare.failed",
  resumed: "agentstream.compare.resumed",
} as const;

export interface CompareSpan {
  /** What each cell's run is given: its trace hangs under this span. */
  parent: TraceParent;
  /** Ends the span with the compare's outcome, sends it, and gives the warning line when it did not reach the collector. */
  end(outcome: CompareOutcome): Promise<string | undefined>;
}

export interface CompareOutcome {
  exitCode: number;
  passed: number;
  failed: number;
  resumed: number;
  stoppedBy?: "SIGINT" | "SIGTERM";
}

export function openCompareSpan(settings: Omit<OtlpSettings, "parent">, attributes: Attributes): CompareSpan {
  const otlp = new OtlpExport(settings);
  const span = otlp.tracer().startSpan("agentstream.compare", { kind: SpanKind.INTERNAL, attributes, root: true });
  const { traceId, spanId } = span.spanContext();
  return {
    parent: { traceId, spanId },
    async end(outcome) {
      span.setAttributes({
        [COMPARE_ATTR.exitCode]: outcome.exitCode,
        [COMPARE_ATTR.passed]: outcome.passed,
        [COMPARE_ATTR.failed]: outcome.failed,
        [COMPARE_ATTR.resumed]: outcome.resumed,
      });
      if (outcome.exitCode !== 0)
        span.setStatus({
          code: SpanStatusCode.ERROR,
          message: outcome.stoppedBy
            ? `stopped by ${outcome.stoppedBy}`
            : `${outcome.failed} of ${outcome.passed + outcome.failed} cell(s) did not pass`,
        });
      span.end();
      return exportWarning(otlp.url, await otlp.close());
    },
  };
}
