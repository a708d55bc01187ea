import { randomUUID } from "node:crypto";
import { planRun, type AgentRequest } from "../app/agent-run.js";
import { startRun } from "../app/session.js";
import type { BackendName } from "../backends/registry.js";
import type { CanonicalEvent } from "../canonical/events.js";
import { systemClock, type Clock } from "../core/clock.js";
import type { RunOutcome } from "../core/outcome.js";
import { openOtlpSink } from "../output/otlp-sink.js";
import { checkLimits, type RunLimits } from "../run/limits.js";
import { passable } from "../run/prompt.js";
import { libraryWords } from "./library-words.js";
import { asLibraryError, checkRunOptions } from "./options.js";
import { VERSION } from "../version.js";

export interface RunOptions extends Omit<AgentRequest, "backend" | "limits">, RunLimits {
  /** Required, unless continueFrom names a recorded stream (whose backend it then must be). */
  backend?: BackendName;
  /** Passed to the backend verbatim, as one argument. */
  prompt: string;
  /** Stop the backend after this long: run.finished timed_out. */
  timeoutMs?: number;
  /** After the backend's final event, wait at most this long for it to exit. */
  lingerMs?: number;
  /** How long a stopped backend gets before it is killed (default 5000). */
  graceMs?: number;
  /** Aborting it stops the backend its clean way; the run still ends with run.finished (cancelled). */
  signal?: AbortSignal;
  /** Attach each native object as `raw`. */
  raw?: boolean;
  /** Keep message.delta / reasoning.delta / tool.updated (default true). */
  deltas?: boolean;
  maxLineBytes?: number;
  /** The backend's own stderr, as it arrives (default: dropped; its tail is in run.finished). */
  onStderr?: (chunk: Buffer) => void;
  /** Hears what the run notes for the user (a model it cannot price, a limit that undercounts, a usage file not read, temporary files not removed); default: a process warning. */
  onNote?: (text: string) => void;
  /** Hears of a translator bug (the event it threw on is kept as backend.event); default: a process warning. */
  onTranslatorBug?: (message: string) => void;
  runId?: string;
  clock?: Clock;
  /**
   * Also export the run as OpenTelemetry traces over OTLP/HTTP, as `--otlp`
   * does: `endpoint` (default: the OTEL_EXPORTER_OTLP_* variables), `content`
   * as `--otlp-content`. The loop ends once the collector has the spans (at
   * most the export timeout); what it did not take is a process warning.
   */
  otlp?: { endpoint?: string; content?: boolean };
}

const NEVER_FULL = { needsDrain: false, drained: () => Promise.resolve() };

/**
 * Run an agent as `agentstream run` does, yielding its canonical events live;
 * the last one is always run.finished. Invalid options throw a UsageError
 * before anything starts. Events come as the CLI writes them (secrets the
 * backend was given hidden); while the caller does not read, the backend's
 * output waits. Leaving the loop early stops the backend.
 */
export async function* run(options: RunOptions): AsyncGenerator<CanonicalEvent, RunOutcome> {
  checkRunOptions(options);
  const graceMs = options.graceMs ?? 5000;
  const limits = { maxTurns: options.maxTurns, maxTokens: options.maxTokens, maxCostUsd: options.maxCostUsd };
  const plan = await Promise.resolve()
    .then(() => checkLimits(limits))
    .then(() => planRun({ ...options, limits }, () => passable(options.prompt, "the prompt"), { graceMs }))
    .catch((err: unknown) => {
      throw asLibraryError(err);
    });
  // A process warning is printed on stderr: it may quote the agent, so it is shown as the CLI shows it.
  const warn = (text: string): void =>
    void process.emitWarning(plan.redactor.shown(text.trimEnd()), "AgentstreamWarning");
  const otlp = options.otlp
    ? await openOtlpSink(
        { endpoint: options.otlp.endpoint, content: options.otlp.content === true, version: VERSION },
        plan.redactor,
        warn,
      )
    : undefined;
  const spec = {
    plan,
    translation: { raw: options.raw, deltas: options.deltas, maxLineBytes: options.maxLineBytes },
    limits,
    timing: { timeoutMs: options.timeoutMs, lingerMs: options.lingerMs, graceMs },
  };
  const session = startRun(spec, {
    runId: options.runId ?? randomUUID(),
    clock: options.clock ?? systemClock,
    sinks: [otlp],
    warn,
    onStderr: options.onStderr ?? (() => {}),
    stderrShown: NEVER_FULL,
    onStatus: () => {},
    onTranslatorBug: options.onTranslatorBug ?? warn,
    onNote: (text) => (options.onNote ?? warn)(libraryWords(text)),
    onWarning: (text) => (options.onNote ?? warn)(libraryWords(text)),
    processSignals: false,
    abortSignal: options.signal,
  });
  try {
    const end = yield* session.events;
    // Only a reader that went away ends a run without run.finished, and that reader is this loop.
    if (end.kind !== "finished") throw new Error("agentstream run(): the run ended without run.finished");
    return end.outcome;
  } finally {
    await session.end();
  }
}
