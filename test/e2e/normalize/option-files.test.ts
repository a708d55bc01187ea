// Every option that reads a file reads at most its bound and is stopped by SIGINT/SIGTERM, whatever the
// file is: /dev/zero or a file past the bound is refused (exit 2, naming the bound), so is a directory; a
// FIFO no one writes to is waited for until a stop signal ends agentstream (130/143, nothing on stdout);
// a FIFO whose writer writes and closes is read as a file is (issue 45).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, parseJsonl, runCli, SAMPLES, type CliResult } from "../../helpers/cli.js";
import { Scratch, STAND_IN } from "../../helpers/stand-in.js";

const scratch = new Scratch();
afterAll(() => scratch.remove());
/** Killed once the test ends, however it ends (tests run concurrently: each its own). */
type Track = (child: ChildProcess) => void;
const tracking =
  (onTestFinished: (fn: () => void) => void): Track =>
  (child) =>
    onTestFinished(() => {
      child.kill("SIGKILL");
    });

const RECORDING = join(SAMPLES, "pi/1.6.0-text.jsonl");
// A run that did not succeed shows its stderr's tail.
const NOTHING_RECORDED = scratch.path("empty.jsonl");
writeFileSync(NOTHING_RECORDED, "");
const MiB = 1024 * 1024;

interface OptionCase {
  name: string;
  /** The command line, given the file the option names and a stand-in's record path. */
  args(file: string): string[];
  /** The most it reads: a regular file one byte longer is refused unread. */
  bound: number;
  /** What it says of a file past the bound. */
  tooLarge: RegExp;
  /** A FIFO's content that the option takes, and what then shows it was taken. */
  taken?: { text: string; check(result: CliResult): void };
}

const run = (...rest: string[]): string[] => ["run", "--backend", "pi", "--bin", STAND_IN, ...rest];
const normalize = (...rest: string[]): string[] => ["normalize", "--from", "pi", ...rest, RECORDING];
const larger = (bytes: number): RegExp => new RegExp(`it is larger than ${bytes} bytes`);

const CASES: OptionCase[] = [
  {
    name: "run --prompt-file",
    args: (file) => run("--prompt-file", file),
    bound: 128 * 1024 + 1,
    tooLarge: /--prompt-file .* is too long for the command line: at least 131074 bytes.* at most 131071 bytes/,
    taken: {
      text: "hello from a FIFO\n",
      check: (result) => expect(parseJsonl(result.stdout)[0]!.command).toContain("hello from a FIFO"),
    },
  },
  {
    name: "run --output-schema",
    args: (file) => run("--output-schema", file, "hi"),
    bound: 4 * MiB,
    tooLarge: larger(4 * MiB),
    taken: {
      text: '{"type":"object"}',
      check: (result) => expect(parseJsonl(result.stdout)[0]).toMatchObject({ output_schema: { via: "prompt" } }),
    },
  },
  {
    name: "run --continue-from",
    args: (file) => run("--continue-from", file, "hi"),
    bound: 256 * MiB,
    tooLarge: larger(256 * MiB),
  },
  {
    name: "normalize --output-schema",
    args: (file) => normalize("--output-schema", file),
    bound: 4 * MiB,
    tooLarge: larger(4 * MiB),
    taken: {
      text: '{"type":"object"}',
      check: (result) => expect(parseJsonl(result.stdout)[0]).toMatchObject({ output_schema: { via: "none" } }),
    },
  },
  {
    name: "normalize --stderr",
    args: (file) => ["normalize", "--from", "pi", "--stderr", file, NOTHING_RECORDED],
    bound: 256 * MiB,
    tooLarge: larger(256 * MiB),
    taken: {
      text: "a line the backend wrote on stderr\n",
      check: (result) =>
        expect(parseJsonl(result.stdout).at(-1)).toMatchObject({
          stderr_tail: ["a line the backend wrote on stderr"],
        }),
    },
  },
  {
    name: "normalize --usage-file",
    args: (file) => normalize("--usage-file", file),
    bound: 4 * MiB,
    tooLarge: larger(4 * MiB),
  },
];

function expectRefused(result: CliResult, said: RegExp): void {
  expect(result.stderr).toMatch(said);
  expect(result.code, result.stderr).toBe(2);
  expect(result.stdout).toBe("");
}

describe.concurrent.each(CASES)("$name", (option) => {
  it("/dev/zero: exit 2 naming the bound, nothing on stdout, nothing started", async () => {
    const record = scratch.recordPath();
    const result = await runCli(option.args("/dev/zero"), { env: { STANDIN_RECORD: record } });
    expectRefused(result, option.tooLarge);
    expect(existsSync(record)).toBe(false);
  });

  it("a regular file one byte past the bound: exit 2 naming the bound", async () => {
    const file = scratch.path("large");
    writeFileSync(file, "");
    truncateSync(file, option.bound + 1); // sparse: refused by its size, never read
    const record = scratch.recordPath();
    const result = await runCli(option.args(file), { env: { STANDIN_RECORD: record } });
    expectRefused(result, option.tooLarge);
    expect(existsSync(record)).toBe(false);
  });

  it("a directory: exit 2, 'it is a directory'", async () => {
    expectRefused(await runCli(option.args(scratch.dir)), /it is a directory/);
  });
});

const hasFifos = spawnSync("mkfifo", ["--version"]).status === 0 && existsSync("/proc/self/fd");

/** Whether the process holds `path` open (it then waits on it, its stop signals heard). */
function holds(pid: number, path: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === path;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/** Start agentstream on `args`, send `signal` once it holds the FIFO open, and resolve when it exits (the test's timeout bounds it). */
function signalWhileWaiting(args: string[], fifo: string, signal: NodeJS.Signals, track: Track): Promise<CliResult> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  track(child);
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const closed = new Promise<CliResult>((resolve) =>
    child.on("close", (code, sig) => resolve({ code, signal: sig, stdout, stderr })),
  );
  const watch = (): void => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    if (holds(child.pid!, fifo)) child.kill(signal);
    else setTimeout(watch, 20);
  };
  watch();
  return closed;
}

function fifoAt(name: string): string {
  const fifo = scratch.path(name);
  expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
  return fifo;
}

describe.skipIf(!hasFifos).concurrent.each(CASES)("$name on a FIFO", (option) => {
  it.for([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)(
    "no one writes to it: %s ends agentstream, exit %d, nothing on stdout",
    async ([signal, code], { onTestFinished }) => {
      const fifo = fifoAt("fifo");
      const result = await signalWhileWaiting(option.args(fifo), fifo, signal, tracking(onTestFinished));
      // The file's option as the command line spells it (the library would say `option outputSchema`).
      const flag = option.name.split(" ").at(-1);
      expect(result.stderr).toContain(`${signal} while reading ${flag} ${fifo}: nothing was started`);
      expect(result.code, result.stderr).toBe(code);
      expect(result.stdout).toBe("");
    },
  );

  it.skipIf(option.taken === undefined)(
    "a writer that writes and closes: read as a file is",
    async ({ onTestFinished }) => {
      const fifo = fifoAt("fifo");
      // Its open waits for agentstream to open the FIFO for reading.
      const writer = spawn(
        process.execPath,
        ["-e", `require("node:fs").writeFileSync(process.argv[1], ${JSON.stringify(option.taken!.text)})`, fifo],
        { stdio: "ignore" },
      );
      tracking(onTestFinished)(writer);
      const record = scratch.recordPath();
      const result = await runCli(option.args(fifo), { env: { STANDIN_RECORD: record } });
      expect(result.stdout, result.stderr).not.toBe("");
      option.taken!.check(result);
    },
  );
});

describe.skipIf(!hasFifos)("a FIFO held open by a writer that never writes", () => {
  it("--output-schema: SIGTERM ends the wait, exit 143", async ({ onTestFinished }) => {
    const fifo = fifoAt("held");
    const held = spawn(
      process.execPath,
      ["-e", "require('node:fs').openSync(process.argv[1], 'w'); setInterval(() => {}, 1000)", fifo],
      {
        stdio: "ignore",
      },
    );
    tracking(onTestFinished)(held);
    const result = await signalWhileWaiting(
      run("--output-schema", fifo, "hi"),
      fifo,
      "SIGTERM",
      tracking(onTestFinished),
    );
    expect(result.code, result.stderr).toBe(143);
    expect(result.stdout).toBe("");
  });
});
