import type { Readable } from "node:stream";
import type { CanonicalEvent, EventOf } from "../canonical/events.js";
import type { Interruption } from "../core/outcome.js";
import { MAX_HELD_BYTES } from "../core/translation-session.js";
import { stderrChalk } from "../human/colour.js";
import { inputFile, refuseOverwrites, stdoutFile } from "../app/shared-files.js";
import { cliNaming } from "../app/options.js";
import { requestFromCli, type NormalizeRequest } from "../app/request.js";
import { prepareNormalize, type NormalizeSpec } from "../app/normalize-plan.js";
import { reportBug } from "../output/event-check.js";
import { ending, startNormalize } from "../app/session.js";
import { cliOutputs } from "../app/sinks.js";
import { stdoutSink } from "../output/stdout-sink.js";
import { EarlyStop, STOP_SIGNALS, type StopSignal } from "../run/stop-signals.js";
import { showControls } from "../core/control-chars.js";
import { runIdentity } from "./fixture-identity.js";
import { openInput } from "./input.js";
import { guessNotice, normalizeSummary, TERMINAL_NOTICE } from "./normalize-summary.js";

/** `agentstream normalize`: commander's parsed flags become the request, as normalizeStream()'s options do. */
export async function normalizeCommand(file: string, parsed: Record<string, unknown>): Promise<void> {
  const { request, notes } = requestFromCli("normalize", parsed);
  // No output overwrites an input or another output: refused before anything is read.
  refuseOverwrites("normalize", request, [inputFile(file), stdoutFile()]);
  for (const note of notes) process.stderr.write(`agentstream: ${note(cliNaming)}\n`);
  const input = openInput(file);
  // The files the options name are read before the stream: a stop signal meanwhile (a FIFO no one writes
  // to) ends agentstream with nothing on stdout.
  const stops = new EarlyStop();
  let spec: NormalizeSpec;
  try {
    spec = await prepareNormalize(request, { inputName: file, stops });
  } catch (err) {
    input.destroy();
    throw err;
  } finally {
    stops.end();
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
  await translateInput(input, file, request, spec, {
    interruption: () => interruption,
    stopCheck: stopCheck.signal,
  });
}

async function translateInput(
  input: Readable,
  file: string,
  opts: NormalizeRequest,
  spec: NormalizeSpec,
  stops: { interruption: () => Interruption | undefined; stopCheck: AbortSignal },
): Promise<void> {
  const { redactor } = spec.plan;
  // Every line normalize says may quote the recording: written through the redactor, as run's are.
  const stderr = redactor.stream(process.stderr);
  const stdout = await stdoutSink(opts.output, { validate: opts.validate, onGone: () => input.destroy() });
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
  const session = await startNormalize(input, spec, {
    ...runIdentity(),
    stdout,
    outputs: cliOutputs((message) => stderr.write(redactor.shown(`agentstream: ${message}\n`))),
    sinks: [finishedSink],
    warn: (line) => stderr.write(redactor.shown(line)),
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
