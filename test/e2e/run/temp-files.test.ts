// The files a run makes for its backend (Copilot CLI's usage file, Gemini CLI's policy) and the
// temporary folder they live in (issue 37, items 3 and 6-9): absolute paths whatever TMPDIR is, an
// unusable TMPDIR refused before anything starts, and whatever the backend leaves at the usage file's
// path (a FIFO, a folder, a link, a huge file) neither hangs nor crashes the run, nor stays behind.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, parseJsonl, runCli, type CliResult } from "../../helpers/cli.js";
import { verifyLines } from "../../helpers/verify.js";
import {
  COPILOT_TOOL,
  COPILOT_USAGE,
  GEMINI_TEXT,
  type FakeRecord,
  writeFileBackend,
} from "../../helpers/file-backend.js";

const scratch = mkdtempSync(join(tmpdir(), "agentstream-temp-files-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let count = 0;
const fresh = (name: string): string => {
  const dir = join(scratch, `${++count}-${name}`);
  mkdirSync(dir);
  return dir;
};

const FAKE = writeFileBackend(scratch);

/** The built CLI as a real process; SIGKILLed if it has not ended after a minute (a hang fails the test, never the suite). */
function runBounded(args: string[], options: { env: NodeJS.ProcessEnv; cwd?: string }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 60_000,
      killSignal: "SIGKILL",
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** `run --backend copilot` against the fake, with TMPDIR set to a fresh folder. */
async function copilotRun(usage: string, extraEnv: NodeJS.ProcessEnv = {}) {
  const temp = fresh("tmp");
  const record = join(scratch, `${++count}-record.json`);
  const result = await runBounded(["run", "--backend", "copilot", "--bin", FAKE, "list the files"], {
    env: { TMPDIR: temp, FAKE_RECORD: record, FAKE_TRANSCRIPT: COPILOT_TOOL, FAKE_USAGE: usage, ...extraEnv },
  });
  const argv = (JSON.parse(readFileSync(record, "utf8")) as FakeRecord).argv;
  return { result, temp, usagePath: argv[argv.indexOf("--usage-output-file") + 1]! };
}

/** The run ended as the backend did (exit 0, run.finished succeeded, a stream verify accepts), with no crash. */
function expectEndedWithItsOutcome(result: CliResult): Record<string, unknown>[] {
  expect(result.stderr).not.toContain("internal error");
  expect(result.code, result.stderr).toBe(0);
  const events = parseJsonl(result.stdout);
  expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "succeeded" });
  expect(verifyLines(result.stdout.trimEnd().split("\n"))).toEqual([]);
  return events;
}

describe("a relative TMPDIR, the backend run elsewhere (--cwd)", () => {
  it("Copilot CLI gets an absolute usage-file path: its usage is read back and nothing is left in either folder", async () => {
    const home = fresh("home");
    mkdirSync(join(home, "rel-tmp"));
    const elsewhere = fresh("elsewhere");
    const record = join(home, "record.json");
    const result = await runCli(["run", "--backend", "copilot", "--bin", FAKE, "--cwd", elsewhere, "list"], {
      cwd: home,
      env: { TMPDIR: "rel-tmp", FAKE_RECORD: record, FAKE_TRANSCRIPT: COPILOT_TOOL },
    });
    const events = expectEndedWithItsOutcome(result);
    const { argv, cwd } = JSON.parse(readFileSync(record, "utf8")) as FakeRecord;
    expect(cwd).toBe(elsewhere);
    const usagePath = argv[argv.indexOf("--usage-output-file") + 1]!;
    expect(isAbsolute(usagePath)).toBe(true);
    expect(usagePath.startsWith(join(home, "rel-tmp"))).toBe(true);
    expect(events.at(-1)).toMatchObject({ usage: { input_tokens: 80, output_tokens: 18 } });
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(readdirSync(join(home, "rel-tmp"))).toEqual([]);
  });

  it("Gemini CLI gets an absolute --policy path it can read from its own folder, removed after the run", async () => {
    const home = fresh("home");
    mkdirSync(join(home, "rel-tmp"));
    const elsewhere = fresh("elsewhere");
    const record = join(home, "record.json");
    const result = await runCli(
      ["run", "--backend", "gemini", "--bin", FAKE, "--cwd", elsewhere, "--deny-tool", "shell", "hi"],
      { cwd: home, env: { TMPDIR: "rel-tmp", FAKE_RECORD: record, FAKE_TRANSCRIPT: GEMINI_TEXT } },
    );
    expectEndedWithItsOutcome(result);
    const { argv, policy } = JSON.parse(readFileSync(record, "utf8")) as FakeRecord;
    expect(isAbsolute(argv[argv.indexOf("--policy") + 1]!)).toBe(true);
    expect(policy).toContain('decision = "deny"');
    expect(readdirSync(join(home, "rel-tmp"))).toEqual([]);
  });
});

describe("what the backend leaves at Copilot CLI's usage-file path", () => {
  it("a FIFO: not opened to wait for a writer; the run ends with its outcome, says so, and removes it", async () => {
    const { result, temp } = await copilotRun("fifo");
    expect(result.signal).toBeNull();
    const events = expectEndedWithItsOutcome(result);
    expect(result.stderr).toMatch(
      /usage file .* was not read: it is a FIFO, not a regular file; the run's usage is unknown/,
    );
    expect(events.at(-1)).not.toHaveProperty("usage");
    expect(readdirSync(temp)).toEqual([]);
  });

  it("a folder (with a file in it): the run ends with its outcome, says so, and removes it", async () => {
    const { result, temp } = await copilotRun("dir");
    expectEndedWithItsOutcome(result);
    expect(result.stderr).toContain("was not read: it is a directory");
    expect(readdirSync(temp)).toEqual([]);
  });

  it("a symbolic link: not followed (its target neither read nor removed), said, the link removed", async () => {
    const target = join(fresh("target"), "usage.json");
    writeFileSync(target, readFileSync(COPILOT_USAGE));
    const { result, temp } = await copilotRun("symlink", { FAKE_USAGE_TARGET: target });
    const events = expectEndedWithItsOutcome(result);
    expect(result.stderr).toContain("was not read: it is a symbolic link");
    expect(events.filter((e) => e.type === "usage" && e.native === "usage-output-file")).toEqual([]);
    expect(existsSync(target)).toBe(true);
    expect(readdirSync(temp)).toEqual([]);
  });

  it("the run's folder swapped for a link to another folder: the link is removed, that folder's files kept", async () => {
    const target = fresh("target");
    writeFileSync(join(target, "usage.json"), readFileSync(COPILOT_USAGE));
    const { result, temp } = await copilotRun("swap-folder", { FAKE_USAGE_TARGET: target });
    expectEndedWithItsOutcome(result);
    expect(readdirSync(target)).toEqual(["usage.json"]);
    expect(readdirSync(temp)).toEqual([]);
  });

  it("a file too large to be a usage file: not read whole, said, removed", async () => {
    const { result, temp } = await copilotRun("huge");
    expectEndedWithItsOutcome(result);
    expect(result.stderr).toContain(`was not read: it is larger than ${4 * 1024 * 1024} bytes`);
    expect(readdirSync(temp)).toEqual([]);
  });

  it("the usage file as Copilot writes it: read, then removed with the run's folder", async () => {
    const { result, temp, usagePath } = await copilotRun("copy");
    const events = expectEndedWithItsOutcome(result);
    expect(usagePath.startsWith(`${temp}/agentstream-run-`)).toBe(true);
    expect(events.at(-1)).toMatchObject({ usage: { input_tokens: 80 } });
    expect(result.stderr).not.toContain("not read");
    expect(readdirSync(temp)).toEqual([]);
  });
});

describe("normalize --usage-file", () => {
  it("refuses a folder with exit 2 before writing anything, as a missing file", async () => {
    for (const [path, reason] of [
      [fresh("usage-dir"), "it is a directory"],
      [join(scratch, "missing.json"), "no such file"],
    ] as const) {
      const result = await runCli(["normalize", "--usage-file", path, COPILOT_TOOL]);
      expect(result.stderr).not.toContain("internal error");
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(`--usage-file ${path}: ${reason}`);
    }
  });
});

describe("an unusable TMPDIR", () => {
  const missing = join(scratch, "no-such-tmp");
  const file = join(scratch, "tmp-is-a-file");
  writeFileSync(file, "");
  const cases = [
    [missing, "no such directory"],
    [file, "it is not a directory"],
    [join(file, "below"), "a part of its path is not a directory"],
  ] as const;

  for (const [backend, args, transcript] of [
    ["gemini", ["--deny-tool", "shell"], GEMINI_TEXT],
    ["copilot", [], COPILOT_TOOL],
  ] as const) {
    it(`${backend}: refused before the backend starts (exit 2, nothing on stdout), naming TMPDIR and what is wrong`, async () => {
      for (const [tmp, reason] of cases) {
        const record = join(scratch, `${++count}-record.json`);
        const result = await runCli(["run", "--backend", backend, "--bin", FAKE, ...args, "hi"], {
          env: { TMPDIR: tmp, FAKE_RECORD: record, FAKE_TRANSCRIPT: transcript },
        });
        expect(result.stderr).not.toContain("internal error");
        expect(result.code, result.stderr).toBe(2);
        expect(result.stdout).toBe("");
        expect(result.stderr).toContain(`agentstream: TMPDIR ${tmp}: ${reason}`);
        expect(result.stderr).toContain("hint: point TMPDIR at a directory");
        expect(existsSync(record)).toBe(false);
      }
    });
  }

  it("a relative TMPDIR is named as given and as the folder it means", async () => {
    const home = fresh("home");
    const result = await runCli(["run", "--backend", "copilot", "--bin", FAKE, "hi"], {
      cwd: home,
      env: { TMPDIR: "gone", FAKE_RECORD: join(home, "record.json"), FAKE_TRANSCRIPT: COPILOT_TOOL },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`TMPDIR gone (${join(home, "gone")}): no such directory`);
  });

  it("a backend that needs no temporary file runs as before", async () => {
    const record = join(scratch, `${++count}-record.json`);
    const result = await runCli(["run", "--backend", "gemini", "--bin", FAKE, "hi"], {
      env: { TMPDIR: missing, FAKE_RECORD: record, FAKE_TRANSCRIPT: GEMINI_TEXT },
    });
    expectEndedWithItsOutcome(result);
  });
});
