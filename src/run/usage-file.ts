import { readWholeFile, type BoundedReading } from "./bounded-file.js";
import type { RunFiles } from "./run-files.js";
import type { StopWatch } from "./stop-signals.js";

/** A usage file is a small JSON summary: more than this is not one, and is not read whole. */
export const MAX_USAGE_FILE_BYTES = 4 * 1024 * 1024;

/** A usage file's text, why it was not read, or the stop signal that ended the reading. */
export type UsageFileRead = { text: string } | { problem: string } | { stopped: "SIGINT" | "SIGTERM" | "SIGHUP" };

/**
 * The path in the run's folder a backend writes its usage to; nothing is created until the backend
 * writes it; removed with the run's folder.
 */
export interface UsageFile {
  path: string;
  /** Its text; why it was not read (not a regular file, too large); undefined when the backend wrote none. */
  read(): Promise<UsageFileRead | undefined>;
}

export function planUsageFile(files: RunFiles): UsageFile {
  const path = files.path("usage.json");
  return {
    path,
    // What the backend (or a tool it ran) left there may be anything: a link is not followed, a FIFO
    // opened without waiting for a writer, and only a regular file is read.
    read: () => readUsage(path, { bound: MAX_USAGE_FILE_BYTES, regularOnly: true, noFollow: true }, true),
  };
}

/** A usage file the user names (normalize --usage-file): links followed, a pipe read to its end. */
export async function readUsageFile(path: string, stops: StopWatch): Promise<UsageFileRead> {
  return (await readUsage(path, { bound: MAX_USAGE_FILE_BYTES, stops }, false))!;
}

async function readUsage(
  path: string,
  reading: BoundedReading,
  missingIsNone: boolean,
): Promise<UsageFileRead | undefined> {
  const read = await readWholeFile(path, reading);
  if ("text" in read) return { text: read.text.toString("utf8") };
  if ("stopped" in read) return read;
  return missingIsNone && read.refused.why === "missing" ? undefined : { problem: read.refused.problem };
}
