import { randomBytes } from "node:crypto";
import { closeSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { tempFolder } from "../../core/temp-folder.js";

const CHUNK = 64 * 1024;

/**
 * The spills whose files exist, removed as the process exits (one listener for all, however many runs are
 * open). Only the name goes: a document another exit listener still writes (`--atif`) reads on through the fd.
 */
const live = new Set<StepSpill>();
const removeAll = (): void => {
  for (const spill of live) spill.unlink();
};

/** Where a spilled step's text is: its byte range in the spill. */
export interface SpilledRange {
  start: number;
  length: number;
}

/**
 * The steps of a document that can no longer change, as text, appended to a temporary file (mode 600, in
 * agentstream's temporary folder, made only once 64 KiB wait; writes of 64 KiB) and read back when the
 * document is written. Should the file not be made or written, the text stays in memory: the document is the
 * same, only memory grows. The file is removed by `dispose`, or as the process exits.
 */
export class StepSpill {
  private fd: number | undefined;
  private path: string | undefined;
  /** Bytes in the file; the rest, up to `size`, are in `pending`. */
  private flushed = 0;
  private size = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private failed = false;

  append(text: string): SpilledRange {
    const bytes = Buffer.from(text);
    const range = { start: this.size, length: bytes.length };
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    this.size += bytes.length;
    if (this.pendingBytes >= CHUNK) this.flush();
    return range;
  }

  /** A spilled step's text. */
  text(range: SpilledRange): string {
    return Buffer.concat([...this.bytes(range)]).toString("utf8");
  }

  /** A range's bytes, in pieces of up to 64 KiB. */
  *bytes(range: SpilledRange): Generator<Buffer> {
    this.flush();
    let at = range.start;
    const end = range.start + range.length;
    for (; at < end && at < this.flushed; ) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK, end - at, this.flushed - at));
      const read = readSync(this.fd!, chunk, 0, chunk.length, at);
      if (read === 0) throw new Error("the ATIF spill file is shorter than what was written to it");
      at += read;
      yield chunk.subarray(0, read);
    }
    // What could not go to the file (it could not be made or written) is still in memory.
    let offset = this.flushed;
    for (const piece of this.pending) {
      const from = Math.max(at, offset);
      const to = Math.min(end, offset + piece.length);
      if (from < to) yield piece.subarray(from - offset, to - offset);
      offset += piece.length;
      if (offset >= end) break;
    }
  }

  /** Removes the file's name, the file still open. */
  unlink(): void {
    if (this.path !== undefined) rmSync(this.path, { force: true });
  }

  /** Removes the file. */
  dispose(): void {
    live.delete(this);
    if (live.size === 0) process.off("exit", removeAll);
    this.pending = [];
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } finally {
      rmSync(this.path!, { force: true });
      this.fd = undefined;
    }
  }

  private flush(): void {
    if (this.failed || this.pendingBytes === 0) return;
    try {
      if (this.fd === undefined) {
        this.path = join(tempFolder(), `agentstream-atif-${process.pid}-${randomBytes(6).toString("hex")}.part`);
        this.fd = openSync(this.path, "wx+", 0o600);
        if (live.size === 0) process.on("exit", removeAll);
        live.add(this);
      }
      const data = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
      for (let done = 0; done < data.length; )
        done += writeSync(this.fd, data, done, data.length - done, this.flushed + done);
      this.flushed += data.length;
      this.pending = [];
      this.pendingBytes = 0;
    } catch {
      // Kept in memory from here on: the document stays the same.
      this.failed = true;
    }
  }
}
