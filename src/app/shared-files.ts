// No output overwrites an input or another output: the files a command reads and writes, as the option
// table's rows declare them (`file`) and as the command adds its own (its input, stdin, stdout), compared
// once before anything is read or started. One file is one file however it is named: the same path, a
// hard or symbolic link to it (device and inode), or, for a file not there yet, the path it would be made at.
import { descriptorIdentity, fileIdentity } from "../core/file-identity.js";
import { OptionError, type OptionNaming, type Worded } from "../core/errors.js";
import type { Command } from "./options.js";
import { rowsOf, type Request } from "./request.js";

/** One file a command reads or writes, as the refusal names it. */
export interface UsedFile {
  role: "reads" | "writes";
  /** The option and the file as each side names them: `--atif out.json`, `option atif "out.json"`. */
  named: Worded;
  /** Undefined: a file no output can be (a folder, a device, a pipe); compared with none. */
  identity: string | undefined;
  /** An input read whole before anything is written (an option's file, a prompt on stdin), not as a stream. */
  readFirst?: true;
  /** An output only added to, never replaced: stdout redirected with `>>`, `>` having truncated it already. */
  appends?: true;
}

const readFirst = true;

/** The files a request's options name, by their rows: a path, or the file a variable names (--summary). */
export function optionFiles<C extends Command>(
  command: C,
  request: Request<C>,
  env: NodeJS.ProcessEnv = process.env,
): UsedFile[] {
  return rowsOf(command).flatMap((row) => {
    const { file } = row;
    const value = (request as Record<string, unknown>)[row.key];
    if (file === undefined || value === undefined || value === false) return [];
    const path = file.env === undefined ? value : env[file.env];
    if (typeof path !== "string" || path === "") return [];
    const shown = file.env === undefined ? path : `($${file.env} ${path})`;
    const named = (name: OptionNaming): string => `${name(row.key)} ${shown}`;
    // An option's file is read whole before anything is written.
    return [{ role: file.role, named, identity: fileIdentity(path), ...(file.role === "reads" ? { readFirst } : {}) }];
  });
}

/** An input the command itself reads as a stream (its argument, a stream's file): `-` is stdin, where that is a file. */
export function inputFile(path: string): UsedFile {
  if (path === "-") return { role: "reads", named: () => "stdin (the input)", identity: descriptorIdentity(0) };
  return { role: "reads", named: () => `the input ${path}`, identity: fileIdentity(path) };
}

/** A run's prompt read from stdin (`run -`), where stdin is a file: read whole before the backend starts. */
export function promptOnStdin(): UsedFile {
  return { role: "reads", named: () => "stdin (the prompt)", identity: descriptorIdentity(0), readFirst: true };
}

/** An output a command's own flag names (report --out FILE). */
export function outputFile(flag: string, path: string): UsedFile {
  return { role: "writes", named: () => `${flag} ${path}`, identity: fileIdentity(path) };
}

/**
 * The CLI's stdout, where it is a file: an output the others would replace (`--answer-file out > out`), and one
 * a streamed input would read back (`normalize rec.jsonl >> rec.jsonl`). A file read whole first may be appended
 * to: `run --continue-from log.jsonl >> log.jsonl` keeps adding runs to one log.
 */
export function stdoutFile(): UsedFile {
  return { role: "writes", named: () => "stdout", identity: descriptorIdentity(1), appends: true };
}

/** Refuses a request whose outputs overwrite an input or each other: its options' files and the command's own. */
export function refuseOverwrites<C extends Command>(command: C, request: Request<C>, own: readonly UsedFile[]): void {
  refuseSharedFiles([...optionFiles(command, request), ...own]);
}

/**
 * Refuses (an OptionError, exit 2) an output that is an input or another output, naming both. Nothing is
 * read, written or started before this.
 */
export function refuseSharedFiles(files: readonly UsedFile[]): void {
  files.forEach((output, at) => {
    if (output.role !== "writes" || output.identity === undefined) return;
    for (const other of files.slice(0, at).concat(files.slice(at + 1))) {
      if (other.identity !== output.identity || (output.appends && other.readFirst)) continue;
      const why = other.role === "reads" ? "the output would overwrite the input" : "each output needs its own";
      throw new OptionError(
        (name) => `${output.named(name)} and ${other.named(name)} are one file: ${why}`,
        () => "name a file of its own for each output",
      );
    }
  });
}
