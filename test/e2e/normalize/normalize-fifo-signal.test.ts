// normalize stops on SIGINT/SIGTERM while it reads a FIFO named as its file argument, or a process
// substitution `<(...)` (/dev/fd/N, a pipe), whose writer never closes: docs/commands.md's promise for pipes.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BIN, parseJsonl, SAMPLES } from "../../helpers/cli.js";
import { verifyEvents } from "../../helpers/verify.js";

const FIRST_LINE = readFileSync(join(SAMPLES, "pi/1.6.0-text.jsonl"), "utf8").split("\n")[0]!;
// Writes one line into the path it is given (or its stdout), then holds it open: it never closes.
// It leaves once its parent is gone (a process substitution's writer outlives no one).
const WRITER = `
const fs = require("node:fs");
const fd = process.argv[1] ? fs.openSync(process.argv[1], "w") : 1;
fs.writeSync(fd, ${JSON.stringify(`${FIRST_LINE}\n`)});
const parent = process.ppid;
setInterval(() => { if (process.ppid !== parent) process.exit(0); }, 200);
`;
const BOUND_MS = 30_000; // generous, never an expectation: without the fix the reading never ends

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Start the reader, send `signal` once run.started is out, and resolve when it exits (or reject at the bound). */
function signalOnceStarted(child: ChildProcess, signal: NodeJS.Signals): Promise<Ended> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    let sent = false;
    const bound = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`still running ${BOUND_MS} ms after ${signal}; stderr: ${stderr}`));
    }, BOUND_MS);
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.stdout!.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
      if (!sent && stdout.includes('"type":"run.started"')) {
        sent = true;
        child.kill(signal);
      }
    });
    child.on("close", (code) => {
      clearTimeout(bound);
      resolve({ code, stdout, stderr });
    });
  });
}

function expectCancelled(ended: Ended, code: number): void {
  const events = parseJsonl(ended.stdout);
  expect(events.at(-1)).toMatchObject({
    type: "run.finished",
    status: "cancelled",
    exit_code: code,
    error: { code: "cancelled" },
  });
  expect(events.some((e) => e.type === "run.started")).toBe(true);
  expect(ended.code, ended.stderr).toBe(code);
  expect(verifyEvents(events)).toEqual([]);
}

const hasMkfifo = spawnSync("mkfifo", ["--version"]).status === 0;

describe.skipIf(!hasMkfifo)("normalize: a signal while it reads a FIFO or a process substitution", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)("a FIFO named as the file, its writer never closing: %s ends it, exit %d", async (signal, code) => {
    const dir = mkdtempSync(join(tmpdir(), "agentstream-fifo-"));
    const fifo = join(dir, "stream.jsonl");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    const writer = spawn(process.execPath, ["-e", WRITER, fifo], { stdio: "ignore" });
    cleanups.push(() => {
      writer.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    });
    const reader = spawn(process.execPath, [BIN, "normalize", "--from", "pi", fifo], {
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    expectCancelled(await signalOnceStarted(reader, signal), code);
  });

  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)(
    "a FIFO no writer ever opens: %s ends it, exit %d (its open waits for no writer)",
    async (signal, code) => {
      const dir = mkdtempSync(join(tmpdir(), "agentstream-fifo-"));
      const fifo = join(dir, "stream.jsonl");
      expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      const reader = spawn(process.execPath, [BIN, "normalize", "--from", "pi", fifo], {
        env: { ...process.env, NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      cleanups.push(() => reader.kill("SIGKILL"));
      expectCancelled(await signalOnceStarted(reader, signal), code);
    },
  );

  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)("a process substitution <(...), its writer never closing: %s ends it, exit %d", async (signal, code) => {
    // `exec` makes the shell the reader itself: the signal goes to agentstream, /dev/fd/N is the pipe.
    const script = `exec "$0" "$1" normalize --from pi <("$0" -e "$2")`;
    const reader = spawn("bash", ["-c", script, process.execPath, BIN, WRITER], {
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    cleanups.push(() => reader.kill("SIGKILL"));
    expectCancelled(await signalOnceStarted(reader, signal), code);
  });
});
