import { spawn, type ChildProcessByStdio } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { BIN, parseJsonl, runCli, type CliResult } from "./cli.js";
export { peakRssMiB, REPORT_PEAK_RSS } from "./cli.js";
import { strictProblems } from "./strict-schema.js";
import { verifyLines } from "./verify.js";

export const STAND_IN = fileURLToPath(new URL("../fixtures/backends/stand-in.mjs", import.meta.url));
export const transcript = (name: string): string =>
  fileURLToPath(new URL(`../fixtures/backends/transcripts/${name}`, import.meta.url));

// Git may not keep the executable bit everywhere; the stand-in is run as a program.
chmodSync(STAND_IN, 0o755);

export interface StandInRecord {
  argv: string[];
  /** The raw bytes of argv, NUL-terminated each (base64), where there is /proc. */
  argvBytes?: string;
  pid: number;
  cwd: string;
  stdin: { open: boolean; fifo?: boolean; socket?: boolean; tty?: boolean; firstRead?: number; error?: string };
  grandchild?: number;
}

/** A scratch directory per test file. */
export class Scratch {
  readonly dir = mkdtempSync(join(tmpdir(), "agentstream-run-"));
  private count = 0;

  /** A fresh path for a stand-in to record itself in. */
  recordPath(): string {
    return join(this.dir, `record-${++this.count}.json`);
  }

  /** A fresh path with this name. */
  path(name: string): string {
    return join(this.dir, `${++this.count}-${name}`);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The stand-in that recorded itself here, and the grandchild it started, are no longer running. */
export function expectNoneLeftRunning(recordPath: string): StandInRecord | undefined {
  if (!existsSync(recordPath)) return undefined;
  const record = readRecord(recordPath);
  const pids = { "stand-in": record.pid, grandchild: record.grandchild };
  const running = Object.entries(pids).filter(([, pid]) => pid !== undefined && isRunning(pid));
  // Killed before the verdict, so that a failing test leaves nothing behind either.
  for (const [, pid] of running) process.kill(pid!, "SIGKILL");
  expect(running.map(([who, pid]) => `${who} ${pid} still running`)).toEqual([]);
  return record;
}

/**
 * Running processes whose command line holds `token` (a prompt, an argument
 * made unique for one test): SIGKILLed as they are found, so that a failing
 * test leaves nothing behind either.
 */
export function killRunningWith(token: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline = "";
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
    } catch {
      continue;
    }
    if (cmdline.includes(token) && isRunning(Number(entry))) found.push(Number(entry));
  }
  for (const pid of found) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/**
 * Once the test is over, passed, failed or timed out: SIGKILL agentstream and
 * whatever these stand-in records name, so that a failing test leaves nothing behind.
 * (`onTestFinished` from the test's context: tests here run concurrently.)
 */
export function killAfterTest(onTestFinished: (fn: () => void) => void, run: LiveRun, ...records: string[]): void {
  onTestFinished(() => {
    run.child.kill("SIGKILL");
    for (const record of records.filter((path) => existsSync(path))) {
      const { pid, grandchild } = readRecord(record);
      for (const who of [pid, grandchild]) if (who !== undefined && isRunning(who)) process.kill(who, "SIGKILL");
    }
  });
}

export function readRecord(path: string): StandInRecord {
  return JSON.parse(readFileSync(path, "utf8")) as StandInRecord;
}

/** Running, not a zombie waiting to be reaped. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return process.platform !== "linux";
  }
}

const BASE_ENV = { NO_COLOR: "1", FORCE_COLOR: undefined };

export interface LiveRun {
  child: ChildProcessByStdio<Writable | null, Readable, Readable>;
  /** The next line agentstream writes on stdout (parsed). */
  nextEvent(): Promise<Record<string, unknown>>;
  /** Resolves when agentstream has exited, with all it wrote. */
  done: Promise<CliResult>;
}

export interface CliOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  stdin?: "ignore" | "pipe";
  /** Node options before agentstream's own (e.g. --import REPORT_PEAK_RSS). */
  node?: string[];
}

/** Start agentstream as a real process, its stdout and stderr piped to us. */
export function spawnCli(
  args: string[],
  options: CliOptions = {},
): ChildProcessByStdio<Writable | null, Readable, Readable> {
  return spawn(process.execPath, [...(options.node ?? []), BIN, ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...BASE_ENV, ...options.env },
    stdio: [options.stdin ?? "ignore", "pipe", "pipe"],
  }) as ChildProcessByStdio<Writable | null, Readable, Readable>;
}

/** Start agentstream and read its stdout line by line while it runs. */
export function startCli(args: string[], options: CliOptions = {}): LiveRun {
  const child = spawnCli(args, options);
  const all: string[] = [];
  const lines: string[] = [];
  const waiters: Array<(line: string) => void> = [];
  let stderr = "";
  const stdoutRead = eachLine(child.stdout, (line) => {
    all.push(line);
    const waiter = waiters.shift();
    if (waiter) waiter(line);
    else lines.push(line);
  });
  child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on("close", (code, signal) => resolve([code, signal])),
  );
  const done = Promise.all([exited, stdoutRead]).then(([[code, signal]]) => ({
    code,
    signal,
    stdout: all.filter(Boolean).join("\n"),
    stderr,
  }));
  const nextEvent = (): Promise<Record<string, unknown>> =>
    new Promise<string>((resolve) => {
      const line = lines.shift();
      if (line !== undefined) resolve(line);
      else waiters.push(resolve);
    }).then((line) => JSON.parse(line) as Record<string, unknown>);
  return { child, nextEvent, done };
}

/** Hand on each line of a stream as it arrives (a last one without "\n" too); resolves at its end. */
export function eachLine(stream: Readable, onLine: (line: string) => void): Promise<void> {
  let pending = "";
  stream.setEncoding("utf8").on("data", (data: string) => {
    const lines = (pending + data).split("\n");
    pending = lines.pop()!;
    for (const line of lines) onLine(line);
  });
  return new Promise((resolve) =>
    stream.on("close", () => {
      if (pending !== "") onLine(pending);
      resolve();
    }),
  );
}

/** Wait for the next stdout line of this type, skipping others. */
export async function nextOfType(run: LiveRun, type: string): Promise<Record<string, unknown>> {
  for (;;) {
    const event = await run.nextEvent();
    if (event.type === type) return event;
  }
}

/** The test side of the stand-in's gate: each next() lets one more native line out. */
export async function openGate(): Promise<{ port: number; next(): void; close(): Promise<void> }> {
  let socket: Socket | undefined;
  let early = 0;
  const server: Server = createServer((s) => {
    socket = s;
    for (; early > 0; early--) s.write("next\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    next: () => (socket ? socket.write("next\n") : early++),
    close: () =>
      new Promise((resolve) => {
        socket?.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * stdout is a valid canonical stream: `agentstream verify` finds nothing
 * wrong, every line passes the strict schema, seq counts from 1, run.started
 * first, run.finished last and once, and its exit_code is the process's exit
 * status.
 */
export function expectCanonical(result: CliResult): {
  events: Record<string, unknown>[];
  finished: Record<string, unknown>;
} {
  expect(verifyLines(result.stdout.split("\n").filter((line) => line !== ""))).toEqual([]);
  const events = parseJsonl(result.stdout);
  expect(events.length).toBeGreaterThanOrEqual(2);
  events.forEach((event, i) => {
    expect(strictProblems(event), `line ${i + 1} (${String(event.type)})`).toEqual([]);
    expect(event.seq).toBe(i + 1);
  });
  expect(events[0]!.type).toBe("run.started");
  expect(events.filter((e) => e.type === "run.finished")).toHaveLength(1);
  const finished = events.at(-1)!;
  expect(finished.type).toBe("run.finished");
  expect(finished.exit_code).toBe(result.code);
  return { events, finished };
}

/** Env for a stand-in run: the record path plus the stand-in's knobs. */
export function standInEnv(record: string, knobs: Record<string, string>): NodeJS.ProcessEnv {
  return { STANDIN_RECORD: record, ...knobs };
}

/** Run agentstream on the stand-in (or on `bin`); afterwards neither it nor its grandchild may be left running. */
export async function runStandIn(
  scratch: Scratch,
  args: string[],
  options: { knobs?: Record<string, string>; env?: NodeJS.ProcessEnv; cwd?: string; bin?: string } = {},
): Promise<{ result: CliResult; standIn: StandInRecord | undefined }> {
  const record = scratch.recordPath();
  const result = await runCli(["run", "--bin", options.bin ?? STAND_IN, ...args], {
    cwd: options.cwd,
    env: { ...standInEnv(record, options.knobs ?? {}), ...options.env },
  });
  return { result, standIn: expectNoneLeftRunning(record) };
}

/**
 * Wait until the stand-in's flood has stopped moving: STANDIN_PROGRESS shows
 * the same byte count for several looks in a row (a throttled writer), or says
 * it is done (a writer nobody held back).
 */
export async function floodStalled(progressFile: string): Promise<{ bytes: number; done: boolean }> {
  let last = "";
  let unchanged = 0;
  for (let look = 0; look < 600; look++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = existsSync(progressFile) ? readFileSync(progressFile, "utf8") : "";
    if (now.endsWith(" done")) return { bytes: Number.parseInt(now, 10), done: true };
    unchanged = now !== "" && now === last ? unchanged + 1 : 0;
    last = now;
    if (unchanged === 5) return { bytes: Number(now), done: false };
  }
  throw new Error(`the flood neither stalled nor ended; last progress: ${last}`);
}
