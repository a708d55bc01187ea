import type { Writable } from "node:stream";
import { exitCodeForLostOutput } from "../core/exit-codes.js";

/**
 * Writes canonical lines to stdout: one write() per line, waits for "drain"
 * when the reader is slower than us, and notices when stdout is lost (the
 * reader has gone, EPIPE, or a write failed: a full disk, a broken device),
 * after which nothing more is written.
 */
export class LineWriter {
  private lostWith: NodeJS.ErrnoException | undefined;

  constructor(
    private readonly out: Writable,
    private readonly onGone: (error: NodeJS.ErrnoException) => void = () => {},
  ) {
    out.on("error", (err: NodeJS.ErrnoException) => this.markGone(err));
  }

  /** Nothing more can be written: the reader closed its end, or a write failed. */
  get closed(): boolean {
    return this.lostWith !== undefined;
  }

  /** Once stdout is lost, the exit code that says how (141 or 74); undefined while it is fine. */
  get lostExitCode(): number | undefined {
    return this.lostWith && exitCodeForLostOutput(this.lostWith);
  }

  get needsDrain(): boolean {
    return !this.closed && this.out.writableNeedDrain;
  }

  write(line: string): void {
    if (this.closed) return;
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

  private markGone(error: NodeJS.ErrnoException): void {
    if (this.closed) return;
    this.lostWith = error;
    this.onGone(error);
  }
}
