import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readdirSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { BIN, SAMPLES } from "../../helpers/cli.js";
import { killRunningWith, STAND_IN, transcript } from "../../helpers/stand-in.js";

// stdout that cannot be written (a full disk: /dev/full answers every write
// with ENOSPC) is not the agent's failure: one line on stderr, exit 74
// (EX_IOERR), the backend stopped, no stack trace.

/** Run agentstream with its stdout on /dev/full; resolves with its exit status and stderr. */
function toDevFull(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stderr: string }> {
  const full = openSync("/dev/full", "w");
  try {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, NO_COLOR: "1", ...env },
      stdio: ["ignore", full, "pipe"],
    });
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    return new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr })));
  } finally {
    closeSync(full);
  }
}

function expectOneCleanLine(stderr: string, reason = "ENOSPC: no space left on device"): void {
  expect(stderr).not.toMatch(/\n\s+at |internal error|Error:/);
  expect(stderr.split("\n").filter((line) => /cannot write to stdout/.test(line))).toEqual([
    `agentstream: cannot write to stdout: ${reason}`,
  ]);
}

// A terminal that went away: its pty's other side is closed, so every write fails with EIO.
// (Node cannot open a pty; Python can.)
const ON_GONE_TERMINAL = `
import json, os, pty, subprocess, sys
master, slave = pty.openpty()
os.close(master)
p = subprocess.Popen(sys.argv[1:], stdout=slave, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
os.close(slave)
_, err = p.communicate()
print(json.dumps({"code": p.returncode, "stderr": err.decode()}))
`;
const hasPython = process.platform === "linux" && spawnSync("python3", ["-c", "import pty"]).status === 0;

describe.runIf(existsSync("/dev/full")).concurrent("stdout on a full disk (>/dev/full)", () => {
  it("run: one line on stderr, exit 74, the backend stopped", async () => {
    const token = `prompt-${randomUUID()}`;
    const result = await toDevFull(["run", "--backend", "evosci", "--bin", STAND_IN, token], {
      STANDIN_TRANSCRIPT: transcript("evosci-partial.jsonl"),
      STANDIN_END: "hang",
    });
    expect(killRunningWith(token)).toEqual([]);
    expectOneCleanLine(result.stderr);
    expect(result.code).toBe(74);
  });

  it("run --output json (written at the end): exit 74, not the run's own code", async () => {
    const result = await toDevFull(["run", "--backend", "evosci", "--bin", STAND_IN, "--output", "json", "x"], {
      STANDIN_TRANSCRIPT: transcript("evosci-success.jsonl"),
    });
    expectOneCleanLine(result.stderr);
    expect(result.code).toBe(74);
  });

  it("normalize: one line on stderr, exit 74", async () => {
    const sample = `${SAMPLES}evosci/${readdirSync(`${SAMPLES}evosci`).find((name) => name.endsWith(".jsonl"))!}`;
    const result = await toDevFull(["normalize", "--from", "evosci", sample]);
    expectOneCleanLine(result.stderr);
    expect(result.code).toBe(74);
  });

  it("schema: one line on stderr, exit 74", async () => {
    const result = await toDevFull(["schema"]);
    expectOneCleanLine(result.stderr);
    expect(result.code).toBe(74);
  });
});

describe.runIf(hasPython)("stdout on a terminal that went away (EIO)", () => {
  it("run: one line on stderr, exit 74, the backend stopped", async () => {
    const token = `prompt-${randomUUID()}`;
    const child = spawn(
      "python3",
      ["-c", ON_GONE_TERMINAL, process.execPath, BIN, "run", "--backend", "evosci", "--bin", STAND_IN, token],
      {
        env: {
          ...process.env,
          NO_COLOR: "1",
          STANDIN_TRANSCRIPT: transcript("evosci-partial.jsonl"),
          STANDIN_END: "hang",
        },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    await new Promise((resolve) => child.on("close", resolve));
    expect(killRunningWith(token)).toEqual([]);
    const result = JSON.parse(out) as { code: number; stderr: string };
    expectOneCleanLine(result.stderr, "EIO: i/o error");
    expect(result.code).toBe(74);
  });
});
