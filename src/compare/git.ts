// git, run as a program (argv, no shell): what a compare needs of it to make worktrees and diffs.
import { spawn } from "node:child_process";

export interface GitOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Each chunk of its stdout, as it comes (a diff of any size), instead of keeping it. */
  onStdout?: (chunk: Buffer) => void;
}

export class GitError extends Error {}

/** Runs git; its stdout (unless handed to onStdout), or a GitError with its stderr. */
export function git(args: readonly string[], options: GitOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, {
      cwd: options.cwd,
      env: { ...(options.env ?? process.env), GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (options.onStdout ? options.onStdout(chunk) : out.push(chunk)));
    child.stderr.setEncoding("utf8").on("data", (text: string) => {
      if (err.length < 4096) err += text;
    });
    child.on("error", (error) => reject(new GitError(`git ${args[0]}: ${error.message}`)));
    child.on("close", (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString("utf8"));
      else reject(new GitError(`git ${args.join(" ")}: ${err.trim() || `exit ${code}`}`));
    });
  });
}

/** The top of the git work tree holding `dir`, or undefined outside one (or without git). */
export async function gitTop(dir: string): Promise<string | undefined> {
  try {
    return (await git(["rev-parse", "--show-toplevel"], { cwd: dir })).trim();
  } catch {
    return undefined;
  }
}
