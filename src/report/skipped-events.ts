import type { CanonicalEvent } from "../canonical/events.js";
import type { ReadEvent } from "./event-reading.js";
import { REPORT_LIMITS, type SkippedNote } from "./report-v1.js";
import { clip } from "../core/clip.js";
import { clipName } from "./text.js";

/** A run's events that break the canonical schema: those skipped and the fields left out, counted and noted. */
export class SkippedEvents {
  private events = 0;
  private fields = 0;
  private runFinished = false;
  private readonly notes: string[] = [];

  add(event: CanonicalEvent, read: ReadEvent): void {
    if (read.event !== undefined && read.leftOut === 0) return;
    const where = `seq ${event.seq} ${clipName(String(event.type))}`;
    if (read.event === undefined) {
      this.events++;
      if (event.type === "run.finished") this.runFinished = true;
      this.note(`${where} skipped: ${read.problems[0] ?? "it breaks the schema"}`);
    } else {
      this.fields += read.leftOut;
      for (const problem of read.problems) this.note(`${where}: ${problem}`);
    }
  }

  /** Undefined when every event was read whole. */
  summary(): SkippedNote | undefined {
    if (this.events === 0 && this.fields === 0) return undefined;
    return { events: this.events, fields: this.fields, run_finished: this.runFinished, notes: [...this.notes] };
  }

  private note(text: string): void {
    if (this.notes.length < REPORT_LIMITS.notes) this.notes.push(clip(text, REPORT_LIMITS.outputChars));
  }
}
