import { readSync, writeSync } from "node:fs";
import { makeTempFile, removeTempFile, type TempFile } from "../../core/temp-files.js";

const CHUNK = 64 * 1024;

/** Where a spilled step's text is: its byte range in the spill. */
export interface SpilledRange {
  start: number;
  length: number;
}

/**
 * The steps of a document that can no longer change, as text, appended to a temporary file (mode 600, in
 * agentstream's temporary folder, made only once 64 KiB wait; writes of 64 KiB) and read back when the
 * document is written. Should the file not be made or written, the text stays in memory: the document is the
 * same, only memory grows. The file is removed by `dispose`, or however the process ends first (makeTempFile).
 */
export class StepSpill {
  private file: TempFile | undefined;
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
      const read = readSync(this.file!.fd, chunk, 0, chunk.length, at);
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

  /** Removes the file. */
  dispose(): void {
    this.pending = [];
    const file = this.file;
    this.file = undefined;
    if (file !== undefined) removeTempFile(file);
  }

  private flush(): void {
    if (this.failed || this.pendingBytes === 0) return;
    try {
      this.file ??= makeTempFile("agentstream-atif", ".part");
      const data = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
      for (let done = 0; done < data.length; )
        done += writeSync(this.file.fd, data, done, data.length - done, this.flushed + done);
      this.flushed += data.length;
      this.pending = [];
      this.pendingBytes = 0;
    } catch {
      // Kept in memory from here on: the document stays the same.
      this.failed = true;
    }
  }
}
