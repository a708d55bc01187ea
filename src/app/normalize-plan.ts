// Planning a normalization, as src/app/agent-run.ts plans a run: the request's recording, how the
// recorded backend ended (the files the options name read before anything is written), the schema its
// answer is checked against, and the redactor that hides this environment's secrets in everything written.
import type { BackendName } from "../backends/registry.js";
import { StoppedBeforeStart, UsageError } from "../core/errors.js";
import type { Redactor } from "../core/redactor.js";
import { TailBuffer } from "../core/tail-buffer.js";
import type { StreamEndFacts } from "../core/translator.js";
import { MAX_RECORDING_BYTES, readFileBounded } from "../run/bounded-file.js";
import { runRedactor } from "../run/redact.js";
import { NO_STOPS, type StopWatch } from "../run/stop-signals.js";
import { readUsageFile } from "../run/usage-file.js";
import { loadOutputSchema, type OutputSchema } from "../run/output-schema.js";
import { part, type NormalizeRequest, type Part } from "./request.js";

/** A normalization checked and ready to read: what the recording is, and how its backend ended. */
export interface NormalizePlan {
  from: BackendName | "auto";
  /** The model the recorded run used, for usage whose stream names none. */
  model?: string;
  /** Shown as run.started.input. */
  inputName?: string;
  /** How the recorded backend ended, its stderr's tail and the usage file it wrote. */
  end: StreamEndFacts;
  /** --output-schema: the recording's answer is checked against it (run.started.output_schema.via "none"). */
  outputSchema?: OutputSchema;
  /** Hides the secrets of this environment that a recording may echo, in everything written. */
  redactor: Redactor;
}

/** A normalization ready to start: its plan, how it is translated, and the outputs its request asks for. */
export interface NormalizeSpec {
  plan: NormalizePlan;
  translation: Part<"normalize", "translation">;
  outputs: Part<"normalize", "outputs">;
}

/**
 * A normalization's request made ready to read, the same for the CLI and the library: the files its
 * options name (the CLI's --stderr and --usage-file; the library gives their text in `end`) and its output
 * schema read, each no further than its bound, a stop signal meanwhile (a FIFO no one writes to) ending
 * it with nothing written. `inputName` names the input where the request does not (the CLI's argument).
 */
export async function prepareNormalize(
  request: NormalizeRequest,
  reading: { inputName?: string; stops?: StopWatch } = {},
): Promise<NormalizeSpec> {
  const stops = reading.stops ?? NO_STOPS;
  // A recording may echo a key of this environment: hidden as in run.
  const redactor = runRedactor([], process.env);
  const given = request.end ?? {};
  const stderrTail = request.stderr ? await readStderrTail(request.stderr, stops, redactor) : (given.stderrTail ?? []);
  const usageFile = request.usageFile === undefined ? given.usageFile : await usageFileText(request.usageFile, stops);
  const outputSchema =
    request.outputSchema === undefined ? undefined : await loadOutputSchema(request.outputSchema, stops);
  const inputName = request.inputName ?? reading.inputName;
  return {
    plan: {
      from: request.from,
      ...(request.model !== undefined ? { model: request.model } : {}),
      ...(inputName !== undefined ? { inputName } : {}),
      end: {
        backendExit: given.backendExit ?? null,
        stderrTail,
        ...(usageFile !== undefined ? { usageFile } : {}),
      },
      ...(outputSchema ? { outputSchema } : {}),
      redactor,
    },
    translation: part("normalize", request, "translation"),
    outputs: part("normalize", request, "outputs"),
  };
}

/** Read before the stream: a file that is not there is the caller's mistake, said before any output. */
async function usageFileText(path: string, stops: StopWatch): Promise<string> {
  const read = await readUsageFile(path, stops);
  if ("stopped" in read) throw new StoppedBeforeStart(read.stopped, `reading --usage-file ${path}`);
  if ("problem" in read)
    throw new UsageError(
      `--usage-file ${path}: ${read.problem}`,
      "give the file the backend wrote its usage to (Copilot CLI: --usage-output-file)",
    );
  return read.text;
}

/** The last lines of a recorded stderr, read in chunks: only the tail is kept. */
async function readStderrTail(path: string, stops: StopWatch, redactor: Redactor): Promise<string[]> {
  // Redacted before it is cut: a secret the cut would halve is still found whole.
  const tail = new TailBuffer(undefined, undefined, (text) => redactor.text(text));
  const read = await readFileBounded(path, { bound: MAX_RECORDING_BYTES, stops, chunkBytes: 1024 * 1024 }, (chunk) =>
    tail.push(chunk),
  );
  if ("stopped" in read) throw new StoppedBeforeStart(read.stopped, `reading --stderr ${path}`);
  if ("refused" in read) throw new UsageError(`cannot read --stderr ${path}: ${read.refused.problem}`);
  return tail.snapshot();
}
