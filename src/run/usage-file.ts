import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { fileErrorReason } from "../core/file-errors.js";
import type { RunFiles } from "./run-files.js";

/** A usage file is a small JSON summary: more than this is not one, and is not read whole. */
export const MAX_USAGE_FILE_BYTES = 4 * 1024 * 1024;

/** A usage file's text, or why it was not read. */
export type UsageFileRead = { text: string } | { problem: string };

/**
 * The path in the run's folder a backend writes its usage to; nothing is created until the backend
 * writes it; removed with the run's folder.
 */
export interface UsageFile {
  path: string;
  /** Its text; why it was not read (not a regular file, too large); undefined when the backend wrote none. */
  read(): UsageFileRead | undefined;
}

export function planUsageFile(files: RunFiles): UsageFile {
  const path = files.path("usage.json");
  return {
    path,
    read: () => {
      // What the backend (or a tool it ran) left there may be anything: a link is not followed, a FIFO
      // opened without waiting for a writer, and only a regular file is read.
      const read = readCapped(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK, true);
      return "missing" in read ? undefined : read;
    },
  };
}

/** A usage file the user names (normalize --usage-file): links followed, a pipe read to its end. */
export function readUsageFile(path: string): UsageFileRead {
  const read = readCapped(path, constants.O_RDONLY, false);
  return "missing" in read ? { problem: read.problem } : read;
}

/** The file's text, read up to MAX_USAGE_FILE_BYTES + 1 bytes from the one descriptor it was opened as. */
function readCapped(
  path: string,
  flags: number,
  regularOnly: boolean,
): UsageFileRead | { missing: true; problem: string } {
  let fd: number;
  try {
    fd = openSync(path, flags);
  } catch (err) {
    const error = err as NodeJS.ErrnoException;
    if (error.code === "ENOENT") return { missing: true, problem: fileErrorReason(error) };
    // O_NOFOLLOW refuses a link with ELOOP.
    return { problem: error.code === "ELOOP" ? "it is a symbolic link" : fileErrorReason(error) };
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) return { problem: "it is a directory" };
    if (regularOnly && !stats.isFile()) return { problem: `it is ${kindOf(stats)}, not a regular file` };
    const buffer = Buffer.alloc(MAX_USAGE_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > MAX_USAGE_FILE_BYTES) return { problem: `it is larger than ${MAX_USAGE_FILE_BYTES} bytes` };
    }
    return { text: buffer.subarray(0, length).toString("utf8") };
  } catch (err) {
    return { problem: fileErrorReason(err as NodeJS.ErrnoException) };
  } finally {
    closeSync(fd);
  }
}

function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "something else";
}
