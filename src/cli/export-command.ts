import type { Readable } from "node:stream";
import { exportExitCode } from "../core/exit-codes.js";
import { readCanonicalStream } from "../core/read-canonical.js";
import { showControls } from "../core/control-chars.js";
import type { OtlpExport, SpanCounts } from "../export/otlp.js";
import type { RunTrace } from "../export/run-trace.js";
import { replay } from "../app/session.js";
import type { CanonicalEvent } from "../canonical/events.js";
import type { Redactor } from "../core/redactor.js";
import { runRedactor } from "../run/redact.js";
import { VERSION } from "../version.js";
import { openInput } from "./input.js";

export interface ExportOtlpOptions {
  endpoint?: string;
  otlpContent?: boolean;
}

interface FileOutcome {
  file: string;
  /** Why the file is not (wholly) a trace: unreadable, not a canonical stream. */
  unreadable?: string;
  /** Not tried: the collector had failed already. */
  skipped?: boolean;
  counts?: SpanCounts;
  trace?: RunTrace;
}

/** Something that shows how far the export is: a bar on a terminal, nothing elsewhere. */
interface Progress {
  advance(spans: number): void;
  stop(): void;
}

/**
 * `agentstream export otlp FILE...`: every file, one after another in this
 * process, becomes one trace; then a line per file on stderr says what reached
 * the collector, and the exit code whether all of it did.
 */
export async function exportOtlpCommand(files: string[], opts: ExportOtlpOptions): Promise<void> {
  const { OtlpExport, exportWarning, shownUrl } = await import("../export/otlp.js");
  // A recording may echo a key of this environment: hidden as in normalize.
  const redactor = runRedactor([], process.env);
  const otlp = new OtlpExport({
    endpoint: opts.endpoint,
    content: opts.otlpContent === true,
    version: VERSION,
  });
  const progress = await openProgress(files.length);
  const outcomes: FileOutcome[] = [];
  let spans = 0;
  for (const file of files) {
    const outcome = otlp.failure ? { file, skipped: true } : await exportFile(otlp, file, redactor);
    // Until the collector has answered once, each file's spans are sent before the next is read: a collector
    // that is down costs one export timeout, not one per file. After that, the batches run as they come.
    if (!otlp.reached && outcome.trace) await otlp.drained();
    outcomes.push(outcome);
    spans += outcome.trace?.spans ?? 0;
    progress.advance(spans);
  }
  const report = await otlp.close();
  progress.stop();

  let unreadable = 0;
  let unsent = 0;
  for (const outcome of outcomes) {
    const line = describe(outcome, report.error);
    if (outcome.unreadable !== undefined) unreadable++;
    else if (!line.sent) unsent++;
    process.stderr.write(redactor.text(`agentstream: ${showControls(outcome.file)}: ${line.text}\n`));
  }
  const sentFiles = outcomes.length - unreadable - unsent;
  const warning = exportWarning(otlp.url, report);
  const exitCode = exportExitCode(unreadable, unsent);
  const tally = [
    `${sentFiles} of ${outcomes.length} ${outcomes.length === 1 ? "run" : "runs"} exported to ${shownUrl(otlp.url)} (${report.sent} spans)`,
  ];
  if (unsent > 0) tally.push(`${unsent} not sent${report.sent === 0 ? ` (${ELSEWHERE})` : ""}`);
  if (unreadable > 0) tally.push(`${unreadable} unreadable`);
  if (warning && unsent === 0) tally.push(warning);
  process.stderr.write(redactor.text(`agentstream: ${tally.join(" · ")} · exit ${exitCode}\n`));
  process.exitCode = exitCode;
}

/** Said when nothing reached the collector: how to name another one. */
const ELSEWHERE = "is a collector listening there? name yours with --endpoint URL or OTEL_EXPORTER_OTLP_ENDPOINT";

async function exportFile(otlp: OtlpExport, file: string, redactor: Redactor): Promise<FileOutcome> {
  let input: Readable;
  try {
    input = openInput(file);
  } catch (err) {
    return { file, unreadable: (err as Error).message };
  }
  const { trace, counts } = otlp.run();
  // Each event redacted as a run's are; a long batch must not outrun the collector: read on once its queue is half empty.
  const sink = { name: "OTLP export", event: (event: CanonicalEvent) => trace.event(event), end: () => {} };
  const warn = (line: string) => process.stderr.write(redactor.text(line));
  try {
    await replay(readCanonicalStream(input), { redactor, sinks: [sink], warn, waitFor: [otlp] });
  } catch (err) {
    // Not an event: hidden here, as the lines on stderr are.
    trace.abandon(redactor.text((err as Error).message));
    return { file, unreadable: (err as Error).message, counts, trace };
  }
  if (trace.spans === 0)
    return { file, unreadable: "no run.started: not a canonical stream (normalize a native stream first)" };
  trace.abandon("the stream ended without run.finished");
  return { file, counts, trace };
}

function describe(outcome: FileOutcome, firstError: string | undefined): { text: string; sent: boolean } {
  if (outcome.unreadable !== undefined) return { text: `not exported: ${outcome.unreadable}`, sent: false };
  if (outcome.skipped)
    return { text: `not sent: the collector failed earlier (${firstError ?? "export failed"})`, sent: false };
  const counts = outcome.counts!;
  const trace = outcome.trace!;
  const run = trace.finished ? `run ${trace.finished.status}` : "no run.finished: exported as incomplete";
  if (counts.sent === counts.ended)
    return { text: `sent ${counts.sent} spans, trace ${trace.traceId} (${run})`, sent: true };
  return {
    text: `not sent: ${counts.error ?? "no answer from the collector in time"} (${counts.ended - counts.sent} of ${counts.ended} spans)`,
    sent: false,
  };
}

async function openProgress(files: number): Promise<Progress> {
  if (!process.stderr.isTTY) return { advance: () => {}, stop: () => {} };
  const { SingleBar, Presets } = await import("cli-progress");
  const bar = new SingleBar(
    {
      stream: process.stderr,
      format: "exporting {bar} {value}/{total} files · {spans} spans",
      hideCursor: true,
      clearOnComplete: true,
      noTTYOutput: false,
    },
    Presets.shades_classic,
  );
  bar.start(files, 0, { spans: 0 });
  return {
    advance: (spans) => bar.increment(1, { spans }),
    stop: () => bar.stop(),
  };
}
