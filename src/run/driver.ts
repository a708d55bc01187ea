import type { Readable, Writable } from "node:stream";

/**
 * How a started backend is driven. One launched with argv and read needs none (the argv driver: its
 * stdin is not a pipe, it is stopped by its signal). One driven over a protocol on its stdin and
 * stdout (ACP) is handed both pipes once spawned, and is stopped its protocol's way first; its stdout
 * still reaches the translation as written, as a recording of it would.
 */
export interface Driver {
  /** The process was spawned: talk to it. The driver closes `stdin` once its conversation is over. */
  attach(pipes: { stdin: Writable; stdout: Readable }): void;
  /** Stop the run its protocol's clean way (ACP: session/cancel); the backend's stop signal follows after the grace period. */
  stop(): void;
}
