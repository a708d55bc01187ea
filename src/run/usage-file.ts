import { randomUUID } from "node:crypto";
import { closeSync, openSync, readSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A usage file is a small JSON summary: more than this is not one, and is not read whole. */
export const MAX_USAGE_FILE_BYTES = 4 * 1024 * 1024;

/**
 * A fresh, unguessable file name for a backend to write its usage to; nothing is created until the
 * backend writes it (a run planned and never started leaves nothing behind); gone after `remove`.
 */
export interface UsageFile {
  path: string;
  /** Its text, or undefined when the backend wrote none (or one too large to be a usage file). */
  read(): string | undefined;
  remove(): void;
}

export function createUsageFile(): UsageFile {
  const path = join(tmpdir(), `agentstream-usage-${randomUUID()}.json`);
  return { path, read: () => readUsageFile(path), remove: () => rmSync(path, { force: true }) };
}

/** The file's text, read up to MAX_USAGE_FILE_BYTES + 1 bytes; undefined when missing or too large. */
export function readUsageFile(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(MAX_USAGE_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > MAX_USAGE_FILE_BYTES) return undefined;
    }
    return buffer.subarray(0, length).toString("utf8");
  } finally {
    closeSync(fd);
  }
}
