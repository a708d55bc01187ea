import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import type { CanonicalEvent } from "../canonical/events.js";
import { systemClock, type Clock } from "../core/clock.js";
import type { RunOutcome } from "../core/outcome.js";
import type { BackendName } from "../backends/registry.js";
import type { StreamEndFacts } from "../core/translator.js";
import { startNormalize } from "../app/session.js";
import { loadOutputSchema, type OutputSchema } from "../app/output-schema.js";
import { asLibraryError, checkNormalizeOptions } from "./options.js";
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
  /** A JSON Schema the recording's answer must match (an object, or the path of a JSON file), as run's `outputSchema`. */
  outputSchema?: object | string;
}

/**
 * Translate a native stream into canonical events, as `agentstream normalize`
 * does, yielding each event as soon as it exists. The last one is always
 * run.finished; its `exit_code` is what the CLI would exit with. Secrets are
 * hidden as the CLI hides them: the values of this process's secret-looking
 * environment variables and the token shapes agentstream knows.
 */
/** The outputSchema option read (its type was checked): a UsageError naming it. */
async function schemaOption(given: unknown): Promise<OutputSchema> {
  try {
    return await loadOutputSchema(given as object | string);
  } catch (err) {
    throw asLibraryError(err, "normalizeStream(): ");
  }
}

export async function* normalizeStream(
  input: Readable | AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  options: NormalizeOptions = {},
): AsyncGenerator<CanonicalEvent, RunOutcome> {
  checkNormalizeOptions(options);
  const outputSchema = options.outputSchema === undefined ? undefined : await schemaOption(options.outputSchema);
  const warn = (text: string): void => void process.emitWarning(text.trimEnd(), "AgentstreamWarning");
  const spec = {
    from: options.from ?? "auto",
    translation: { raw: options.raw, deltas: options.deltas, maxLineBytes: options.maxLineBytes },
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...(options.inputName !== undefined ? { inputName: options.inputName } : {}),
    ...(outputSchema ? { outputSchema } : {}),
    end: {
      backendExit: options.end?.backendExit ?? null,
      stderrTail: options.end?.stderrTail ?? [],
      ...(options.end?.usageFile !== undefined ? { usageFile: options.end.usageFile } : {}),
    },
  };
  const session = startNormalize(input, spec, {
    runId: options.runId ?? randomUUID(),
    clock: options.clock ?? systemClock,
    agentstreamVersion: VERSION,
    redactor: runRedactor([], process.env),
    sinks: [],
    warn,
    yieldEvents: true,
    readError: "throw",
    onTranslatorBug: options.onTranslatorBug,
  });
  try {
    const end = yield* session.events;
    // Without an output there is no stdout to close.
    if (end.kind !== "finished")
      throw new Error("agentstream normalizeStream(): the stream ended without run.finished");
    return end.outcome;
  } finally {
    await session.end();
  }
}
