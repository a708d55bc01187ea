import { randomBytes } from "node:crypto";
import { accessSync, closeSync, constants, lstatSync, openSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { CanonicalEvent, EventOf } from "../canonical/events.js";
import { UsageError } from "../core/errors.js";
import type { Redactor } from "../core/redactor.js";
import type { RunOutput } from "../run/output.js";
import { finalAnswerText } from "../core/canonical-output.js";
import { fileErrorReason } from "./input.js";

/**
 * `--answer-file FILE`: the run's final answer (what `--output text` prints,
 * redacted the same way), written when the run ends into a temporary file in
 * FILE's folder and renamed over FILE, so a reader never sees half an answer.
 * A run without a final answer leaves no FILE: one from an earlier run is
 * removed, so after agentstream exits FILE exists exactly when this run had an
 * answer.
 */
export class AnswerFile {
  private finished: EventOf<"run.finished"> | undefined;
  private done = false;
  // Whatever ends the process before finish() (stdout closed, an internal error): no answer.
  private readonly onExit = (): void => this.finish();

  private constructor(
    private readonly path: string,
    private readonly temp: string,
    private readonly fd: number,
    private readonly redactor: Redactor,
  ) {
    process.once("exit", this.onExit);
  }

  /**
   * Checks FILE can be written before anything runs, by creating the temporary
   * file beside it: a folder that is missing or read-only, or a FILE that is
   * read-only, a directory, a device or a FIFO, is a usage error (exit 2).
   */
  static open(path: string, redactor: Redactor): AnswerFile {
    const target = existingTarget(path);
    const temp = join(dirname(target), `.${basename(target)}.agentstream-${randomBytes(6).toString("hex")}.tmp`);
    let fd: number;
    try {
      fd = openSync(temp, "wx", 0o666);
    } catch (err) {
      throw new UsageError(`cannot write --answer-file ${path}: ${folderErrorReason(err as NodeJS.ErrnoException)}`);
    }
    return new AnswerFile(target, temp, fd, redactor);
  }

  event(event: CanonicalEvent): void {
    if (event.type === "run.finished") this.finished = event;
  }

  /** Puts the answer in place, or removes FILE when there is none. Once; a failure is said on stderr. */
  finish(): void {
    if (this.done) return;
    this.done = true;
    process.off("exit", this.onExit);
    const answer = this.finished ? finalAnswerText(this.finished) : undefined;
    try {
      if (answer !== undefined) writeFileSync(this.fd, this.redactor.text(answer));
      closeSync(this.fd);
      if (answer !== undefined) renameSync(this.temp, this.path);
      else rmSync(this.path, { force: true });
    } catch (err) {
      process.stderr.write(`agentstream: cannot write --answer-file ${this.path}: ${fileErrorReason(err as NodeJS.ErrnoException)}\n`);
    } finally {
      rmSync(this.temp, { force: true });
    }
  }
}

/** The stdout output, also feeding the answer file (when there is one) and finishing it with the run. */
export function withAnswerFile(output: RunOutput, file: AnswerFile | undefined): RunOutput {
  if (!file) return output;
  return {
    writer: output.writer,
    sink: (event) => {
      output.sink(event);
      file.event(event);
    },
    finish: () => {
      output.finish();
      file.finish();
    },
  };
}

/** The path to replace: a symbolic link's target (the link stays), which must be a regular file if it exists. */
function existingTarget(path: string): string {
  let target = path;
  try {
    if (lstatSync(path).isSymbolicLink()) target = realpathSync(path);
  } catch {
    return path; // missing (or a dangling link, which the rename replaces)
  }
  let isFile: boolean;
  try {
    isFile = statSync(target).isFile();
  } catch {
    return target;
  }
  if (!isFile) throw new UsageError(`cannot write --answer-file ${path}: it is not a regular file`, "give the path of a file to create or replace");
  // Renaming would replace a read-only file; refuse it, as a shell's `>` does.
  try {
    accessSync(target, constants.W_OK);
  } catch (err) {
    throw new UsageError(`cannot write --answer-file ${path}: ${fileErrorReason(err as NodeJS.ErrnoException)}`);
  }
  return target;
}

function folderErrorReason(err: NodeJS.ErrnoException): string {
  return err.code === "ENOENT" || err.code === "ENOTDIR" ? "its folder does not exist" : fileErrorReason(err);
}
