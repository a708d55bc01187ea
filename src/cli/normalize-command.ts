import { createReadStream } from "node:fs";
import type { Readable } from "node:stream";
import type { BackendExit, CanonicalEvent, EventOf } from "../canonical/events.js";
import { UsageError } from "../core/errors.js";
import type { Interruption } from "../core/outcome.js";
import { TailBuffer } from "../core/tail-buffer.js";
import { MAX_HELD_BYTES } from "../core/translation-session.js";
import { TRANSLATORS, type BackendName } from "../backends/registry.js";
import { stderrChalk } from "../human/colour.js";
import { VERSION } from "../version.js";
import { runRedactor } from "../run/redact.js";
import { openCliSinks, type CliSinkOptions } from "../output/cli-sinks.js";
import { reportBug } from "../output/event-check.js";
import { OutputPipeline } from "../output/pipeline.js";
import { stdoutSink, type OutputFormat } from "../output/stdout-sink.js";
import { readUsageFile } from "../run/usage-file.js";
import { showControls } from "../core/control-chars.js";
import { runIdentity } from "./fixture-identity.js";
import { openInput } from "./input.js";
import { guessNotice, normalizeSummary, TERMINAL_NOTICE } from "./normalize-summary.js";

export interface NormalizeOptions extends Omit<CliSinkOptions, "report" | "summary"> {
  from: BackendName | "auto";
  raw: boolean;
  deltas: boolean;
  backendExit?: string;
  stderr?: string;
  /** The usage file the recorded backend wrote beside its stream (Copilot's --usage-output-file). */
  usageFile?: string;
  /** The model of usage whose stream names none (--model). */
  model?: string;
  maxLineBytes?: number;
  validate: boolean;
  output: OutputFormat;
}

// A hang-up ends the stream like SIGTERM (exit 143), as for run.
const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

export async function normalizeCommand(file: string, opts: NormalizeOptions): Promise<void> {
  const input = openInput(file);
  if (file === "-" && process.stdin.isTTY) process.stderr.write(TERMINAL_NOTICE);
  // A signal while reading (a pipe, a FIFO, a slow stdin) stops the reading;
  // what was read is translated and the stream ends with run.finished cancelled.
  let interruption: Interruption | undefined;
  const onSignal = (signal: (typeof STOP_SIGNALS)[number]): void => {
    interruption ??= { kind: "signal", signal };
    input.destroy();
  };
  // Kept to the end (they hold no event loop open): a signal while stdout drains must not cut run.finished.
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  await translateInput(input, file, opts, () => interruption);
}

/** Read before the stream: a file that is not there is the caller's mistake, said before any output. */
function usageFileText(path: string): string {
  const read = readUsageFile(path);
  if ("problem" in read)
    throw new UsageError(
      `--usage-file ${path}: ${read.problem}`,
      "give the file the backend wrote its usage to (Copilot CLI: --usage-output-file)",
    );
  return read.text;
}

async function translateInput(
  input: Readable,
  file: string,
  opts: NormalizeOptions,
  interruption: () => Interruption | undefined,
): Promise<void> {
  const stderrTail = opts.stderr ? await readStderrTail(opts.stderr) : [];
  const backendExit = opts.backendExit === undefined ? null : parseBackendExit(opts.backendExit);
  const usageFile = opts.usageFile === undefined ? undefined : usageFileText(opts.usageFile);
  // A recording may echo a key of this environment: hidden as in run.
  const redactor = runRedactor([], process.env);
  const stdout = await stdoutSink(opts.output, { validate: opts.validate, onGone: () => input.destroy() });
  const { sinks, otlp } = await openCliSinks(opts, {
    redactor,
    version: VERSION,
    say: (message) =>
      process.stderr.write(`agentstream: ${message}
`),
  });
  let finished: EventOf<"run.finished"> | undefined;
  // The first and last times the stream states: native_ts strings share one format, so they compare as text.
  let firstNative: string | undefined;
  let lastNative: string | undefined;
  // The summary on stderr quotes the run's end as it was written.
  const finishedSink = {
    name: "summary",
    event: (event: CanonicalEvent) => {
      if (event.type === "run.finished") finished = event;
      const at = event.native_ts;
      if (at !== undefined) {
        firstNative ??= at;
        if (lastNative === undefined || at > lastNative) lastNative = at;
      }
    },
    end: () => {},
  };
  const output = new OutputPipeline(redactor, [stdout, ...sinks, finishedSink], (line) => process.stderr.write(line));
  const writer = stdout.writer;
  let reading = true;
  let bytesRead = 0;
  let nativeEvents = 0;

  const session = output.translate({
    from: opts.from,
    translators: TRANSLATORS,
    ...runIdentity(),
    started: { mode: "normalize", input: file },
    includeRaw: opts.raw,
    deltas: opts.deltas,
    ...(opts.model !== undefined ? { model: () => opts.model } : {}),
    maxLineBytes: opts.maxLineBytes,
    onTranslatorBug: reportBug,
    onNativeEvent: () => nativeEvents++,
    // A guess made while reading (a live pipe) is said at once; one at the end, in the summary.
    onGuess: (verdict) => reading && process.stderr.write(guessNotice(verdict, MAX_HELD_BYTES)),
  });

  let readError: string | undefined;
  try {
    for await (const chunk of input) {
      bytesRead += (chunk as Buffer).length;
      writer.batch(() => session.write(chunk as Buffer));
      if (writer.needsDrain) await writer.drained();
      if (otlp?.busy) await otlp.drained();
      if (writer.closed || interruption()) break;
    }
  } catch (err) {
    // Destroyed by a stop signal: not a read error.
    if (!interruption()) {
      // The stream still ends with run.finished: what was read is translated, the run failed on our side.
      readError = `cannot read ${file === "-" ? "stdin" : file}: ${(err as Error).message}`;
    }
  }
  if (writer.closed) {
    process.exitCode = writer.lostExitCode;
    await output.end();
    return;
  }
  if (readError) process.stderr.write(`agentstream: ${showControls(readError)}\n`);
  reading = false;
  const outcome = session.end(
    { backendExit, stderrTail, ...(usageFile !== undefined ? { usageFile } : {}) },
    interruption(),
    readError ? { code: "internal", message: readError } : undefined,
  );
  process.exitCode = outcome.exitCode;
  await output.end();
  process.exitCode = writer.lostExitCode ?? outcome.exitCode;
  if (!writer.closed && finished) {
    const facts = {
      input: file,
      backend: session.backend!,
      detection: session.detection!,
      content: session.content,
      bytesRead,
      nativeEvents,
      finished,
      // One stated time (one native line) tells no duration.
      nativeSpanMs: lastNative === firstNative ? null : Date.parse(lastNative!) - Date.parse(firstNative!),
    };
    process.stderr.write(redactor.text(normalizeSummary(facts, stderrChalk())));
  }
}

function parseBackendExit(value: string): BackendExit {
  if (/^\d+$/.test(value)) {
    const code = Number(value);
    if (code > 255) throw new UsageError(`--backend-exit ${value}: an exit code is 0-255`);
    return { code, signal: null };
  }
  return { code: null, signal: value };
}

/** The last lines of a recorded stderr, read in chunks: only the tail is kept. */
async function readStderrTail(path: string): Promise<string[]> {
  const tail = new TailBuffer();
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 64 * 1024 })) tail.push(chunk as Buffer);
  } catch (err) {
    throw new UsageError(`cannot read --stderr ${path}: ${(err as Error).message}`);
  }
  return tail.snapshot();
}
