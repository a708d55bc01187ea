import type { CanonicalEvent } from "../../src/canonical/events.js";
import { steppingClock } from "../../src/core/clock.js";
import type { Interruption, RunOutcome } from "../../src/core/outcome.js";
import { TranslationSession, type TranslationSessionOptions } from "../../src/core/translation-session.js";
import type { StreamEndFacts } from "../../src/core/translator.js";
import { TRANSLATORS } from "../../src/backends/registry.js";
import { FIXTURE_RUN_ID, FIXTURE_VERSION } from "../../src/cli/fixture-identity.js";
import { loadOutputSchema, outputSchemaShown, type OutputSchema } from "../../src/run/output-schema.js";
import { showControlsInLines } from "../../src/core/control-chars.js";

// The run id and version `AGENTSTREAM_TEST_FIXTURE=1` gives the CLI: goldens and examples reproduce from the command line.
export const TEST_RUN_ID = FIXTURE_RUN_ID;

/**
 * Where a test's translator bug goes when the test does not listen for it: a process warning, as the
 * library's host says it (the core says nothing itself), so a failing translator shows in the test output.
 */
export function warnOfTranslatorBug(message: string): void {
  process.emitWarning(showControlsInLines(message), "AgentstreamWarning");
}

export interface TranslateOptions
  extends Partial<
    Pick<
      TranslationSessionOptions,
      "from" | "includeRaw" | "deltas" | "maxLineBytes" | "liveDurations" | "onTranslatorBug"
    >
  > {
  end?: Partial<StreamEndFacts>;
  interruption?: Interruption;
  /** The model of usage that names none, as `normalize --model` gives it. */
  model?: string;
  /** Feed the input in chunks of this many bytes (default: all at once). */
  chunkBytes?: number;
  /** --output-schema FILE, as normalize reads it (relative to the repository, as the CLI tests run it). */
  outputSchema?: string;
}

/** Translate native bytes deterministically (fixed run id, stepping clock); no output schema (translateChecked). */
export function translate(
  native: string | Buffer,
  options: Omit<TranslateOptions, "outputSchema"> = {},
): { events: CanonicalEvent[]; outcome: RunOutcome } {
  const { events, session } = fed(native, options, undefined);
  return { events, outcome: session.end(endFacts(options), options.interruption) };
}

/** As translate(), and the answer checked against options.outputSchema as normalize checks it. */
export async function translateChecked(
  native: string | Buffer,
  options: TranslateOptions = {},
): Promise<{ events: CanonicalEvent[]; outcome: RunOutcome }> {
  const schema = options.outputSchema === undefined ? undefined : await loadOutputSchema(options.outputSchema);
  const { events, session } = fed(native, options, schema);
  return { events, outcome: await session.endChecked(endFacts(options), options.interruption) };
}

/** What every test session is given alike: the fixed run id and version, a stepping clock, a normalization of stdin. */
export function fixtureIdentity(): Pick<TranslationSessionOptions, "runId" | "clock" | "agentstreamVersion"> & {
  started: { mode: "normalize"; input: string };
} {
  return {
    runId: TEST_RUN_ID,
    clock: steppingClock(),
    agentstreamVersion: FIXTURE_VERSION,
    started: { mode: "normalize", input: "-" },
  };
}

function fed(
  native: string | Buffer,
  options: TranslateOptions,
  schema: OutputSchema | undefined,
): { events: CanonicalEvent[]; session: TranslationSession } {
  const events: CanonicalEvent[] = [];
  const session = new TranslationSession({
    from: options.from ?? "auto",
    translators: TRANSLATORS,
    runId: TEST_RUN_ID,
    clock: steppingClock(),
    agentstreamVersion: FIXTURE_VERSION,
    started: {
      mode: "normalize",
      input: "-",
      ...(schema ? { output_schema: outputSchemaShown(schema, "none") } : {}),
    },
    ...(schema ? { outputSchema: schema } : {}),
    includeRaw: options.includeRaw,
    deltas: options.deltas,
    maxLineBytes: options.maxLineBytes,
    liveDurations: options.liveDurations,
    onTranslatorBug: options.onTranslatorBug ?? warnOfTranslatorBug,
    ...(options.model !== undefined ? { model: () => options.model } : {}),
    sink: (e) => events.push(e),
  });
  const bytes = typeof native === "string" ? Buffer.from(native) : native;
  const step = options.chunkBytes ?? Math.max(bytes.length, 1);
  for (let i = 0; i < bytes.length; i += step) session.write(bytes.subarray(i, i + step));
  return { events, session };
}

function endFacts(options: TranslateOptions): StreamEndFacts {
  return {
    backendExit: options.end?.backendExit ?? null,
    stderrTail: options.end?.stderrTail ?? [],
    ...(options.end?.usageFile !== undefined ? { usageFile: options.end.usageFile } : {}),
  };
}

/** Canonical JSONL text, as the CLI writes it. */
export function toJsonl(events: CanonicalEvent[]): string {
  return events.map((e) => `${JSON.stringify(e)}\n`).join("");
}
