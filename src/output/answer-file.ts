import type { CanonicalEvent, EventOf } from "../canonical/events.js";
import { ReplacedFile } from "./replaced-file.js";
import type { Sink } from "./sink.js";
import { finalAnswerText } from "./stdout-sink.js";

/**
 * `--answer-file FILE`: the run's final answer (what `--output text` prints),
 * written when the run ends into a temporary file in FILE's folder and renamed
 * over FILE, so a reader never sees half an answer. A run without a final
 * answer leaves no FILE: one from an earlier run is removed, so after
 * agentstream exits FILE exists exactly when this run had an answer.
 */
export class AnswerFile implements Sink {
  readonly name = "--answer-file";
  private finished: EventOf<"run.finished"> | undefined;
  private readonly file: ReplacedFile;

  private constructor(path: string) {
    // Whatever ends the process before end() (stdout closed, an internal error) finishes it with what it has.
    this.file = ReplacedFile.open(path, "--answer-file", () => this.end());
  }

  /** Checks FILE can be written before anything runs (see ReplacedFile.open): exit 2 if not. */
  static open(path: string): AnswerFile {
    return new AnswerFile(path);
  }

  event(event: CanonicalEvent): void {
    if (event.type === "run.finished") this.finished = event;
  }

  /** Puts the answer in place, or removes FILE when there is none. Once; a failure is said on stderr. */
  end(): void {
    const answer = this.finished ? finalAnswerText(this.finished) : undefined;
    if (answer !== undefined) this.file.commit(answer);
    else this.file.remove();
  }

  close(): void {
    this.file.discard();
  }
}
