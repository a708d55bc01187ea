import type { CanonicalEvent } from "../canonical/events.js";
import type { ReadEvent } from "./event-reading.js";

/**
 * One report format's builder. The events of each input file arrive in order,
 * one at a time (a file may hold several runs, each from run.started to
 * run.finished); `finish` gives the report. A builder keeps what its format
 * needs, never the whole stream.
 */
export interface ReportBuilder {
  /** A new input file starts; `name` is how the report names it ("-" for stdin). */
  file(name: string): void;
  /** One canonical event of the current file. */
  add(event: CanonicalEvent): void;
  /** The finished report text. */
  finish(): string;
  /**
   * Optional: told of each event that breaks the canonical schema, before `add`
   * gets what could be read of it (nothing, when `read.event` is undefined), so
   * the report can say what it skipped. See event-reading.ts.
   */
  unreadable?(event: CanonicalEvent, read: ReadEvent): void;
}
