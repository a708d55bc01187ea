import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import type { CanonicalEvent } from "../canonical/events.js";
import { systemClock, type Clock } from "../core/clock.js";
import { UsageError } from "../core/errors.js";
import type { RunOutcome } from "../core/outcome.js";
import { TRANSLATORS, type BackendName } from "../backends/registry.js";
import type { StreamEndFacts } from "../core/translator.js";
import { OutputPipeline } from "../output/pipeline.js";
import { runRedactor } from "../run/redact.js";
import { VERSION } from "../version.js";

export interface NormalizeOptions {
  /** The protocol of the input; "auto" (default) detects it from the first event. */
  from?: BackendName | "auto";
  /** Attach each native object as `raw`. */
  raw?: boolean;
  /** Keep message.delta / reasoning.delta / tool.updated (default true). */
  deltas?: boolean;
  /** How the recorded backend ended (decides a stream with no terminal event), and its stderr. */
  end?: Partial<StreamEndFacts>;
  /** The model the recorded run used, for usage whose stream names none (Codex, EvoScientist, OpenCode): priced as it. */
  model?: string;
  /** Shown as run.started.input. */
  inputName?: string;
  maxLineBytes?: number;
  runId?: string;
  clock?: Clock;
  /** Hears of a translator bug (the event it threw on is kept as backend.event); default: a process warning. */
  onTranslatorBug?: (message: string) => void;
}

/**
 * Translate a native stream into canonical events, as `agentstream normalize`
 * does, yielding each event as soon as it exists. The last one is always
 * run.finished; its `exit_code` is what the CLI would exit with. Secrets are
 * hidden as the CLI hides them: the values of this process's secret-looking
 * environment variables and the token shapes agentstream knows.
 */
export async function* normalizeStream(
  input: Readable | AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  options: NormalizeOptions = {},
): AsyncGenerator<CanonicalEvent, RunOutcome> {
  if (options.model !== undefined && typeof options.model !== "string")
    throw new UsageError(`normalizeStream(): option model: expected a string, got ${typeof options.model}`);
  let ready: CanonicalEvent[] = [];
  const caller = { name: "normalizeStream()", event: (event: CanonicalEvent) => ready.push(event), end: () => {} };
  const warn = (text: string): void => void process.emitWarning(text.trimEnd(), "AgentstreamWarning");
  const output = new OutputPipeline(runRedactor([], process.env), [caller], warn);
  const session = output.translate({
    from: options.from ?? "auto",
    translators: TRANSLATORS,
    runId: options.runId ?? randomUUID(),
    clock: options.clock ?? systemClock,
    agentstreamVersion: VERSION,
    started: { mode: "normalize", ...(options.inputName !== undefined ? { input: options.inputName } : {}) },
    includeRaw: options.raw,
    deltas: options.deltas,
    ...(options.model !== undefined ? { model: () => options.model } : {}),
    maxLineBytes: options.maxLineBytes,
    onTranslatorBug: options.onTranslatorBug,
  });
  for await (const chunk of input) {
    session.write(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
    if (ready.length > 0) {
      const batch = ready;
      ready = [];
      yield* batch;
    }
  }
  const outcome = session.end({
    backendExit: options.end?.backendExit ?? null,
    stderrTail: options.end?.stderrTail ?? [],
    ...(options.end?.usageFile !== undefined ? { usageFile: options.end.usageFile } : {}),
  });
  yield* ready;
  return outcome;
}
