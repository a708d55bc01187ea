import type { CanonicalEvent } from "../canonical/events.js";
import type { DocumentText } from "../export/atif/run-document.js";
import { AtifRuns } from "../export/atif/runs.js";
import { ReplacedFile } from "./replaced-file.js";
import type { Sink } from "./sink.js";

/**
 * `run --atif FILE` (the library's `atif`): the run's ATIF document, built from each canonical event
 * as it is written, the same document `export atif` makes of the run's stream; written when the run
 * ends, whatever its outcome (or as the process exits, should it end first, the run then cut), through
 * a temporary file renamed over FILE. FILE is checked before the backend starts: one that cannot be
 * written is a usage error (exit 2).
 */
export class AtifFile implements Sink {
  private readonly out: ReplacedFile;
  private document: DocumentText | undefined;
  // The run's steps that can no longer change wait in a temporary file, not in memory.
  private readonly runs = AtifRuns.spilling((run) => {
    if (this.document === undefined) this.document = run.document;
    else run.document.dispose();
  });

  private constructor(
    path: string,
    readonly name: string,
  ) {
    this.out = ReplacedFile.open(path, name, () => this.end());
  }

  /** Undefined without a path; throws a UsageError for a file that cannot be written. `name` names it in messages. */
  static open(path: string | undefined, name: string): AtifFile | undefined {
    return path === undefined ? undefined : new AtifFile(path, name);
  }

  event(event: CanonicalEvent): void {
    this.runs.event(event);
  }

  end(): void {
    this.runs.end();
    const document = this.document;
    if (document === undefined) this.out.discard();
    else
      try {
        this.out.commit(document.chunks());
      } finally {
        document.dispose();
      }
  }

  close(): void {
    this.runs.discard();
    this.document?.dispose();
    this.out.discard();
  }
}
