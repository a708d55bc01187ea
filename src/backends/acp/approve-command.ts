// `run --approve-with CMD`: one permission request answered by the caller's command. It runs as `sh -c CMD`
// (a command line, as git runs core.editor), the request on its stdin, never in its command line: no text of
// the agent's is ever read by a shell. Exit 0 allows, exit 1 rejects; anything else rejects and says why.
import { spawn } from "node:child_process";
import { clip } from "../../core/clip.js";
import { signalGroup } from "../../run/process-group.js";

/** What the command decided, and, where it did not answer 0 or 1, why the call is rejected. */
export interface CommandVerdict {
  decision: "allow" | "reject";
  problem?: string;
}

/** What is kept of the command's stderr to say why it failed (its last bytes); its stdout is read and dropped. */
const KEPT_STDERR = 2048;
/** The most of that the warning quotes. */
const SHOWN_STDERR = 200;

/**
 * Run CMD for one request: `line` (the input.requested event as the stream shows it) on its stdin. It runs in
 * its own process group, killed whole (SIGKILL) once it answered (what it left in the background too), at
 * `timeoutMs`, or when `stop` aborts: it never outlives its answer.
 */
export function runApproveCommand(
  command: string,
  line: string,
  options: { timeoutMs: number; stop: AbortSignal },
): Promise<CommandVerdict> {
  return new Promise((resolve) => {
    if (options.stop.aborted) return resolve({ decision: "reject", problem: "the run was stopped" });
    const child = spawn("/bin/sh", ["-c", command], { detached: true, stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    let settled = false;
    const done = (verdict: CommandVerdict): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.stop.removeEventListener("abort", onStop);
      if (child.pid !== undefined) signalGroup(child.pid, "SIGKILL");
      resolve(verdict);
    };
    const onStop = (): void => done({ decision: "reject", problem: "the run was stopped" });
    const timer = setTimeout(
      () => done({ decision: "reject", problem: `gave no answer within ${options.timeoutMs / 1000} s (killed)` }),
      options.timeoutMs,
    );
    options.stop.addEventListener("abort", onStop, { once: true });
    child.on("error", (err: NodeJS.ErrnoException) =>
      done({ decision: "reject", problem: `could not start (${err.code ?? err.message})` }),
    );
    // A command that does not read its stdin (or exits first) closes it: nothing to say.
    child.stdin.on("error", () => {});
    child.stdin.end(`${line}\n`);
    child.stdout.resume();
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-KEPT_STDERR);
    });
    let verdict = (): CommandVerdict => ({ decision: "reject", problem: "ended without an exit status" });
    // Once it exited, what it left in its group is killed: its pipes then close, and its stderr is all read.
    child.on("exit", (code, signal) => {
      verdict = () => verdictOf(code, signal, stderr);
      if (child.pid !== undefined) signalGroup(child.pid, "SIGKILL");
      // A child that left the group (setsid) may hold the pipes open: the exit status is answer enough.
      setTimeout(() => done(verdict()), CLOSE_GRACE_MS).unref();
    });
    child.on("close", () => done(verdict()));
  });
}

/** How long the pipes may stay open after the command exited before its answer is taken without them. */
const CLOSE_GRACE_MS = 500;

function verdictOf(code: number | null, signal: NodeJS.Signals | null, stderr: string): CommandVerdict {
  if (code === 0) return { decision: "allow" };
  if (code === 1) return { decision: "reject" };
  const how = signal !== null ? `was killed by ${signal}` : `exited ${code}`;
  const said = lastLine(stderr);
  return { decision: "reject", problem: `${how}, not 0 (allow) or 1 (reject)${said ? ` (stderr: ${said})` : ""}` };
}

/** The last non-empty line of what the command wrote on stderr, cut. */
function lastLine(text: string): string {
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  return clip(lines.at(-1) ?? "", SHOWN_STDERR);
}
