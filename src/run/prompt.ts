import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { Readable } from "node:stream";
import type { Backend } from "../canonical/events.js";
import { UsageError } from "../core/errors.js";

/**
 * The prompt, from the argument, from stdin (`-`) or from --prompt-file. One
 * trailing newline is dropped (files and `echo` add one); nothing else changes:
 * a prompt that cannot reach the backend byte for byte is refused.
 */
export async function readPrompt(argument: string | undefined, promptFile: string | undefined, stdin: Readable, backend: Backend): Promise<string> {
  if (argument !== undefined && promptFile !== undefined) {
    throw new UsageError("give the prompt either as PROMPT or with --prompt-file, not both");
  }
  let text: string;
  if (promptFile !== undefined) text = utf8(readPromptFile(promptFile), `--prompt-file ${promptFile}`);
  else if (argument === "-") text = utf8(await readAll(stdin), "the prompt on stdin");
  else if (argument !== undefined) return passable(argument);
  else throw new UsageError("no prompt given", `agentstream run --backend ${backend} "your prompt" (or - to read it from stdin, or --prompt-file FILE)`);
  return passable(text.replace(/\r?\n$/, ""));
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
  if (!isDirectory) throw new UsageError(`--cwd ${dir}: not a directory`);
  return path;
}

function readPromptFile(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read --prompt-file ${file}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : (err as Error).message}`);
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
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

/** A prompt that can reach the backend as one argument: not empty, no NUL byte. */
export function passable(prompt: string): string {
  if (prompt.trim() === "") throw new UsageError("the prompt is empty");
  // No program can be given an argument holding a NUL byte.
  if (prompt.includes("\0")) throw new UsageError("the prompt contains a NUL byte, which no program can be given as an argument");
  return prompt;
}
