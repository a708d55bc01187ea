import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import type { CanonicalEvent } from "../canonical/events.js";
import { systemClock } from "../core/clock.js";
import type { RunOutcome } from "../core/outcome.js";
import { startNormalize } from "../app/session.js";
import { inputFile, refuseOverwrites } from "../app/shared-files.js";
import { loadOutputSchema, type OutputSchema } from "../run/output-schema.js";
import { asLibraryError, checkEntryOptions } from "./options.js";
import { part, requestFromLibrary, type LibraryOptions } from "../app/request.js";
import { AtifFile } from "../output/atif-sink.js";
import { runRedactor } from "../run/redact.js";
import { VERSION } from "../version.js";

/**
 * The options of normalizeStream(), one per row of the option table (src/app/options.ts; docs/library.md
 * lists them): `from` (default "auto": detected from the first event), `end` (how the recorded backend
 * ended, its stderr and its usage file), `model`, `inputName`, the translation's options, `outputSchema`, and
 * `atif` to write the run's ATIF document as `normalize --atif` does.
 */
export type NormalizeOptions = LibraryOptions<"normalizeStream">;

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
  checkEntryOptions("normalizeStream", options);
  const { request } = requestFromLibrary("normalize", options);
  // No output overwrites an input (a stream read from a file names it) or another output, before anything is read.
  const path = (input as { path?: unknown }).path;
  // A stream's file named "-" is that file, not stdin.
  const own = typeof path === "string" ? [inputFile(path === "-" ? "./-" : path)] : [];
  try {
    refuseOverwrites("normalize", request, own);
  } catch (err) {
    throw asLibraryError(err, "normalizeStream(): ");
  }
  const outputSchema = options.outputSchema === undefined ? undefined : await schemaOption(options.outputSchema);
  const redactor = runRedactor([], process.env);
  // A process warning is printed on stderr: it may quote the agent, so it is shown as the CLI shows it.
  const warn = (text: string): void => void process.emitWarning(redactor.shown(text.trimEnd()), "AgentstreamWarning");
  const spec = {
    from: request.from,
    translation: part("normalize", request, "translation"),
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...(options.inputName !== undefined ? { inputName: options.inputName } : {}),
    ...(outputSchema ? { outputSchema } : {}),
    end: {
      backendExit: options.end?.backendExit ?? null,
      stderrTail: options.end?.stderrTail ?? [],
      ...(options.end?.usageFile !== undefined ? { usageFile: options.end.usageFile } : {}),
    },
  };
  // Checked before anything is read, as --atif: a file that cannot be written is refused.
  const atif = AtifFile.open(options.atif, "atif");
  const session = startNormalize(input, spec, {
    runId: options.runId ?? randomUUID(),
    clock: options.clock ?? systemClock,
    agentstreamVersion: VERSION,
    redactor,
    sinks: [atif],
    warn,
    yieldEvents: true,
    readError: "throw",
    onTranslatorBug: options.onTranslatorBug ?? warn,
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
