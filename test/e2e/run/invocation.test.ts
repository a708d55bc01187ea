import { existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import {
  expectCanonical,
  expectNoneLeftRunning,
  readRecord,
  Scratch,
  STAND_IN,
  startCli,
  transcript,
} from "../../helpers/stand-in.js";

// What the backend is started with: argv per backend, the prompt verbatim,
// no stdin, its working directory, where the executable is found, and what
// run.started shows of it.

const scratch = new Scratch();
afterAll(() => scratch.remove());

const DANGEROUS_PROMPT = "--help; $(touch x) `touch y` && rm -rf nothing | cat";

async function argvOf(backend: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const record = scratch.recordPath();
  const result = await runCli(["run", "--backend", backend, "--bin", STAND_IN, ...args], {
    env: {
      STANDIN_RECORD: record,
      STANDIN_TRANSCRIPT: transcript(backend === "evosci" ? "evosci-success.jsonl" : "atomic-success.jsonl"),
      ...env,
    },
  });
  const stand = expectNoneLeftRunning(record);
  return { result, record: stand!, started: expectCanonical(result).events[0]! };
}

describe.concurrent("agentstream run: how the backend is started", () => {
  it("EvoSci: -p PROMPT --output-format stream-json, then --no-auto-mode, --workdir (absolute) and --backend-arg", async () => {
    const { record, started } = await argvOf("evosci", [
      "--no-auto-mode",
      "--workdir",
      "work",
      "--backend-arg",
      "--use-cwd",
      "the prompt",
    ]);
    const workdir = join(process.cwd(), "work");
    expect(record.argv).toEqual([
      "-p",
      "the prompt",
      "--output-format",
      "stream-json",
      "--no-auto-mode",
      "--workdir",
      workdir,
      "--use-cwd",
    ]);
    expect(started.command).toEqual([STAND_IN, ...record.argv]);
  });

  it("Atomic: --mode json, --provider, --model, --backend-arg, then -- and the prompt", async () => {
    const { record } = await argvOf("atomic", [
      "--provider",
      "fake",
      "--model",
      "fake/model",
      "--backend-arg",
      "--thinking",
      "--backend-arg",
      "low",
      "--",
      "-p?",
    ]);
    expect(record.argv).toEqual([
      "--mode",
      "json",
      "--provider",
      "fake",
      "--model",
      "fake/model",
      "--thinking",
      "low",
      "--",
      "-p?",
    ]);
  });

  it("pi: the prompt last, with no -- when it needs none", async () => {
    const { record } = await argvOf("pi", ["--model", "m", "say hi"]);
    expect(record.argv).toEqual(["--mode", "json", "--model", "m", "say hi"]);
  });

  it("pi 1.6: a prompt starting with - goes after --", async () => {
    const { record } = await argvOf("pi", ["--", "-v is not a flag"], { STANDIN_VERSION: "1.6.0" });
    expect(record.argv).toEqual(["--mode", "json", "--", "-v is not a flag"]);
  });

  it("pi before 1.6: a prompt starting with - is refused (exit 2), nothing is run", async () => {
    const record = scratch.recordPath();
    const result = await runCli(["run", "--backend", "pi", "--bin", STAND_IN, "--", "-v is not a flag"], {
      env: { STANDIN_RECORD: record, STANDIN_VERSION: "0.73.1" },
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain('pi 0.73.1 has no "--"');
    expect(existsSync(record)).toBe(false);
  });

  it.each(["evosci", "atomic"])(
    "%s: a prompt full of shell and flags arrives verbatim and nothing runs",
    async (backend) => {
      const cwd = scratch.path("cwd");
      mkdirSync(cwd);
      const record = scratch.recordPath();
      const result = await runCli(
        ["run", "--backend", backend, "--bin", STAND_IN, "--cwd", cwd, "--", DANGEROUS_PROMPT],
        {
          cwd,
          env: {
            STANDIN_RECORD: record,
            STANDIN_TRANSCRIPT: transcript(backend === "evosci" ? "evosci-success.jsonl" : "atomic-success.jsonl"),
          },
        },
      );
      expect(result.code).toBe(0);
      const { argv } = readRecord(record);
      expect(argv.filter((a) => a === DANGEROUS_PROMPT)).toHaveLength(1);
      expect(backend === "evosci" ? argv[1] : argv.at(-1)).toBe(DANGEROUS_PROMPT);
      expect(existsSync(join(cwd, "x"))).toBe(false);
      expect(existsSync(join(cwd, "y"))).toBe(false);
      expectNoneLeftRunning(record);
    },
  );

  it("stdin is not an open pipe for the backend, even when agentstream's own stdin is one", async () => {
    const record = scratch.recordPath();
    // agentstream's stdin is a pipe that is never closed: a backend that read it would hang.
    const run = startCli(["run", "--backend", "atomic", "--bin", STAND_IN, "hi"], {
      stdin: "pipe",
      env: { STANDIN_RECORD: record, STANDIN_TRANSCRIPT: transcript("atomic-success.jsonl") },
    });
    const result = await run.done;
    expect(result.code).toBe(0);
    expect(readRecord(record).stdin).toMatchObject({ fifo: false, socket: false, tty: false, firstRead: 0 });
    expectNoneLeftRunning(record);
  });

  it("PROMPT - reads the prompt from stdin; --prompt-file from a file (one trailing newline dropped)", async () => {
    const fromStdin = scratch.recordPath();
    await runCli(["run", "--backend", "evosci", "--bin", STAND_IN, "-"], {
      input: "line one\nline two\n",
      env: { STANDIN_RECORD: fromStdin, STANDIN_TRANSCRIPT: transcript("evosci-success.jsonl") },
    });
    expect(readRecord(fromStdin).argv[1]).toBe("line one\nline two");

    const file = scratch.path("prompt.txt");
    writeFileSync(file, "-from a file\n\n");
    const fromFile = scratch.recordPath();
    await runCli(["run", "--backend", "evosci", "--bin", STAND_IN, "--prompt-file", file], {
      env: { STANDIN_RECORD: fromFile, STANDIN_TRANSCRIPT: transcript("evosci-success.jsonl") },
    });
    expect(readRecord(fromFile).argv[1]).toBe("-from a file\n");
  });

  it.each(["pi", "atomic", "evosci"])(
    "%s with no prompt: exit 2, and the hint names the backend given",
    async (backend) => {
      const result = await runCli(["run", "--backend", backend, "--bin", STAND_IN]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("no prompt given");
      expect(result.stderr).toContain(`hint: agentstream run --backend ${backend} "your prompt"`);
    },
  );

  it("--cwd is the backend's working directory and run.started.cwd", async () => {
    const cwd = scratch.path("elsewhere");
    mkdirSync(cwd);
    const { record, started } = await argvOf("atomic", ["--cwd", cwd, "hi"]);
    expect(record.cwd).toBe(realpathSync(cwd));
    expect(started.cwd).toBe(cwd);
  });

  it("finds the executable on PATH by its usual names", async () => {
    const bin = scratch.path("bin");
    mkdirSync(bin);
    symlinkSync(STAND_IN, join(bin, "EvoScientist"));
    const record = scratch.recordPath();
    const result = await runCli(["run", "--backend", "evosci", "x"], {
      env: {
        PATH: `${bin}:${dirname(process.execPath)}`,
        AGENTSTREAM_EVOSCI_BIN: undefined,
        STANDIN_RECORD: record,
        STANDIN_TRANSCRIPT: transcript("evosci-success.jsonl"),
      },
    });
    expect(result.code).toBe(0);
    expect(expectCanonical(result).events[0]!.command).toEqual([
      join(bin, "EvoScientist"),
      "-p",
      "x",
      "--output-format",
      "stream-json",
    ]);
    expectNoneLeftRunning(record);
  });

  it("AGENTSTREAM_ATOMIC_BIN names the executable; --bin wins over it", async () => {
    const record = scratch.recordPath();
    const env = { STANDIN_RECORD: record, STANDIN_TRANSCRIPT: transcript("atomic-success.jsonl") };
    const viaEnv = await runCli(["run", "--backend", "atomic", "hi"], {
      env: { ...env, AGENTSTREAM_ATOMIC_BIN: STAND_IN },
    });
    expect(viaEnv.code).toBe(0);
    expect(expectCanonical(viaEnv).events[0]!.command).toEqual([STAND_IN, "--mode", "json", "--", "hi"]);
    const binWins = await runCli(["run", "--backend", "atomic", "--bin", STAND_IN, "hi"], {
      env: { ...env, AGENTSTREAM_ATOMIC_BIN: scratch.path("missing") },
    });
    expect(binWins.code).toBe(0);
  });

  it("run.started.command hides secret values; the backend still gets them", async () => {
    const { record, started } = await argvOf("atomic", [
      "--backend-arg=--api-key",
      "--backend-arg=sk-secret-1",
      "--backend-arg=--openai-token=sk-secret-2",
      "hi",
    ]);
    expect(record.argv).toEqual([
      "--mode",
      "json",
      "--api-key",
      "sk-secret-1",
      "--openai-token=sk-secret-2",
      "--",
      "hi",
    ]);
    expect(started.command).toEqual([
      STAND_IN,
      "--mode",
      "json",
      "--api-key",
      "[redacted]",
      "--openai-token=[redacted]",
      "--",
      "hi",
    ]);
  });
});

describe.concurrent("agentstream run/normalize: option values a timer or a string cannot hold", () => {
  const NATIVE = transcript("evosci-success.jsonl");

  it.each([
    ["--timeout", "2592000"],
    ["--timeout", "2147484"],
    ["--linger", "2592000"],
    ["--grace", "2592000"],
    ["--timeout", "0x10"],
    ["--timeout", "1e3"],
    ["--grace", "-1"],
    ["--max-line-bytes", "1000000000"],
    ["--max-line-bytes", "0x10"],
  ])("run %s %s: refused with exit 2, nothing run", async (flag, value) => {
    const record = scratch.recordPath();
    const result = await runCli(["run", "--backend", "evosci", "--bin", STAND_IN, flag, value, "x"], {
      env: { STANDIN_RECORD: record, STANDIN_TRANSCRIPT: NATIVE },
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/expected a (decimal number of seconds|whole number of bytes)/);
    expect(result.stderr).not.toContain("TimeoutOverflowWarning");
    expect(existsSync(record)).toBe(false);
  });

  it("normalize --max-line-bytes above 256 MiB is refused with exit 2; 256 MiB itself is taken", async () => {
    const over = await runCli(["normalize", "--max-line-bytes", String(256 * 1024 * 1024 + 1), NATIVE]);
    expect(over.code).toBe(2);
    expect(over.stderr).toContain("268435456");
    const at = await runCli([
      "normalize",
      "--backend-exit",
      "0",
      "--max-line-bytes",
      String(256 * 1024 * 1024),
      NATIVE,
    ]);
    expect(at.code).toBe(0);
  });

  it("--timeout at the largest value a timer holds runs the backend to its end", async () => {
    const record = scratch.recordPath();
    const result = await runCli(
      [
        "run",
        "--backend",
        "evosci",
        "--bin",
        STAND_IN,
        "--timeout",
        "2147483",
        "--linger",
        "2147483",
        "--grace",
        "2147483",
        "x",
      ],
      {
        env: { STANDIN_RECORD: record, STANDIN_TRANSCRIPT: NATIVE },
      },
    );
    expect(result.stderr).not.toContain("TimeoutOverflowWarning");
    expect(expectCanonical(result).finished).toMatchObject({ status: "succeeded" });
    expect(result.code).toBe(0);
    expectNoneLeftRunning(record);
  });
});
