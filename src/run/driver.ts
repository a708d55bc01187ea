import type { Readable, Writable } from "node:stream";
import type { NativeEvent } from "../core/translator.js";

/**
 * How a started backend is driven. One launched with argv and read needs none (the argv driver: its
 * stdin is not a pipe, it is stopped by its signal). One driven over a protocol on its stdin and
 * stdout (ACP) is handed both pipes once spawned, and is stopped its protocol's way first; its stdout
 * still reaches the translation as written, as a recording of it would.
 */
export interface Driver {
  /**
   * The process was spawned: talk to it. The driver closes `stdin` once its conversation is over.
   * `tell` hands the translation what the driver said that the backend's stdout does not hold (its
   * answer to a permission request), as a native event of its own type.
   */
  attach(pipes: { stdin: Writable; stdout: Readable }, tell: (event: NativeEvent) => void): void;
  /** Stop the run its protocol's clean way (ACP: session/cancel); the backend's stop signal follows after the grace period. */
  stop(): void;
}
