import type { Readable } from "node:stream";

/** Where a backend pipe's data ends up, as far as throttling it goes. */
export interface Drainable {
  /** More is buffered than should be: read no more until it drains. */
  readonly needsDrain: boolean;
  drained(): Promise<void>;
}

/** Backpressure, not buffering: while `out` needs draining, `source` is not read. */
export class PipeThrottle {
  private paused = false;

  constructor(
    private readonly source: Readable,
    private readonly out: Drainable,
  ) {}

  /** After each chunk handed on to `out`. */
  check(): void {
    if (this.paused || !this.out.needsDrain) return;
    this.paused = true;
    this.source.pause();
    void this.out.drained().then(() => this.release());
  }

  /** Read on, drained or not. */
  release(): void {
    if (!this.paused) return;
    this.paused = false;
    this.source.resume();
  }
}
