import { spawn, type ChildProcessByStdio } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { BIN, parseJsonl, type CliResult } from "../helpers/cli.js";
import { strictProblems } from "../helpers/strict-schema.js";

export const STAND_IN = fileURLToPath(new URL("../fixtures/backends/stand-in.mjs", import.meta.url));
export const transcript = (name: string): string => fileURLToPath(new URL(`../fixtures/backends/transcripts/${name}`, import.meta.url));

// Git may not keep the executable bit everywhere; the stand-in is run as a program.
chmodSync(STAND_IN, 0o755);

export interface StandInRecord {
  argv: string[];
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
  expect(isRunning(record.pid), `stand-in ${record.pid} still running`).toBe(false);
  if (record.grandchild !== undefined) expect(isRunning(record.grandchild), `grandchild ${record.grandchild} still running`).toBe(false);
  return record;
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

/** Start agentstream and read its stdout line by line while it runs. */
export function startCli(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; stdin?: "ignore" | "pipe" } = {}): LiveRun {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...BASE_ENV, ...options.env },
    stdio: [options.stdin ?? "ignore", "pipe", "pipe"],
  }) as ChildProcessByStdio<Writable | null, Readable, Readable>;
  let pending = "";
  const all: string[] = [];
  const lines: string[] = [];
  const waiters: Array<(line: string) => void> = [];
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (data: string) => {
    pending += data;
    let nl: number;
    while ((nl = pending.indexOf("\n")) !== -1) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      all.push(line);
      const waiter = waiters.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
  const done = new Promise<CliResult>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout: [...all, pending].filter(Boolean).join("\n"), stderr })),
  );
  const nextEvent = (): Promise<Record<string, unknown>> =>
    new Promise<string>((resolve) => {
      const line = lines.shift();
      if (line !== undefined) resolve(line);
      else waiters.push(resolve);
    }).then((line) => JSON.parse(line) as Record<string, unknown>);
  return { child, nextEvent, done };
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
 * stdout is a valid canonical stream: every line passes the strict schema,
 * seq counts from 1, run.started first, run.finished last and once, and its
 * exit_code is the process's exit status.
 */
export function expectCanonical(result: CliResult): { events: Record<string, unknown>[]; finished: Record<string, unknown> } {
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
