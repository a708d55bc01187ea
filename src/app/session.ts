// The one composition of a run and of a normalization, for the CLI and the
// library alike: the caller hands a spec (what to run or read, how to
// translate it, its limits and times) and a host (where the events go, what
// the user is told, how it may be stopped); this is the only place an
// OutputPipeline is built, so every event is redacted once, here, whoever
// reads it. The caller reads `events` to the end (its return value is how the
// run ended), then calls end() to close the sinks.
import type { BackendName } from "../backends/registry.js";
import { TRANSLATORS, backendNamed } from "../backends/registry.js";
import type { CanonicalEvent, EventPayloads } from "../canonical/events.js";
import type { Clock } from "../core/clock.js";
import type { Redactor } from "../core/redactor.js";
import { EventQueue } from "../core/event-queue.js";
import type { Interruption, RunOutcome } from "../core/outcome.js";
import type { TranslationSession, TranslationSessionOptions } from "../core/translation-session.js";
import type { StreamEndFacts, Verdict } from "../core/translator.js";
import { OutputPipeline } from "../output/pipeline.js";
import type { Sink } from "../output/sink.js";
import type { RunHost } from "../run/host.js";
import type { OutputSink } from "../run/supervisor.js";
import { superviseRun, type OutcomeOrReaderGone, type RunSpec } from "./agent-run.js";
import type { Part } from "./request.js";
import { outputSchemaShown, type OutputSchema } from "../run/output-schema.js";

/** Where the events go and what is said of a sink that fails: the part of a host every session has. */
interface SinkHost {
  /** Where the events go besides the caller's loop (stdout, files, OTLP, the renderer), each redacted once. */
  sinks: readonly (Sink | undefined)[];
  /** A sink that failed, said on one line. */
  warn(line: string): void;
}

/** A run's host (src/run/host.ts) with its sinks. */
export interface RunSessionHost extends RunHost, SinkHost {
  /**
   * What the events are written to, whose backpressure pauses the backend (the CLI's stdout). Absent: the
   * events are the session's to yield (the library), and the backend waits while they are not read.
   */
  output?: OutputSink & { batch?<T>(work: () => T): T };
}

/** A started run or normalization. */
export interface Session<End> {
  /** The events, when the host yields them (the library); its return value is how the run ended. */
  events: AsyncGenerator<CanonicalEvent, End>;
  /** Every sink writes what it keeps (a report, the answer) or finishes sending; never rejects. */
  end(): Promise<void>;
}

export interface RunSession extends Session<OutcomeOrReaderGone> {
  /** The reader of the events is gone (stdout closed): the backend is stopped. */
  readerGone(): void;
}

/** Start the planned backend: its events to the host's sinks (and to `events` when the host has no output). */
export function startRun(spec: RunSpec, host: RunSessionHost): RunSession {
  const queue = host.output ? undefined : new EventQueue<CanonicalEvent>();
  const caller = queue && { name: "run()", event: (event: CanonicalEvent) => queue.push(event), end: () => {} };
  const output = new OutputPipeline(spec.plan.redactor, [caller, ...host.sinks], host.warn);
  const running = superviseRun(spec, host, {
    events: output,
    output: host.output ?? queue!,
    ...(host.output?.batch ? { batch: host.output.batch.bind(host.output) } : {}),
  });
  const settled = running.ended.finally(() => queue?.end());
  async function* events(): AsyncGenerator<CanonicalEvent, OutcomeOrReaderGone> {
    let finished = false;
    try {
      if (queue) for (let event = await queue.next(); event !== undefined; event = await queue.next()) yield event;
      const end = await settled;
      finished = true;
      return end;
    } finally {
      if (!finished) {
        // The caller left the loop early: stop the backend and wait for it, so nothing outlives the run.
        queue?.close();
        running.readerGone();
        await settled.catch(() => undefined);
      }
    }
  }
  return { events: events(), end: () => output.end(), readerGone: running.readerGone };
}

/** A normalization: the recorded stream's protocol, how it is translated, and how the recorded backend ended. */
export interface NormalizeSpec {
  from: BackendName | "auto";
  translation: Part<"normalize", "translation">;
  /** The model the recorded run used, for usage whose stream names none. */
  model?: string;
  /** Shown as run.started.input. */
  inputName?: string;
  /** How the recorded backend ended, its stderr's tail and the usage file it wrote. */
  end: StreamEndFacts;
  /** --output-schema: the recording's answer is checked against it (run.started.output_schema.via "none"). */
  outputSchema?: OutputSchema;
}

export interface NormalizeHost extends SinkHost {
  runId: string;
  clock: Clock;
  /** Hears of a translator bug (the event it threw on is kept as backend.event). */
  onTranslatorBug(message: string): void;
  agentstreamVersion: string;
  /** Hides the secrets of this environment that a recording may echo. */
  redactor: Redactor;
  /** Yield the events (the library), or only hand them to the sinks (the CLI). */
  yieldEvents: boolean;
  /** What the events are written to: the input is read on once it drained, and no more once it closed. */
  output?: OutputSink & { batch?<T>(work: () => T): T };
  /** Others that may hold the reading (an OTLP export whose queue is full). */
  waitFor?: { readonly busy: boolean; drained(): Promise<void> }[];
  /** Set once reading should stop (a stop signal): the stream ends cancelled. */
  interruption?(): Interruption | undefined;
  /** Aborted (its reason the Interruption) when a stop signal comes while the answer is checked (--output-schema). */
  stopCheck?: AbortSignal;
  /** A read error ends the run failed ("end", the CLI, which says it with `say`), or is thrown to the caller. */
  readError: "end" | "throw";
  say?(text: string): void;
  onNativeEvent?(): void;
  onGuess?(verdict: Verdict): void;
}

/** How a normalization ended: its outcome and what the CLI's summary says of it, or that stdout closed first. */
export type NormalizeEnd =
  | {
      kind: "finished";
      outcome: RunOutcome;
      session: Pick<TranslationSession, "backend" | "detection" | "content">;
      bytesRead: number;
    }
  | { kind: "stdout_closed" };

/** Read a native stream to its end, translating each chunk as it arrives. */
export function startNormalize(
  input: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  spec: NormalizeSpec,
  host: NormalizeHost,
): Session<NormalizeEnd> {
  let ready: CanonicalEvent[] = [];
  const caller = host.yieldEvents
    ? { name: "normalizeStream()", event: (event: CanonicalEvent) => ready.push(event), end: () => {} }
    : undefined;
  const output = new OutputPipeline(host.redactor, [caller, ...host.sinks], host.warn);
  let reading = true;
  const translation: Omit<TranslationSessionOptions, "sink"> = {
    from: spec.from,
    translators: TRANSLATORS,
    runId: host.runId,
    clock: host.clock,
    agentstreamVersion: host.agentstreamVersion,
    started: {
      mode: "normalize",
      ...(spec.inputName !== undefined ? { input: spec.inputName } : {}),
      ...(spec.outputSchema ? { output_schema: outputSchemaShown(spec.outputSchema, "none") } : {}),
      ...transportOf(spec.from),
    },
    ...(spec.outputSchema ? { outputSchema: spec.outputSchema } : {}),
    includeRaw: spec.translation.raw,
    deltas: spec.translation.deltas,
    promptInStream: spec.translation.promptInStream,
    ...(spec.model !== undefined ? { model: () => spec.model } : {}),
    maxLineBytes: spec.translation.maxLineBytes,
    onTranslatorBug: host.onTranslatorBug,
    ...(host.onNativeEvent ? { onNativeEvent: host.onNativeEvent } : {}),
    // A guess made while reading (a live pipe) is said at once; one at the end, by the caller.
    ...(host.onGuess ? { onGuess: (verdict: Verdict) => reading && host.onGuess!(verdict) } : {}),
  };
  const session = output.translate(translation);
  const writer = host.output;
  const batch = writer?.batch ? writer.batch.bind(writer) : <T>(work: () => T): T => work();
  const interrupted = host.interruption ?? (() => undefined);

  async function* events(): AsyncGenerator<CanonicalEvent, NormalizeEnd> {
    let bytesRead = 0;
    let readError: string | undefined;
    try {
      for await (const read of input) {
        const chunk = typeof read === "string" ? Buffer.from(read) : read;
        bytesRead += chunk.length;
        batch(() => session.write(chunk));
        if (ready.length > 0) {
          const taken = ready;
          ready = [];
          yield* taken;
        }
        if (writer?.needsDrain) await writer.drained();
        for (const other of host.waitFor ?? []) if (other.busy) await other.drained();
        if (writer?.closed || interrupted()) break;
      }
    } catch (err) {
      if (host.readError === "throw") throw err;
      // Destroyed by a stop signal: not a read error. Otherwise the stream still ends with run.finished:
      // what was read is translated, the run failed on our side.
      if (!interrupted()) readError = `cannot read ${inputShown(spec.inputName)}: ${(err as Error).message}`;
    }
    if (writer?.closed) return { kind: "stdout_closed" };
    if (readError) host.say?.(readError);
    reading = false;
    const outcome = await session.endChecked(
      spec.end,
      interrupted(),
      readError ? { code: "internal", message: readError } : undefined,
      host.stopCheck ? { stop: host.stopCheck } : {},
    );
    yield* ready;
    ready = [];
    return { kind: "finished", outcome, session, bytesRead };
  }
  return { events: events(), end: () => output.end() };
}

/** `--from qwen`: an ACP recording read under Qwen Code's name says so, as its run would. */
function transportOf(from: string): Pick<EventPayloads["run.started"], "transport"> {
  const transport = from === "auto" ? undefined : backendNamed(from).transport;
  return transport === undefined ? {} : { transport };
}

function inputShown(name: string | undefined): string {
  return name === undefined || name === "-" ? "stdin" : name;
}

/** A session's events read to the end when they go to the host's sinks only: how it ended. */
export async function ending<End>(session: Session<End>): Promise<End> {
  for (;;) {
    const next = await session.events.next();
    if (next.done) return next.value;
  }
}

/**
 * A recorded canonical stream handed on (export otlp FILE): each event redacted once, as a run's are, then to
 * the sinks. Reading waits while one of `waitFor` is busy; a read error is thrown to the caller.
 */
export async function replay(
  events: AsyncIterable<CanonicalEvent>,
  host: SinkHost & {
    redactor: Redactor;
    waitFor?: { readonly busy: boolean; drained(): Promise<void> }[];
  },
): Promise<void> {
  const output = new OutputPipeline(host.redactor, host.sinks, host.warn);
  try {
    for await (const event of events) {
      output.event(event);
      for (const other of host.waitFor ?? []) if (other.busy) await other.drained();
    }
  } finally {
    await output.end();
  }
}
