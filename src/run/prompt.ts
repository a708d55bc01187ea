import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { Readable } from "node:stream";
import { UsageError } from "../core/errors.js";

/**
 * The prompt, from the argument, from stdin (`-`) or from --prompt-file. One
 * trailing newline is dropped (files and `echo` add one); nothing else changes.
 */
export async function readPrompt(argument: string | undefined, promptFile: string | undefined, stdin: Readable): Promise<string> {
  if (argument !== undefined && promptFile !== undefined) {
    throw new UsageError("give the prompt either as PROMPT or with --prompt-file, not both");
  }
  let text: string;
  if (promptFile !== undefined) text = readPromptFile(promptFile);
  else if (argument === "-") text = await readAll(stdin);
  else if (argument !== undefined) return nonEmpty(argument);
  else throw new UsageError("no prompt given", 'agentstream run --backend evosci "your prompt" (or - to read it from stdin, or --prompt-file FILE)');
  return nonEmpty(text.replace(/\r?\n$/, ""));
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

function readPromptFile(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read --prompt-file ${file}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : (err as Error).message}`);
  }
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

function nonEmpty(prompt: string): string {
  if (prompt.trim() === "") throw new UsageError("the prompt is empty");
  return prompt;
}
