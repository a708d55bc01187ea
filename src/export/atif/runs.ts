import type { CanonicalEvent } from "../../canonical/events.js";
import type { AtifTrajectory } from "./document.js";
import { RunDocument } from "./run-document.js";

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

/**
 * Canonical events (of one run or several, interleaved) to ATIF documents: each run's document is handed on
 * when its run.finished comes, and the runs still open when the input ends are handed on by `end`, cut.
 * Only the open runs' documents are held. An event of a run whose run.started was not seen is refused.
 */
export class AtifRuns {
  private readonly open = new Map<string, RunDocument>();

  constructor(private readonly done: (run: ExportedRun) => void) {}

  event(event: CanonicalEvent): void {
    if (event.type === "run.started") {
      const earlier = this.open.get(event.run_id);
      if (earlier) this.hand(event.run_id, earlier);
      this.open.set(event.run_id, new RunDocument(event));
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

  private hand(runId: string, run: RunDocument): void {
    this.open.delete(runId);
    this.done({ runId, document: run.finish(), finished: run.finished !== undefined });
  }
}
