import { randomBytes } from "node:crypto";
import {
  accessSync,
  closeSync,
  constants,
  fchmodSync,
  lstatSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { UsageError } from "../core/errors.js";
import { fileErrorReason } from "../core/file-errors.js";
import { linkTarget } from "../core/file-identity.js";

/**
 * A file written once, at the end, into a temporary file in its folder that is
 * then renamed over it, so a reader never sees half of it (`--answer-file`,
 * `--report`, `report --out`). Opening creates the temporary file, so a path
 * that cannot be written is refused before any work starts. Whatever ends the
 * process first leaves no temporary file.
 */
export class ReplacedFile {
  private done = false;
  private readonly onExit = (): void => (this.atExit ? this.atExit() : this.discard());

  private constructor(
    /** What the user gave, for messages. */
    readonly given: string,
    private readonly what: string,
    private readonly path: string,
    private readonly temp: string,
    private readonly fd: number,
    private readonly atExit: (() => void) | undefined,
  ) {
    process.once("exit", this.onExit);
  }

  /**
   * `what` names the file in messages (`--answer-file`). A folder that is
   * missing or read-only, or a file that is read-only, a directory, a device or
   * a FIFO, is a usage error (exit 2). A symbolic link is followed: its target
   * is replaced, the link kept. `atExit` runs should the process exit before
   * the file is finished (by default it is discarded).
   */
  static open(path: string, what: string, atExit?: () => void): ReplacedFile {
    const target = existingTarget(path, what);
    const temp = join(dirname(target), `.${basename(target)}.agentstream-${randomBytes(6).toString("hex")}.tmp`);
    let fd: number;
    try {
      fd = openSync(temp, "wx", 0o666);
    } catch (err) {
      throw new UsageError(`cannot write ${what} ${path}: ${folderErrorReason(err as NodeJS.ErrnoException)}`);
    }
    // The file put in place keeps the mode of the one it replaces (a 600 answer stays 600).
    const mode = existingMode(target);
    if (mode !== undefined) fchmodSync(fd, mode);
    return new ReplacedFile(path, what, target, temp, fd, atExit);
  }

  /** Puts `text` (or its pieces, written one by one) in place. Once; a failure is said on stderr and returns false. */
  commit(text: string | Iterable<string | Buffer>): boolean {
    return this.end(text);
  }

  /** Leaves the file as it was. */
  discard(): void {
    this.end(undefined);
  }

  /** Removes the file (there is nothing to put there). */
  remove(): boolean {
    return this.end(null);
  }

  private end(text: string | Iterable<string | Buffer> | undefined | null): boolean {
    if (this.done) return false;
    this.done = true;
    process.off("exit", this.onExit);
    try {
      const writing = text !== undefined && text !== null;
      if (typeof text === "string") writeFileSync(this.fd, text);
      else if (writing) for (const piece of text) writeFileSync(this.fd, piece);
      closeSync(this.fd);
      if (writing) renameSync(this.temp, this.path);
      else if (text === null) rmSync(this.path, { force: true });
      return true;
    } catch (err) {
      process.stderr.write(
        `agentstream: cannot write ${this.what} ${this.path}: ${fileErrorReason(err as NodeJS.ErrnoException)}\n`,
      );
      return false;
    } finally {
      rmSync(this.temp, { force: true });
    }
  }
}

/** The path to replace: a symbolic link's target (the link stays), which must be a regular file if it exists. */
function existingTarget(path: string, what: string): string {
  let target = path;
  try {
    if (lstatSync(path).isSymbolicLink()) target = linkTarget(path);
  } catch {
    return path; // missing
  }
  let isFile: boolean;
  try {
    isFile = statSync(target).isFile();
  } catch {
    return target;
  }
  if (!isFile)
    throw new UsageError(
      `cannot write ${what} ${path}: it is not a regular file`,
      "give the path of a file to create or replace",
    );
  // Renaming would replace a read-only file; refuse it, as a shell's `>` does.
  try {
    accessSync(target, constants.W_OK);
  } catch (err) {
    throw new UsageError(`cannot write ${what} ${path}: ${fileErrorReason(err as NodeJS.ErrnoException)}`);
  }
  return target;
}

function existingMode(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o7777;
  } catch {
    return undefined;
  }
}

function folderErrorReason(err: NodeJS.ErrnoException): string {
  return err.code === "ENOENT" || err.code === "ENOTDIR" ? "its folder does not exist" : fileErrorReason(err);
}
