import type { Writable } from "node:stream";
import type { Words } from "../core/errors.js";
import type { NativeEvent } from "../core/translator.js";

/** What a driver is handed once its backend is spawned. */
export interface DriverLink {
  /** The backend's stdin: the driver closes it once its conversation is over. */
  stdin: Writable;
  /**
   * Hands the translation what the driver said that the backend's stdout does not hold (its answer to a
   * permission request), as a native event of its own type.
   */
  tell(event: NativeEvent): void;
  /** A warning of the driver's own (its options left open, as a note's): said on the run's note path, redacted, escaped and cut there. */
  warn(text: Words): void;
  /** The agent's text as the stream shows it: the run's secrets hidden (what a person is shown beyond the stream's line). */
  redact(text: string): string;
  /** The run's grace period (--grace): how long the backend is given to end its way once asked to. */
  graceMs: number;
  /**
   * The backend did not end its turn its protocol's way within the grace period: stop it with its stop signal
   * (SIGKILL after the grace period), as a stopped run's backend is.
   */
  halt(): void;
}

/**
 * How a started backend is driven. One launched with argv and read needs none (the argv driver: its
 * stdin is not a pipe, it is stopped by its signal). One driven over a protocol on its stdin and
 * stdout (ACP) is handed its stdin once spawned, and is stopped its protocol's way first. Its stdout
 * is read once, by the run's reading: each line parsed there comes to `read` before it is translated,
 * so that what the driver answers and what the stream shows are one reading.
 */
export interface Driver {
  /** The process was spawned: talk to it. */
  attach(link: DriverLink): void;
  /**
   * One line of the backend's stdout as the run's reading parsed it, before it is translated: false where
   * the driver refuses it as a message (a response to nothing it asked): the translation keeps it as data.
   */
  read(event: NativeEvent): boolean;
  /**
   * A line of the backend's stdout longer than the run's line limit, by its start: never read whole, so never
   * handed to `read`; a request it holds is answered here (ACP: a JSON-RPC error under its id), never left waiting.
   */
  overlong?(preview: string): void;
  /** The backend's stdout ended (its last line, if any, was read first). */
  inputEnded(): void;
  /**
   * A permission request as the stream shows it (input.requested, one JSON line, secrets hidden), as soon as it
   * is shown: what an answerer outside the process is given (--approve-with's stdin).
   */
  requestShown?(requestId: string, line: string): void;
  /** Stop the run its protocol's clean way (ACP: session/cancel); the backend's stop signal follows after the grace period. */
  stop(): void;
}
