import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import type { Readable } from "node:stream";
import type { Backend, BackendExit } from "../canonical/events.js";
import { systemClock } from "../core/clock.js";
import { UsageError } from "../core/errors.js";
import { EXIT_EPIPE } from "../core/exit-codes.js";
import type { Interruption } from "../core/outcome.js";
import { TailBuffer } from "../core/tail-buffer.js";
import { TranslationSession } from "../core/translation-session.js";
import { VERSION } from "../version.js";
import { runRedactor } from "../run/redact.js";
import { showControls } from "../human/control-chars.js";
import { canonicalStdout, reportBug } from "./canonical-output.js";
import { openInput } from "./input.js";

export interface NormalizeOptions {
  from: Backend | "auto";
  raw: boolean;
  deltas: boolean;
  backendExit?: string;
  stderr?: string;
  maxLineBytes?: number;
  validate: boolean;
}

// A hang-up ends the stream like SIGTERM (exit 143), as for run.
const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

export async function normalizeCommand(file: string, opts: NormalizeOptions): Promise<void> {
  const input = openInput(file);
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

async function translateInput(input: Readable, file: string, opts: NormalizeOptions, interruption: () => Interruption | undefined): Promise<void> {
  const stderrTail = opts.stderr ? await readStderrTail(opts.stderr) : [];
  const backendExit = opts.backendExit === undefined ? null : parseBackendExit(opts.backendExit);
  // A recording may echo a key of this environment: hidden as in run.
  const output = await canonicalStdout({ validate: opts.validate, onGone: () => input.destroy(), redactor: runRedactor([], process.env) });

  const session = new TranslationSession({
    from: opts.from,
    runId: randomUUID(),
    clock: systemClock,
    agentstreamVersion: VERSION,
    started: { mode: "normalize", input: file },
    includeRaw: opts.raw,
    deltas: opts.deltas,
    maxLineBytes: opts.maxLineBytes,
    onTranslatorBug: reportBug,
    sink: output.sink,
  });

  let readError: string | undefined;
  try {
    for await (const chunk of input) {
      output.writer.batch(() => session.write(chunk as Buffer));
      if (output.writer.needsDrain) await output.writer.drained();
      if (output.writer.closed || interruption()) break;
    }
  } catch (err) {
    // Destroyed by a stop signal: not a read error.
    if (!interruption()) {
      // The stream still ends with run.finished: what was read is translated, the run failed on our side.
      readError = `cannot read ${file === "-" ? "stdin" : file}: ${(err as Error).message}`;
    }
  }
  if (output.writer.closed) {
    process.exitCode = EXIT_EPIPE;
    return;
  }
  if (readError) process.stderr.write(`agentstream: ${showControls(readError)}\n`);
  const outcome = session.end({ backendExit, stderrTail }, interruption(), readError ? { code: "internal", message: readError } : undefined);
  process.exitCode = output.writer.closed ? EXIT_EPIPE : outcome.exitCode;
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
