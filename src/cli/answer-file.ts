import type { CanonicalEvent, EventOf } from "../canonical/events.js";
import type { Redactor } from "../core/redactor.js";
import type { RunOutput } from "../run/output.js";
import { finalAnswerText } from "../core/canonical-output.js";
import { ReplacedFile } from "./replaced-file.js";
import { teeOutput } from "./output-tee.js";

/**
 * `--answer-file FILE`: the run's final answer (what `--output text` prints,
 * redacted the same way), written when the run ends into a temporary file in
 * FILE's folder and renamed over FILE, so a reader never sees half an answer.
 * A run without a final answer leaves no FILE: one from an earlier run is
 * removed, so after agentstream exits FILE exists exactly when this run had an
 * answer.
 */
export class AnswerFile {
  private finished: EventOf<"run.finished"> | undefined;
  // Whatever ends the process before finish() (stdout closed, an internal error) finishes it with what it has.
  private readonly file: ReplacedFile;

  private constructor(
    path: string,
    private readonly redactor: Redactor,
  ) {
    this.file = ReplacedFile.open(path, "--answer-file", () => this.finish());
  }

  /** Checks FILE can be written before anything runs (see ReplacedFile.open): exit 2 if not. */
  static open(path: string, redactor: Redactor): AnswerFile {
    return new AnswerFile(path, redactor);
  }

  event(event: CanonicalEvent): void {
    if (event.type === "run.finished") this.finished = event;
  }

  /** Puts the answer in place, or removes FILE when there is none. Once; a failure is said on stderr. */
  finish(): void {
    const answer = this.finished ? finalAnswerText(this.finished) : undefined;
    if (answer !== undefined) this.file.commit(this.redactor.text(answer));
    else this.file.remove();
  }
}

/** The stdout output, also feeding the answer file (when there is one) and finishing it with the run. */
export function withAnswerFile(output: RunOutput, file: AnswerFile | undefined): RunOutput {
  return teeOutput(output, file);
}
