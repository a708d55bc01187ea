// Run a process to its end and keep what it wrote.
import { spawn } from "node:child_process";

/**
 * Resolves with `{ stdout, stderr, exitCode, signal }`. Options: `cwd`, `env`,
 * `input` (written to stdin, else stdin is closed), `timeoutMs` (then
 * SIGKILL), and `stopWhen(stdoutSoFar)` + `stopSignal`: the signal is sent once,
 * the first time `stopWhen` holds (checked on each stdout chunk, and every
 * `pollMs` too when given: for conditions on more than stdout). With `group`, the process runs in a process
 * group of its own and signals go to the whole group (as agentstream sends
 * them: Gemini CLI's launcher ignores signals and leaves them to its child).
 */
export function spawnCollect(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      detached: options.group === true,
    });
    const send = (signal) => {
      try {
        if (options.group) process.kill(-child.pid, signal);
        else child.kill(signal);
      } catch {
        // Already gone (a poll can come between its exit and the close of its pipes).
      }
    };
    const limit = options.timeoutMs ? setTimeout(() => send("SIGKILL"), options.timeoutMs) : undefined;
    let stdout = "";
    let stderr = "";
    let stopped = false;
    const checkStop = () => {
      if (options.stopWhen && !stopped && options.stopWhen(stdout)) {
        stopped = true;
        clearInterval(poll);
        send(options.stopSignal ?? "SIGTERM");
      }
    };
    const poll = options.stopWhen && options.pollMs ? setInterval(checkStop, options.pollMs) : undefined;
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      stdout += chunk;
      checkStop();
    });
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    child.on("error", (err) => {
      clearTimeout(limit);
      clearInterval(poll);
      reject(err);
    });
    child.on("close", (exitCode, signal) => {
      clearTimeout(limit);
      clearInterval(poll);
      resolve({ stdout, stderr, exitCode, signal });
    });
    if (options.input !== undefined) child.stdin.end(options.input);
  });
}
