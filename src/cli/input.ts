import { closeSync, constants, createReadStream, fstatSync, openSync, type Stats } from "node:fs";
import type { Readable } from "node:stream";
import { UsageError } from "../core/errors.js";
import { fileErrorReason } from "../core/file-errors.js";
import { streamOf } from "../run/bounded-file.js";

export { fileErrorReason };

// Everything made from one chunk is alive at once until it is written: 64 KiB
// (a pipe's size) keeps peak memory near 100 MB on a 1 GB stream, where 256 KiB
// let V8's young generation grow to 150 MB, at no cost in speed (measured).
const READ_CHUNK_BYTES = 64 * 1024;

/**
 * A file argument or "-" for stdin, opened before anything is written: a file
 * that is missing, unreadable (EACCES) or a directory is a usage error (exit 2)
 * with a message, never a stack trace, and so is a directory given as stdin.
 */
export function openInput(file: string): Readable {
  if (file === "-") {
    if (statOf(0)?.isDirectory())
      throw new UsageError("cannot read stdin: it is a directory", "give a file, or pipe a stream into agentstream");
    return process.stdin;
  }
  let fd: number;
  try {
    // Without waiting: a FIFO no writer has opened yet is waited for by the event loop, a signal heard.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${fileErrorReason(err as NodeJS.ErrnoException)}`);
  }
  const stat = statOf(fd);
  if (stat?.isDirectory()) {
    closeSync(fd);
    throw new UsageError(`cannot read ${file}: it is a directory`);
  }
  // A FIFO or a process substitution's pipe (/dev/fd/N): read without blocking, as stdin is. A file
  // stream's read blocks a thread until the writer writes or closes, and destroying it waits for that.
  const stream = stat && streamOf(fd, stat);
  if (stream) return stream;
  return createReadStream(file, { fd, highWaterMark: READ_CHUNK_BYTES });
}

function statOf(fd: number): Stats | undefined {
  try {
    return fstatSync(fd);
  } catch {
    return undefined; // a closed or odd descriptor: reading it will say what is wrong
  }
}
