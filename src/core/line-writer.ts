import type { Writable } from "node:stream";

/**
 * Writes canonical lines to stdout: one write() per line, waits for "drain"
 * when the reader is slower than us, and notices when the reader has gone
 * (EPIPE), after which nothing more is written.
 */
export class LineWriter {
  private gone = false;

  constructor(
    private readonly out: Writable,
    private readonly onGone: () => void = () => {},
  ) {
    out.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "EPIPE" || err.code === "ERR_STREAM_DESTROYED") this.markGone();
      else throw err;
    });
  }

  /** The reader closed its end. */
  get closed(): boolean {
    return this.gone;
  }

  get needsDrain(): boolean {
    return !this.gone && this.out.writableNeedDrain;
  }

  write(line: string): void {
    if (this.gone) return;
    this.out.write(line);
  }

  /**
   * Runs `work`, which may write many lines, and hands those lines to the
   * system together: each line is still one write(), but a pipe gets them in
   * one writev() call instead of one system call per line. Nothing waits:
   * the lines leave before this returns.
   */
  batch<T>(work: () => T): T {
    this.out.cork();
    try {
      return work();
    } finally {
      this.out.uncork();
    }
  }

  /** Resolves once the reader has taken what is buffered (or has gone). */
  drained(): Promise<void> {
    if (!this.needsDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        this.out.off("drain", done);
        this.out.off("close", done);
        resolve();
      };
      this.out.on("drain", done);
      this.out.on("close", done);
    });
  }

  private markGone(): void {
    if (this.gone) return;
    this.gone = true;
    this.onGone();
  }
}
