import type { Readable } from "node:stream";
import type { CanonicalEvent, EventOf } from "../canonical/events.js";
import { StoppedBeforeStart, UsageError } from "../core/errors.js";
import type { Interruption } from "../core/outcome.js";
import { TailBuffer } from "../core/tail-buffer.js";
import type { Redactor } from "../core/redactor.js";
import { MAX_HELD_BYTES } from "../core/translation-session.js";
import { stderrChalk } from "../human/colour.js";
import { VERSION } from "../version.js";
import { runRedactor } from "../run/redact.js";
import { openCliSinks } from "../app/cli-sinks.js";
import { inputFile, refuseOverwrites, stdoutFile } from "../app/shared-files.js";
import { cliNaming } from "../app/options.js";
import { part, requestFromCli, type NormalizeRequest } from "../app/request.js";
import { reportBug } from "../output/event-check.js";
import { ending, startNormalize } from "../app/session.js";
import { loadOutputSchema, type OutputSchema } from "../run/output-schema.js";
import { stdoutSink } from "../output/stdout-sink.js";
import { readUsageFile } from "../run/usage-file.js";
import { MAX_RECORDING_BYTES, readFileBounded } from "../run/bounded-file.js";
import { EarlyStop, STOP_SIGNALS, type StopSignal, type StopWatch } from "../run/stop-signals.js";
import { showControls } from "../core/control-chars.js";
import { runIdentity } from "./fixture-identity.js";
import { openInput } from "./input.js";
import { guessNotice, normalizeSummary, TERMINAL_NOTICE } from "./normalize-summary.js";

/** `agentstream normalize`: commander's parsed flags become the request, as normalizeStream()'s options do. */
export async function normalizeCommand(file: string, parsed: Record<string, unknown>): Promise<void> {
  const { request: opts, notes } = requestFromCli("normalize", parsed);
  // No output overwrites an input or another output: refused before anything is read.
  refuseOverwrites("normalize", opts, [inputFile(file), stdoutFile()]);
  for (const note of notes) process.stderr.write(`agentstream: ${note(cliNaming)}\n`);
  const input = openInput(file);
  // A recording may echo a key of this environment: hidden as in run.
  const redactor = runRedactor([], process.env);
  let read: OptionFiles;
  try {
    read = await readOptionFiles(opts, redactor);
  } catch (err) {
    input.destroy();
    throw err;
  }
  if (file === "-" && process.stdin.isTTY) process.stderr.write(TERMINAL_NOTICE);
  // A signal while reading (a pipe, a FIFO, a slow stdin) stops the reading;
  // what was read is translated and the stream ends with run.finished cancelled.
  let interruption: Interruption | undefined;
  // A signal while the answer is checked (--output-schema) stops the check.
  const stopCheck = new AbortController();
  // A hang-up ends the stream like SIGTERM (exit 143), as for run.
  const onSignal = (signal: StopSignal): void => {
    interruption ??= { kind: "signal", signal };
    input.destroy();
    stopCheck.abort(interruption);
  };
  // Kept to the end (they hold no event loop open): a signal while stdout drains must not cut run.finished.
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  await translateInput(input, file, opts, read, redactor, {
    interruption: () => interruption,
    stopCheck: stopCheck.signal,
  });
}

/** What the options' files say, read before the stream. */
interface OptionFiles {
  stderrTail: string[];
  usageFile?: string;
  outputSchema?: OutputSchema;
}

/**
 * The files the options name, read before anything is written: each no further than its bound, and a
 * stop signal meanwhile (a FIFO no one writes to) ends agentstream with nothing on stdout.
 */
async function readOptionFiles(opts: NormalizeRequest, redactor: Redactor): Promise<OptionFiles> {
  const stops = new EarlyStop();
  try {
    const stderrTail = opts.stderr ? await readStderrTail(opts.stderr, stops, redactor) : [];
    const usageFile = opts.usageFile === undefined ? undefined : await usageFileText(opts.usageFile, stops);
    const outputSchema = opts.outputSchema === undefined ? undefined : await loadOutputSchema(opts.outputSchema, stops);
    return { stderrTail, ...(usageFile !== undefined ? { usageFile } : {}), ...(outputSchema ? { outputSchema } : {}) };
  } finally {
    stops.end();
  }
}

/** Read before the stream: a file that is not there is the caller's mistake, said before any output. */
async function usageFileText(path: string, stops: StopWatch): Promise<string> {
  const read = await readUsageFile(path, stops);
  if ("stopped" in read) throw new StoppedBeforeStart(read.stopped, `reading --usage-file ${path}`);
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
  opts: NormalizeRequest,
  { stderrTail, usageFile, outputSchema }: OptionFiles,
  redactor: Redactor,
  stops: { interruption: () => Interruption | undefined; stopCheck: AbortSignal },
): Promise<void> {
  const backendExit = opts.end?.backendExit ?? null;
  // Every line normalize says may quote the recording: written through the redactor, as run's are.
  const stderr = redactor.stream(process.stderr);
  const stdout = await stdoutSink(opts.output, { validate: opts.validate, onGone: () => input.destroy() });
  const { sinks, otlp } = await openCliSinks(part("normalize", opts, "outputs"), {
    redactor,
    version: VERSION,
    say: (message) => stderr.write(redactor.shown(`agentstream: ${message}\n`)),
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
  const writer = stdout.writer;
  let nativeEvents = 0;
  const spec = {
    from: opts.from,
    translation: part("normalize", opts, "translation"),
    ...(opts.model !== undefined ? { model: opts.model } : {}),
    inputName: file,
    ...(outputSchema ? { outputSchema } : {}),
    end: { backendExit, stderrTail, ...(usageFile !== undefined ? { usageFile } : {}) },
  };
  const session = startNormalize(input, spec, {
    ...runIdentity(),
    redactor,
    sinks: [stdout, ...sinks, finishedSink],
    warn: (line) => stderr.write(redactor.shown(line)),
    yieldEvents: false,
    output: writer,
    waitFor: otlp ? [otlp] : [],
    ...stops,
    readError: "end",
    say: (text) => stderr.write(`agentstream: ${showControls(text)}\n`),
    onTranslatorBug: (message) => reportBug(message, stderr),
    onNativeEvent: () => nativeEvents++,
    onGuess: (verdict) => stderr.write(guessNotice(verdict, MAX_HELD_BYTES)),
  });
  const end = await ending(session);
  if (end.kind === "stdout_closed") {
    process.exitCode = writer.lostExitCode;
    await session.end();
    return;
  }
  const { outcome } = end;
  process.exitCode = outcome.exitCode;
  await session.end();
  process.exitCode = writer.lostExitCode ?? outcome.exitCode;
  if (!writer.closed && finished) {
    const facts = {
      input: file,
      backend: end.session.backend!,
      detection: end.session.detection!,
      content: end.session.content,
      bytesRead: end.bytesRead,
      nativeEvents,
      finished,
      // One stated time (one native line) tells no duration.
      nativeSpanMs: lastNative === firstNative ? null : Date.parse(lastNative!) - Date.parse(firstNative!),
    };
    stderr.write(normalizeSummary(facts, stderrChalk()));
  }
}

/** The last lines of a recorded stderr, read in chunks: only the tail is kept. */
async function readStderrTail(path: string, stops: StopWatch, redactor: Redactor): Promise<string[]> {
  // Redacted before it is cut: a secret the cut would halve is still found whole.
  const tail = new TailBuffer(undefined, undefined, (text) => redactor.text(text));
  const read = await readFileBounded(path, { bound: MAX_RECORDING_BYTES, stops, chunkBytes: 1024 * 1024 }, (chunk) =>
    tail.push(chunk),
  );
  if ("stopped" in read) throw new StoppedBeforeStart(read.stopped, `reading --stderr ${path}`);
  if ("refused" in read) throw new UsageError(`cannot read --stderr ${path}: ${read.refused.problem}`);
  return tail.snapshot();
}
