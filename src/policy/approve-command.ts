// `run --approve-with CMD`: one permission request answered by the caller's command. It runs as `sh -c CMD`
// (a command line, as git runs core.editor), the request on its stdin, never in its command line: no text of
// the agent's is ever read by a shell. Exit 0 allows, exit 1 rejects; anything else rejects and says why.
import { clip } from "../core/clip.js";
import { BackendProcess } from "../run/backend-process.js";

/** What the command decided, and, where it did not answer 0 or 1, why the call is rejected. */
export interface CommandVerdict {
  decision: "allow" | "reject";
  problem?: string;
}

/** What is kept of the command's stderr to say why it failed (its last bytes); its stdout is read and dropped. */
const KEPT_STDERR = 2048;
/** The most of that the warning quotes. */
const SHOWN_STDERR = 200;
/** How long what the command left behind has after SIGTERM before SIGKILL (as a backend's, with a short grace). */
const LEFT_BEHIND_GRACE_MS = 500;

/**
 * Run CMD for one request: `line` (the input.requested event as the stream shows it) on its stdin. It runs as a
 * backend does (src/run/backend-process.ts): in its own process group, and once it exited (its answer), at
 * `timeoutMs` or when `stop` aborts, killed with everything it left: its group, the groups its descendants made
 * (setsid), and any process still holding its stdout or stderr (a daemon). The verdict is its exit status; it is
 * given once all of that is gone: it never outlives its answer, and no pipe it left open keeps the run waiting.
 */
export async function runApproveCommand(
  command: string,
  line: string,
  options: { timeoutMs: number; stop: AbortSignal },
): Promise<CommandVerdict> {
  const end = await runAnswerCommand(command, line, options);
  if ("problem" in end) return { decision: "reject", problem: end.problem };
  return verdictOf(end.code, end.signal, end.stderr);
}

/** How an answering command ended: its exit status with what it wrote (stdout only where kept), or why it gave none. */
export type CommandEnd =
  | { code: number | null; signal: string | null; stdout: string; stdoutOverflow: boolean; stderr: string }
  | { problem: string };

/**
 * Run CMD for one request as runApproveCommand does, keeping up to `keepStdout` bytes of its stdout (a
 * question's answer; the rest is read and dropped, and said to overflow).
 */
export async function runAnswerCommand(
  command: string,
  line: string,
  options: { timeoutMs: number; stop: AbortSignal; keepStdout?: number },
): Promise<CommandEnd> {
  if (options.stop.aborted) return { problem: "the run was stopped" };
  const child = new BackendProcess({
    file: "/bin/sh",
    args: ["-c", command],
    cwd: process.cwd(),
    env: process.env,
    graceMs: LEFT_BEHIND_GRACE_MS,
    pipeStdin: true,
  });
  let stderr = "";
  let early: string | undefined;
  const killFor = (problem: string): void => {
    early ??= problem;
    child.kill();
  };
  const onStop = (): void => killFor("the run was stopped");
  const timer = setTimeout(
    () => killFor(`gave no answer within ${options.timeoutMs / 1000} s (killed)`),
    options.timeoutMs,
  );
  options.stop.addEventListener("abort", onStop, { once: true });
  // A command that does not read its stdin (or exits first) closes it: nothing to say.
  child.stdin?.on("error", () => {});
  child.stdin?.end(`${line}\n`);
  const keep = options.keepStdout ?? 0;
  let stdout = "";
  let stdoutOverflow = false;
  if (keep > 0) child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string | Buffer) => {
    if (keep === 0 || stdoutOverflow) return;
    stdout += chunk;
    if (stdout.length > keep) {
      stdoutOverflow = true;
      stdout = "";
    }
  });
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-KEPT_STDERR);
  });
  try {
    const end = await child.ended;
    if (early !== undefined) return { problem: early };
    if (!end.launched) return { problem: `could not start (${end.error.code ?? end.error.message})` };
    return { code: end.exit.code, signal: end.exit.signal, stdout, stdoutOverflow, stderr };
  } finally {
    clearTimeout(timer);
    options.stop.removeEventListener("abort", onStop);
  }
}

function verdictOf(code: number | null, signal: string | null, stderr: string): CommandVerdict {
  if (code === 0) return { decision: "allow" };
  if (code === 1) return { decision: "reject" };
  return { decision: "reject", problem: otherExit(code, signal, stderr, "0 (allow) or 1 (reject)") };
}

/** A command's exit that is no answer, said: how it ended, what was expected, the last line of its stderr. */
export function otherExit(code: number | null, signal: string | null, stderr: string, expected: string): string {
  const how = signal !== null ? `was killed by ${signal}` : `exited ${code}`;
  const said = lastLine(stderr);
  return `${how}, not ${expected}${said ? ` (stderr: ${said})` : ""}`;
}

/** The last non-empty line of what the command wrote on stderr, cut. */
function lastLine(text: string): string {
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  return clip(lines.at(-1) ?? "", SHOWN_STDERR);
}
