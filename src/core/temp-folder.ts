import { accessSync, constants, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { resolve } from "node:path";
import { UsageError } from "./errors.js";
import { fileErrorReason } from "./file-errors.js";

/**
 * agentstream's temporary folder: os.tmpdir() (TMPDIR, else TMP or TEMP, else /tmp) made absolute
 * against agentstream's own directory. Paths in it are handed to backends that run elsewhere (--cwd):
 * a relative one would point into their folder.
 */
export function tempFolder(): string {
  return resolve(tmpdir());
}

/** The temporary folder as the user set it: the variable and its value, or /tmp when none is set. */
export function tempFolderAsSet(): string {
  const variable = ["TMPDIR", "TMP", "TEMP"].find((name) => process.env[name]);
  if (variable === undefined) return `the temporary folder ${tempFolder()} (TMPDIR is not set)`;
  const value = process.env[variable]!;
  const absolute = tempFolder();
  return `${variable} ${value}${absolute === value.replace(/\/+$/, "") ? "" : ` (${absolute})`}`;
}

/** Why files cannot be made in `dir`, in words; undefined when they can. */
export function folderProblem(dir: string): string | undefined {
  try {
    if (!statSync(dir).isDirectory()) return "it is not a directory";
    accessSync(dir, constants.W_OK | constants.X_OK);
    return undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return "no such directory";
    if (code === "ENOTDIR") return "a part of its path is not a directory";
    return fileErrorReason(err as NodeJS.ErrnoException);
  }
}

/** The temporary folder, checked before a run makes files in it: a UsageError (exit 2) naming TMPDIR when it cannot hold them. */
export function usableTempFolder(): string {
  const dir = tempFolder();
  const problem = folderProblem(dir);
  if (problem !== undefined) throw tempFolderError(problem);
  return dir;
}

/** A UsageError saying what is wrong with the temporary folder, with the way out. */
export function tempFolderError(problem: string): UsageError {
  return new UsageError(
    `${tempFolderAsSet()}: ${problem}; agentstream keeps the run's temporary files there`,
    "point TMPDIR at a directory you can write to, or unset it (then /tmp is used)",
  );
}
