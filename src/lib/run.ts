import { randomUUID } from "node:crypto";
import { libraryNaming } from "../app/options.js";
import { prepareRun } from "../app/agent-run.js";
import { requestFromLibrary, type LibraryOptions } from "../app/request.js";
import { startRun } from "../app/session.js";
import { refuseOverwrites } from "../app/shared-files.js";
import type { CanonicalEvent } from "../canonical/events.js";
import { systemClock } from "../core/clock.js";
import { wordedWith, type Words } from "../core/errors.js";
import type { RunOutcome } from "../core/outcome.js";
import { passable } from "../run/prompt.js";
import { asLibraryError, checkEntryOptions } from "./options.js";
import { libraryOutputs } from "../app/sinks.js";
import { processWarning } from "./library-host.js";

/**
 * The options of run(), one per row of the option table (src/app/options.ts; docs/library.md lists them):
 * `backend` (required unless `continueFrom` names a recorded stream), `prompt` (passed verbatim as one
 * argument), the backend's own options, the limits and times in milliseconds, the callbacks, `otlp`
 * to also export the run as OpenTelemetry traces as `--otlp` does, and `atif` to write its ATIF document
 * as `--atif` does.
 */
export type RunOptions = LibraryOptions<"run">;

const NEVER_FULL = { needsDrain: false, drained: () => Promise.resolve() };

/**
 * Run an agent as `agentstream run` does, yielding its canonical events live;
 * the last one is always run.finished. Invalid options throw a UsageError
 * before anything starts. Events come as the CLI writes them (secrets the
 * backend was given hidden); while the caller does not read, the backend's
 * output waits. Leaving the loop early stops the backend.
 */
export async function* run(options: RunOptions): AsyncGenerator<CanonicalEvent, RunOutcome> {
  checkEntryOptions("run", options);
  const spec = await Promise.resolve()
    .then(() => {
      const { request } = requestFromLibrary("run", options);
      // No output overwrites an input or another output: refused before anything is read or started.
      refuseOverwrites("run", request, []);
      return prepareRun(request, () => passable(options.prompt, "the prompt"));
    })
    .catch((err: unknown) => {
      throw asLibraryError(err);
    });
  const warn = processWarning(spec.plan.redactor);
  // A note that names options names them as the library does.
  const note = (words: Words): void => (options.onNote ?? warn)(wordedWith(words, libraryNaming));
  // Its outputs (atif, otlp) are checked before anything starts: a file that cannot be written is refused,
  // an OTLP endpoint the environment names with port 0 too (under option otlp).
  const session = await startRun(spec, {
    runId: options.runId ?? randomUUID(),
    clock: options.clock ?? systemClock,
    outputs: libraryOutputs(warn),
    sinks: [],
    warn,
    onStderr: options.onStderr ?? (() => {}),
    stderrShown: NEVER_FULL,
    onStatus: () => {},
    onTranslatorBug: options.onTranslatorBug ?? warn,
    onNote: note,
    onWarning: note,
    processSignals: false,
    abortSignal: options.signal,
  }).catch((err: unknown) => {
    throw asLibraryError(err);
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
