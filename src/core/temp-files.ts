import { randomBytes } from "node:crypto";
import { closeSync, openSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tempFolder } from "./temp-folder.js";

/** The signals that end a process that does not hear them, as agentstream's stop signals are (src/run/stop-signals.ts). */
const ENDING_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** A temporary file of agentstream's own (a spill): its path and its open descriptor. */
export interface TempFile {
  readonly path: string;
  readonly fd: number;
}

/**
 * The temporary files that exist, removed however the process ends: by their owner (`removeTempFile`), as
 * the process exits, or on a stop signal that nothing else hears (`export atif` dies of one). Only the
 * names go there: a document an exit listener still writes (`--atif`) reads on through the descriptor.
 */
const live = new Set<TempFile>();

/**
 * A stop signal while temporary files exist: where agentstream (or the library's caller) hears it, it
 * decides what follows, and the exit removes them; where no one else does, they are removed and the
 * signal raised again, so the process dies of it as it would have.
 */
const onSignal = (signal: NodeJS.Signals): void => {
  if (process.listenerCount(signal) > 1) return;
  unlinkAll();
  unlisten();
  process.kill(process.pid, signal);
};

function unlinkAll(): void {
  for (const file of live) rmSync(file.path, { force: true });
}

function listen(): void {
  process.on("exit", unlinkAll);
  for (const signal of ENDING_SIGNALS) process.on(signal, onSignal);
}

function unlisten(): void {
  process.off("exit", unlinkAll);
  for (const signal of ENDING_SIGNALS) process.off(signal, onSignal);
}

/**
 * A new file in agentstream's temporary folder (`<prefix>-<pid>-<random><suffix>`, mode 600, opened for
 * reading and writing), removed however the process ends unless `removeTempFile` removes it first. Throws
 * what openSync throws.
 */
export function makeTempFile(prefix: string, suffix: string): TempFile {
  const path = join(tempFolder(), `${prefix}-${process.pid}-${randomBytes(6).toString("hex")}${suffix}`);
  const file = { path, fd: openSync(path, "wx+", 0o600) };
  if (live.size === 0) listen();
  live.add(file);
  return file;
}

/** Closes and removes the file. */
export function removeTempFile(file: TempFile): void {
  if (!live.delete(file)) return;
  if (live.size === 0) unlisten();
  try {
    closeSync(file.fd);
  } finally {
    rmSync(file.path, { force: true });
  }
}
