import type { CanonicalEvent } from "../canonical/events.js";
import type { Redactor } from "../core/redactor.js";
import type { RunOutput } from "../run/output.js";
import { teeOutput } from "./output-tee.js";
import { VERSION } from "../version.js";

/** `--otlp [URL]` and `--otlp-content` as commander gives them. */
export interface OtlpOptions {
  otlp?: string | true;
  otlpContent?: boolean;
}

/** One run exported as it happens; end() waits (boundedly) for the collector and says on stderr what did not reach it. */
export interface OtlpRunExport {
  event(event: CanonicalEvent): void;
  /** Spans are queued faster than they are sent: a replay waits for drained() before it reads on. */
  readonly busy: boolean;
  drained(): Promise<void>;
  end(): Promise<void>;
}

/** The run's export when --otlp was given (OpenTelemetry is loaded only then), else undefined. */
export async function openOtlp(options: OtlpOptions, redactor: Redactor): Promise<OtlpRunExport | undefined> {
  if (options.otlp === undefined) {
    if (options.otlpContent) process.stderr.write("agentstream: --otlp-content does nothing without --otlp\n");
    return undefined;
  }
  const { exportOneRun } = await import("../export/otlp.js");
  const endpoint = options.otlp === true ? undefined : options.otlp;
  const otlp = exportOneRun({ endpoint, content: options.otlpContent === true, redactor, version: VERSION });
  let broken = false;
  return {
    event(event) {
      if (broken) return;
      try {
        otlp.trace.event(event);
      } catch (err) {
        // A bug in the mapping stops the export, never the run.
        broken = true;
        process.stderr.write(`agentstream: OTLP export stopped: bug: ${(err as Error).message}\n`);
      }
    },
    get busy() {
      return otlp.busy;
    },
    drained: () => otlp.drained(),
    async end() {
      const warning = await otlp.end();
      if (warning) process.stderr.write(redactor.text(`agentstream: ${warning}; the run itself is not affected\n`));
    },
  };
}

/** The stdout output, also feeding the run's export (when there is one; it is ended apart, after the run). */
export function withOtlp(output: RunOutput, otlp: OtlpRunExport | undefined): RunOutput {
  return teeOutput(output, otlp && { event: (event) => otlp.event(event), finish: () => {} });
}
