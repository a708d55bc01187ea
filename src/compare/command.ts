// A task's setup or check command, run in a cell's workspace: without a shell unless asked ({ shell }), in a
// process group of its own, bounded by its timeout, its output (redacted) kept in a log file. Whatever it
// leaves running is killed once it ends: nothing outlives the cell.
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import type { CommandSpec } from "../app/compare-values.js";
import type { Redactor } from "../core/redactor.js";
import { HostStop } from "../run/host.js";
import { signalGroup } from "../run/process-group.js";
import { splitWords } from "./words.js";

/** How a command ended: exit 0 passed; else failed, timed out, or stopped with the compare. */
export type CommandVerdict = "passed" | "failed" | "timed_out" | "stopped";

export interface CommandEnd {
  verdict: CommandVerdict;
  exitCode: number | null;
  signal: string | null;
  durationMs: number;
}

/** The argv of a command: its words, or sh -c for a { shell } line. */
export function argvOf(command: CommandSpec, named: string): string[] {
  if (typeof command === "string") return splitWords(command, named);
  if ("shell" in command) return ["sh", "-c", command.shell];
  return [...command];
}

/** How a command is shown in a log and a row: its line, or its words joined. */
export function commandShown(command: CommandSpec): string {
  if (typeof command === "string") return command;
  if ("shell" in command) return `sh -c ${JSON.stringify(command.shell)}`;
  return command.join(" ");
}

const KILL_AFTER_MS = 2000;

export async function runCommand(
  command: CommandSpec,
  named: string,
  options: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    timeoutMs: number;
    log: string;
    redactor: Redactor;
    stop: AbortSignal;
  },
): Promise<CommandEnd> {
  const argv = argvOf(command, named);
  const log = createWriteStream(options.log);
  const started = performance.now();
  log.write(options.redactor.text(`$ ${commandShown(command)}\n`));
  const end = (verdict: CommandVerdict, exitCode: number | null, signal: string | null): CommandEnd => ({
    verdict,
    exitCode,
    signal,
    durationMs: Math.round(performance.now() - started),
  });
  if (options.stop.aborted) {
    log.end();
    await once(log, "close");
    return end("stopped", null, null);
  }
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let tail = "";
  const take = (chunk: Buffer): void => {
    // Redacted line by line: a secret is never cut in two by a chunk's edge.
    const text = tail + chunk.toString("utf8");
    const cut = text.lastIndexOf("\n") + 1;
    tail = text.slice(cut);
    if (cut > 0) log.write(options.redactor.text(text.slice(0, cut)));
  };
  child.stdout.on("data", take);
  child.stderr.on("data", take);
  let why: "timed_out" | "stopped" | undefined;
  const stopGroup = (reason: "timed_out" | "stopped"): void => {
    why ??= reason;
    if (child.pid !== undefined) signalGroup(child.pid, "SIGTERM");
    setTimeout(() => child.pid !== undefined && signalGroup(child.pid, "SIGKILL"), KILL_AFTER_MS).unref();
  };
  const timer = setTimeout(() => stopGroup("timed_out"), options.timeoutMs);
  let unhearKillNow: (() => void) | undefined;
  const onStop = (): void => {
    stopGroup("stopped");
    // The compare's second signal: killed at once.
    const reason: unknown = options.stop.reason;
    if (reason instanceof HostStop)
      unhearKillNow = reason.onKillNow(() => child.pid !== undefined && signalGroup(child.pid, "SIGKILL"));
  };
  options.stop.addEventListener("abort", onStop, { once: true });
  // Listened to from the spawn: it may come as soon as the exit does.
  const closed = once(child, "close").catch(() => undefined);
  const exited = new Promise<{ code: number | null; signal: string | null } | { error: Error }>((resolve) => {
    child.on("error", (error) => resolve({ error }));
    child.on("exit", (code, signal) => {
      // What it left behind in its group (a server a test started) is killed with it.
      if (child.pid !== undefined) signalGroup(child.pid, "SIGKILL");
      resolve({ code, signal });
    });
  });
  const result = await exited;
  // Its pipes close once every process holding them is gone (killed above).
  if (!("error" in result)) await closed;
  clearTimeout(timer);
  options.stop.removeEventListener("abort", onStop);
  unhearKillNow?.();
  if (tail !== "") log.write(options.redactor.text(`${tail}\n`));
  let ended: CommandEnd;
  if ("error" in result) {
    log.write(options.redactor.text(`agentstream: cannot run ${argv[0]}: ${result.error.message}\n`));
    ended = end("failed", null, null);
  } else {
    const verdict = why ?? (result.code === 0 ? "passed" : "failed");
    log.write(
      `agentstream: ${verdict === "timed_out" ? `timed out after ${options.timeoutMs / 1000} s` : verdict === "stopped" ? "stopped with the compare" : `exit ${result.code ?? result.signal}`}\n`,
    );
    ended = end(verdict, result.code, result.signal);
  }
  log.end();
  await once(log, "close");
  return ended;
}
