// agentstream normalize as a real process: its exit paths.
import { chmodSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { canRunAsNobody, cliForNobody } from "../../helpers/as-nobody.js";
import { BIN, parseJsonl, runCli } from "../../helpers/cli.js";
import { verifyEvents } from "../../helpers/verify.js";
import { nextOfType, startCli, transcript } from "../../helpers/stand-in.js";

describe("agentstream normalize", () => {
  it("reads stdin and exits with the outcome's code", async () => {
    const run = await runCli(["normalize", "--from", "evosci"], {
      input: '{"type": "error", "message": "Error code: 529 - overloaded"}\n',
    });
    expect(run.code).toBe(75);
    expect(parseJsonl(run.stdout).at(-1)).toMatchObject({
      type: "run.finished",
      exit_code: 75,
      error: { code: "overloaded" },
    });
  });

  it("refuses a missing file with exit 2 and writes nothing on stdout", async () => {
    const run = await runCli(["normalize", "/no/such/file.jsonl"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/cannot read \/no\/such\/file\.jsonl: no such file/);
  });

  it("refuses bad flags with exit 2", async () => {
    const run = await runCli(["normalize", "--from", "no-such-backend"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
  });

  // Reading /proc/self/mem fails with EIO at once: a read error in the middle of the input.
  it.skipIf(!existsSync("/proc/self/mem"))(
    "ends with run.finished failed/internal when the input cannot be read",
    async () => {
      const run = await runCli(["normalize", "--from", "evosci", "/proc/self/mem"]);
      const events = parseJsonl(run.stdout);
      expect(run.code).toBe(1);
      expect(events.at(-1)).toMatchObject({
        type: "run.finished",
        status: "failed",
        exit_code: 1,
        error: { code: "internal" },
      });
      expect(verifyEvents(events)).toEqual([]);
      expect(run.stderr).toMatch(/cannot read \/proc\/self\/mem: EIO/);
    },
  );

  it("refuses a directory on stdin with exit 2 and a message", () => {
    const run = spawnSync(process.execPath, [BIN, "normalize", "-"], {
      stdio: [openDir(tmpdir()), "pipe", "pipe"],
      encoding: "utf8",
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/cannot read stdin: it is a directory/);
  });

  // As root every file is readable; a process of user nobody gets EACCES on a root-only file.
  it.runIf(canRunAsNobody)(
    "refuses a file it may not read with exit 2 and a message, no stack trace",
    ({ onTestFinished, skip }) => {
      const nobody = cliForNobody();
      if ("skip" in nobody) return skip(nobody.skip);
      onTestFinished(() => nobody.remove());
      const dir = mkdtempSync(join(tmpdir(), "agentstream-eacces-"));
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      chmodSync(dir, 0o755);
      const file = join(dir, "secret.jsonl");
      writeFileSync(file, '{"type":"done"}\n');
      chmodSync(file, 0o600);
      for (const command of ["normalize", "verify"]) {
        const run = nobody.run([command, file]);
        expect(run.stderr, command).toMatch(new RegExp(`cannot read ${file}: permission denied`));
        expect(run.stderr).not.toMatch(/Unhandled|at .*\.js:\d+/);
        expect(run.status, command).toBe(2);
        expect(run.stdout).toBe("");
      }
    },
  );

  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
    ["SIGHUP", 143],
  ] as const)(
    "%s while reading an open pipe ends the stream with run.finished cancelled, exit %d",
    async (signal, code) => {
      const run = startCli(["normalize", "--from", "evosci"], { stdin: "pipe" });
      const firstLine = readFileSync(transcript("evosci-steps.jsonl"), "utf8").split("\n")[0]!;
      // The pipe stays open: only the signal can end the reading.
      run.child.stdin!.write(`${firstLine}\n`);
      await nextOfType(run, "run.started");
      run.child.kill(signal);
      const result = await run.done;
      const events = parseJsonl(result.stdout);
      expect(events.at(-1)).toMatchObject({
        type: "run.finished",
        status: "cancelled",
        exit_code: code,
        error: { code: "cancelled" },
      });
      expect(result.code).toBe(code);
      expect(verifyEvents(events)).toEqual([]);
    },
  );
});

describe("agentstream normalize: secrets", () => {
  it("hides a secret value of its environment that the recording echoes", async () => {
    const key = "plain-secret-value-1234567890"; // no token shape: only the environment says it is secret
    const run = await runCli(["normalize", "--from", "evosci"], {
      input: `{"type": "error", "message": "401: bad key ${key}"}\n`,
      env: { ...process.env, DB_PASSWORD: key },
    });
    expect(run.stdout).toContain("[redacted]");
    expect(run.stdout).not.toContain(key);
    expect(run.stdout).not.toContain("1234567890");
  });
});

function openDir(path: string): number {
  return openSync(path, "r");
}
