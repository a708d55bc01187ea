import type { CanonicalEvent } from "../../canonical/events.js";
import type { AtifTrajectory } from "./document.js";
import { type DocumentText, RunDocument } from "./run-document.js";

/** The input is not what a canonical stream is: an event before its run's run.started. */
export class AtifInputError extends Error {
  override name = "AtifInputError";
}

/** A run's document, and whether the stream showed how it ended. */
export interface ExportedRun {
  runId: string;
  document: AtifTrajectory;
  finished: boolean;
}

/** A run's document as text, its steps spilled as they were built (`AtifRuns.spilling`). */
export interface WrittenRun {
  runId: string;
  document: DocumentText;
  finished: boolean;
}

/**
 * Canonical events (of one run or several, interleaved) to ATIF documents: each run's document is handed on
 * when its run.finished comes, and the runs still open when the input ends are handed on by `end`, cut.
 * Only the open runs' documents are held. An event of a run whose run.started was not seen is refused.
 */
export class AtifRuns<T = ExportedRun> {
  private readonly open = new Map<string, RunDocument>();

  constructor(
    private readonly done: (run: T) => void,
    private readonly take: (runId: string, run: RunDocument) => T = (runId, run) =>
      ({ runId, document: run.finish(), finished: run.finished !== undefined }) as T,
    private readonly spill = false,
  ) {}

  /**
   * Documents handed on as text, each run's steps that can no longer change spilled to a temporary file as
   * they are built, so memory holds the open steps rather than the documents. The text is `atifText`'s.
   */
  static spilling(done: (run: WrittenRun) => void): AtifRuns<WrittenRun> {
    return new AtifRuns<WrittenRun>(
      done,
      (runId, run) => ({ runId, document: run.finishText(), finished: run.finished !== undefined }),
      true,
    );
  }

  event(event: CanonicalEvent): void {
    if (event.type === "run.started") {
      const earlier = this.open.get(event.run_id);
      if (earlier) this.hand(event.run_id, earlier);
      this.open.set(event.run_id, new RunDocument(event, this.spill));
      return;
    }
    const run = this.open.get(event.run_id);
    if (!run)
      throw new AtifInputError(
        `event seq ${event.seq} (${event.type}) is of run ${event.run_id}, whose run.started the stream does not hold`,
      );
    run.event(event);
    if (event.type === "run.finished") this.hand(event.run_id, run);
  }

  /** The runs the input left open, cut. */
  end(): void {
    for (const [runId, run] of [...this.open]) this.hand(runId, run);
  }

  /** Drops the runs still open, unwritten (their spill files removed). */
  discard(): void {
    for (const run of this.open.values()) run.dispose();
    this.open.clear();
  }

  private hand(runId: string, run: RunDocument): void {
    this.open.delete(runId);
    this.done(this.take(runId, run));
  }
}
