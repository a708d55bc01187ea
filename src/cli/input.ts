import { createReadStream, statSync } from "node:fs";
import type { Readable } from "node:stream";
import { UsageError } from "../core/errors.js";

/** A file argument or "-" for stdin, checked before anything is written. */
export function openInput(file: string): Readable {
  if (file === "-") return process.stdin;
  let isFile = false;
  try {
    isFile = !statSync(file).isDirectory();
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (err as Error).message}`);
  }
  if (!isFile) throw new UsageError(`cannot read ${file}: it is a directory`);
  return createReadStream(file, { highWaterMark: 256 * 1024 });
}
