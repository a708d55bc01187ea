import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { Readable } from "node:stream";
import { OptionError, StoppedBeforeStart, UsageError } from "../core/errors.js";
import { readStreamBounded, readWholeFile, type BoundedRead } from "./bounded-file.js";
import type { StopWatch } from "./stop-signals.js";
import { shortenedPrompt } from "../core/prompt-text.js";

/**
 * The longest prompt a backend can be given: it is one argument, and Linux
 * takes at most 128 KiB per argument (MAX_ARG_STRLEN), its closing NUL
 * included. A longer one fails to spawn (E2BIG).
 */
export const MAX_PROMPT_BYTES = 128 * 1024 - 1;

/** Past this many characters, run.started.command shows the prompt shortened. */
const SHOWN_PROMPT_CHARS = 4096;

/**
 * The prompt, from the argument, from stdin (`-`) or from --prompt-file. One
 * trailing newline is dropped (files and `echo` add one); nothing else changes:
 * a prompt that cannot reach the backend byte for byte is refused, as is one
 * too long to be an argument (read no further than that).
 */
export async function readPrompt(
  argument: string | undefined,
  promptFile: string | undefined,
  stdin: Readable,
  backend: string,
  stops: StopWatch,
): Promise<string> {
  if (argument !== undefined && promptFile !== undefined) {
    throw new UsageError("give the prompt either as PROMPT or with --prompt-file, not both");
  }
  let text: string;
  if (promptFile !== undefined) text = utf8(await readPromptFile(promptFile, stops), `--prompt-file ${promptFile}`);
  else if (argument === "-") text = utf8(await readStdinUnlessStopped(stdin, stops), "the prompt on stdin");
  else if (argument !== undefined) return passable(argument, "the prompt");
  else
    throw new UsageError(
      "no prompt given",
      `agentstream run --backend ${backend} "your prompt" (or - to read it from stdin, or --prompt-file FILE)`,
    );
  return passable(
    text.replace(/\r?\n$/, ""),
    promptFile !== undefined ? `--prompt-file ${promptFile}` : "the prompt on stdin",
  );
}

/** The directory the backend runs in: --cwd, checked before anything is spawned. */
export function workingDirectory(dir: string | undefined): string {
  const path = resolve(dir ?? ".");
  let isDirectory = false;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    // reported below
  }
  if (!isDirectory) throw new OptionError((name) => `${name("cwd")} ${dir}: not a directory`);
  return path;
}

/**
 * The prompt as run.started.command (and --verbose) show it: a long one is
 * cut, and says so, so that the first line of a stream stays short.
 */
export function promptAsShown(prompt: string): string {
  return shortenedPrompt(prompt, SHOWN_PROMPT_CHARS).text;
}

// What may be read: the longest prompt, and the newline that would be dropped ("\r\n").
const READ_LIMIT = MAX_PROMPT_BYTES + 2;

/** The file, read no further than the limit, whatever it is (a FIFO no one writes to, /dev/zero); a stop signal ends the wait. */
async function readPromptFile(file: string, stops: StopWatch): Promise<Buffer> {
  const source = `--prompt-file ${file}`;
  const read = await readWholeFile(file, { bound: READ_LIMIT, stops });
  if ("text" in read) return read.text;
  if ("stopped" in read) throw new StoppedBeforeStart(read.stopped, `reading ${source}`);
  if (read.refused.why === "too_large") throw tooLong(source, READ_LIMIT + 1, true);
  throw new UsageError(`cannot read ${source}: ${read.refused.problem}`);
}

/** Nothing has started while the prompt is awaited: a stop signal ends agentstream there. */
async function readStdinUnlessStopped(stdin: Readable, stops: StopWatch): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const read: BoundedRead = await readStreamBounded(stdin, READ_LIMIT, stops, (chunk) => chunks.push(chunk));
  if ("stopped" in read) throw new StoppedBeforeStart(read.stopped, "reading the prompt from stdin");
  if ("refused" in read) {
    if (read.refused.why === "too_large") throw tooLong("the prompt on stdin", READ_LIMIT + 1, true);
    throw new UsageError(`cannot read the prompt on stdin: ${read.refused.problem}`);
  }
  return Buffer.concat(chunks);
}

function tooLong(source: string, bytes: number, atLeast = false): OptionError {
  return new OptionError(
    () =>
      `${source} is too long for the command line: ${atLeast ? "at least " : ""}${bytes} bytes, where a prompt is passed to the backend as one argument of at most ${MAX_PROMPT_BYTES} bytes (128 KiB)`,
    (name) => `put the long text in a file the agent can read (in ${name("cwd")}) and name that file in a short prompt`,
  );
}

// An argument is UTF-8 on its way to the backend: other bytes would arrive as U+FFFD.
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function utf8(bytes: Buffer, source: string): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    throw new UsageError(`${source} is not valid UTF-8`, "convert it first, e.g. iconv -f LATIN1 -t UTF-8");
  }
}

/** A prompt that can reach the backend as one argument: not empty, no NUL byte, not too long. */
export function passable(prompt: string, source: string): string {
  if (prompt.trim() === "") throw new UsageError("the prompt is empty");
  // No program can be given an argument holding a NUL byte.
  if (prompt.includes("\0"))
    throw new UsageError("the prompt contains a NUL byte, which no program can be given as an argument");
  const bytes = Buffer.byteLength(prompt);
  if (bytes > MAX_PROMPT_BYTES) throw tooLong(source, bytes);
  return prompt;
}
