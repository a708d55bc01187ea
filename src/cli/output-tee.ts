import type { CanonicalEvent } from "../canonical/events.js";
import type { RunOutput } from "../run/output.js";

/** Something else a run's events go to (an answer file, a report), finished with the run. */
export interface RunTarget {
  event(event: CanonicalEvent): void;
  finish(): void;
}

/** The stdout output, also feeding `target` (when there is one) and finishing it with the run. */
export function teeOutput(output: RunOutput, target: RunTarget | undefined): RunOutput {
  if (!target) return output;
  return {
    writer: output.writer,
    sink: (event) => {
      output.sink(event);
      target.event(event);
    },
    finish: () => {
      output.finish();
      target.finish();
    },
  };
}
