import type { Writable } from "node:stream";
import { exitCodeForLostOutput } from "../core/exit-codes.js";

// Room for the lines of one batch (one 64 KiB input chunk makes about 150 KiB of output).
const BATCH_BUFFER_BYTES = 256 * 1024;
const NEWLINE = 0x0a;

/**
 * Writes canonical lines to stdout: whole lines only, waits for "drain"
 * when the reader is slower than us, and notices when stdout is lost (the
 * reader has gone, EPIPE, or a write failed: a full disk, a broken device),
 * after which nothing more is written.
 */
export class LineWriter {
  private lostWith: NodeJS.ErrnoException | undefined;
  /** The lines of the batch being made, as UTF-8 in `buffer` up to `used`; undefined outside a batch. */
  private batched: Buffer[] | undefined;
  private buffer = Buffer.allocUnsafe(0);
  private used = 0;

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

  /** Text ending in "\n" (one line or several): written at once, or with the batch being made. */
  write(text: string): void {
    if (this.closed) return;
    if (this.batched === undefined) this.out.write(text);
    else this.append(text, false);
  }

  /** One line without its "\n", which is added (in a batch, as a byte: no string is made for it). */
  writeLine(line: string): void {
    if (this.closed) return;
    if (this.batched === undefined) this.out.write(`${line}\n`);
    else this.append(line, true);
  }

  private append(text: string, newline: boolean): void {
    // A UTF-16 code unit is at most 3 bytes of UTF-8.
    const most = text.length * 3 + 1;
    if (this.buffer.length - this.used < most) {
      this.cut();
      this.buffer = Buffer.allocUnsafe(Math.max(BATCH_BUFFER_BYTES, most));
    }
    this.used += this.buffer.write(text, this.used, "utf8");
    if (newline) this.buffer[this.used++] = NEWLINE;
  }

  /**
   * Runs `work`, which may write many lines, and hands those lines to the
   * system together, in one write() of their joined text: a stream's cost
   * per write() (a buffered entry, a Buffer, a slot in writev) is paid once
   * per batch, not once per line. Nothing waits: the lines leave before this returns.
   */
  batch<T>(work: () => T): T {
    if (this.batched !== undefined) return work();
    this.batched = [];
    try {
      return work();
    } finally {
      this.cut();
      const chunks = this.batched;
      this.batched = undefined;
      if (!this.closed) for (const chunk of chunks) this.out.write(chunk);
    }
  }

  /** Ends the batch's current piece of `buffer`; what follows goes after it (the stream owns what it was given). */
  private cut(): void {
    if (this.used === 0) return;
    this.batched!.push(this.buffer.subarray(0, this.used));
    this.buffer = this.buffer.subarray(this.used);
    this.used = 0;
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
