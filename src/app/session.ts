// The one composition of a run and of a normalization, for the CLI, the library and any other command:
// the caller hands a spec (what to run or read as planned, how to translate it, its limits and times, the
// outputs its request asks for) and a host (who the run is, where else the events go, what the user is
// told, how it may be stopped); the outputs' sinks are opened here, and this is the only place an
// OutputPipeline is built, so every event is redacted once, here, whoever reads it. The caller reads
// `events` to the end (its return value is how the run ended), then calls end() to close the sinks.
import { TRANSLATORS, backendNamed } from "../backends/registry.js";
import type { CanonicalEvent, EventPayloads } from "../canonical/events.js";
import type { Clock } from "../core/clock.js";
import type { Redactor } from "../core/redactor.js";
import { EventQueue } from "../core/event-queue.js";
import type { Interruption, RunOutcome } from "../core/outcome.js";
import type { TranslationSession, TranslationSessionOptions } from "../core/translation-session.js";
import type { Verdict } from "../core/translator.js";
import { OutputPipeline } from "../output/pipeline.js";
import type { Sink } from "../output/sink.js";
import type { RunHost } from "../run/host.js";
import type { OutputSink } from "../run/supervisor.js";
import type { RunSpec } from "./agent-run.js";
import type { NormalizeSpec } from "./normalize-plan.js";
import { outputSchemaShown } from "../run/output-schema.js";
import { openSinks, type OpenedSinks, type OutputsSide } from "./sinks.js";
import { superviseRun, type OutcomeOrReaderGone } from "./supervise-run.js";
import { VERSION } from "../version.js";

/** Where the events go and what is said of a sink that fails: the part of a host every session has. */
interface SinkHost {
  /** Where the events go besides the caller's loop (stdout, files, OTLP, the renderer), each redacted once. */
  sinks: readonly (Sink | undefined)[];
  /** A sink that failed, said on one line. */
  warn(line: string): void;
}

/** What the events are written to, whose backpressure holds the backend or the reading. */
export type SessionOutput = OutputSink & { batch?<T>(work: () => T): T };

/**
 * The host of every session, whatever the command (run, normalize, a command of its own) and the side
 * (the CLI, the library): who the run is, where its events go besides the sinks its request's outputs
 * open (those are opened here, as `outputs` says them), and what is said of a sink that fails. What a
 * command adds is its own: a run's process (src/run/host.ts), a normalization's reading.
 */
export interface SessionHost extends SinkHost {
  runId: string;
  clock: Clock;
  /** agentstream's version as run.started states it; the running one unless given (a test's fixture). */
  agentstreamVersion?: string;
  /** Hears of a translator bug (the event it threw on is kept as backend.event). */
  onTranslatorBug(message: string): void;
  /**
   * stdout (the CLI): the first sink, and what the events are written to, whose backpressure pauses the
   * backend or the reading. Absent: the events are the session's to yield (the library), and the backend
   * or the reading waits while they are not read.
   */
  stdout?: Sink & { writer: SessionOutput };
  /** How this side names and says the outputs its request asks for (src/app/sinks.ts). */
  outputs: OutputsSide;
}

/** A run's host: the session's, and the run's own (src/run/host.ts). */
export interface RunSessionHost extends RunHost, SessionHost {}

/** A normalization's host: the session's, and how its reading is stopped and heard. */
export interface NormalizeHost extends SessionHost {
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

/** The one output pipeline of a session: the caller's loop (when it yields), stdout, the outputs' sinks, the host's own. */
function pipeline(
  redactor: Redactor,
  host: SessionHost,
  opened: OpenedSinks,
  caller: Sink | undefined,
): OutputPipeline {
  return new OutputPipeline(redactor, [caller, host.stdout, ...opened.sinks, ...host.sinks], host.warn);
}

/**
 * Start the planned backend: the sinks its request's outputs ask for opened (a refused one is a usage
 * error before anything starts), its events to every sink (and to `events` when the host has no stdout).
 */
export async function startRun(spec: RunSpec, host: RunSessionHost): Promise<RunSession> {
  const opened = await openSinks(spec.outputs, spec.plan.redactor, host.outputs);
  const queue = host.stdout ? undefined : new EventQueue<CanonicalEvent>();
  const caller = queue && { name: "run()", event: (event: CanonicalEvent) => queue.push(event), end: () => {} };
  const output = pipeline(spec.plan.redactor, host, opened, caller);
  const writer = host.stdout?.writer;
  const running = superviseRun(spec, host, {
    events: output,
    output: writer ?? queue!,
    agentstreamVersion: host.agentstreamVersion ?? VERSION,
    ...(writer?.batch ? { batch: writer.batch.bind(writer) } : {}),
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

/** How a normalization ended: its outcome and what the CLI's summary says of it, or that stdout closed first. */
export type NormalizeEnd =
  | {
      kind: "finished";
      outcome: RunOutcome;
      session: Pick<TranslationSession, "backend" | "detection" | "content">;
      bytesRead: number;
    }
  | { kind: "stdout_closed" };

/**
 * Read a native stream to its end, translating each chunk as it arrives: the sinks its request's outputs
 * ask for opened first (a refused one is a usage error before anything is read), its events to every sink
 * (and to `events` when the host has no stdout).
 */
export async function startNormalize(
  input: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  spec: NormalizeSpec,
  host: NormalizeHost,
): Promise<Session<NormalizeEnd>> {
  const { plan } = spec;
  const opened = await openSinks(spec.outputs, plan.redactor, host.outputs);
  let ready: CanonicalEvent[] = [];
  const caller = host.stdout
    ? undefined
    : { name: "normalizeStream()", event: (event: CanonicalEvent) => ready.push(event), end: () => {} };
  const output = pipeline(plan.redactor, host, opened, caller);
  // An OTLP export whose queue is full holds the reading.
  const waitFor = opened.otlp ? [opened.otlp] : [];
  let reading = true;
  const translation: Omit<TranslationSessionOptions, "sink"> = {
    from: plan.from,
    translators: TRANSLATORS,
    runId: host.runId,
    clock: host.clock,
    agentstreamVersion: host.agentstreamVersion ?? VERSION,
    started: {
      mode: "normalize",
      ...(plan.inputName !== undefined ? { input: plan.inputName } : {}),
      ...(plan.outputSchema ? { output_schema: outputSchemaShown(plan.outputSchema, "none") } : {}),
      ...transportOf(plan.from),
    },
    ...(plan.outputSchema ? { outputSchema: plan.outputSchema } : {}),
    includeRaw: spec.translation.raw,
    deltas: spec.translation.deltas,
    promptInStream: spec.translation.promptInStream,
    ...(plan.model !== undefined ? { model: () => plan.model } : {}),
    maxLineBytes: spec.translation.maxLineBytes,
    onTranslatorBug: host.onTranslatorBug,
    ...(host.onNativeEvent ? { onNativeEvent: host.onNativeEvent } : {}),
    // A guess made while reading (a live pipe) is said at once; one at the end, by the caller.
    ...(host.onGuess ? { onGuess: (verdict: Verdict) => reading && host.onGuess!(verdict) } : {}),
  };
  const session = output.translate(translation);
  const writer = host.stdout?.writer;
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
        for (const other of waitFor) if (other.busy) await other.drained();
        if (writer?.closed || interrupted()) break;
      }
    } catch (err) {
      if (host.readError === "throw") throw err;
      // Destroyed by a stop signal: not a read error. Otherwise the stream still ends with run.finished:
      // what was read is translated, the run failed on our side.
      if (!interrupted()) readError = `cannot read ${inputShown(plan.inputName)}: ${(err as Error).message}`;
    }
    if (writer?.closed) return { kind: "stdout_closed" };
    if (readError) host.say?.(readError);
    reading = false;
    const outcome = await session.endChecked(
      plan.end,
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
