import type { CanonicalEvent } from "../canonical/events.js";

/**
 * One place a run's canonical events go (stdout, the answer file, a report,
 * the job summary, an OTLP collector, the library's caller). Each gets every
 * event once, already redacted, in order; only the OutputPipeline calls it.
 */
export interface Sink {
  /** How the warning names it should it fail ("--report", "OTLP export"). */
  readonly name: string;
  /** `line`: the event as serializeEvent writes it (without "\n"), when the pipeline has it. */
  event(event: CanonicalEvent, line?: string): void;
  /** The run is over: write what this sink keeps (a report, the answer), or finish sending. */
  end(): void | Promise<void>;
  /** The run was refused before it started: leave every file as it was, send nothing. */
  close?(): void;
}

/** The variable GitHub Actions names its job summary file in (`--summary` appends to that file). */
export const STEP_SUMMARY = "GITHUB_STEP_SUMMARY";
