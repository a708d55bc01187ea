import { existsSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import {
  expectCanonical,
  expectNoneLeftRunning,
  readRecord,
  Scratch,
  STAND_IN,
  transcript,
} from "../../helpers/stand-in.js";

// The prompt is one argument of the backend's command line, which Linux caps
// at 128 KiB per argument: a longer one is refused before anything starts (so is a whole
// command line and environment past the system's limit), and
// run.started.command shows a long one shortened.

const scratch = new Scratch();
afterAll(() => scratch.remove());

const LIMIT = 128 * 1024 - 1;

describe.concurrent("agentstream run: a long prompt", () => {
  it("5 MB on stdin (-): exit 2, 'too long for the command line', nothing started, nothing on stdout", async () => {
    const record = scratch.recordPath();
    const result = await runCli(["run", "--backend", "pi", "--bin", STAND_IN, "-"], {
      input: "p".repeat(5 * 1024 * 1024),
      env: { STANDIN_RECORD: record },
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("the prompt on stdin is too long for the command line");
    expect(result.stderr).toContain(`at most ${LIMIT} bytes`);
    expect(result.stderr).not.toMatch(/backend_not_found|could not be started/);
    expect(existsSync(record)).toBe(false);
  });

  it("--prompt-file one byte over the limit: exit 2, nothing started", async () => {
    const file = scratch.path("long-prompt.txt");
    writeFileSync(file, "é".repeat((LIMIT + 1) / 2));
    const record = scratch.recordPath();
    const result = await runCli(["run", "--backend", "evosci", "--bin", STAND_IN, "--prompt-file", file], {
      env: { STANDIN_RECORD: record },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--prompt-file ${file} is too long for the command line: ${LIMIT + 1} bytes`);
    expect(existsSync(record)).toBe(false);
  });

  it("a prompt at the limit reaches the backend whole; run.started.command shows it shortened, and says so", async () => {
    const record = scratch.recordPath();
    const prompt = `${"a".repeat(LIMIT - 1)}z`;
    const result = await runCli(["run", "--backend", "evosci", "--bin", STAND_IN, "-"], {
      input: `${prompt}\n`,
      env: { STANDIN_RECORD: record, STANDIN_TRANSCRIPT: transcript("evosci-success.jsonl") },
    });
    const { events } = expectCanonical(result);
    expect(result.code).toBe(0);
    expect(readRecord(record).argv[1]).toBe(prompt);
    const command = events[0]!.command as string[];
    expect(command[2]).toBe(`${"a".repeat(4096)}… [prompt shortened here: ${LIMIT} bytes in all]`);
    expect(result.stdout.split("\n")[0]!.length).toBeLessThan(8192);
    // prompt.submitted, right after run.started: bounded at 65,536 characters, its whole size said.
    expect(events[1]).toMatchObject({
      type: "prompt.submitted",
      text: `${"a".repeat(65_536)}… [prompt shortened here: ${LIMIT} bytes in all]`,
      bytes: LIMIT,
    });
    expectNoneLeftRunning(record);
  });

  it("a long prompt holding secrets: prompt.submitted.bytes and its marker give the prompt's own size, not the redacted text's", async () => {
    const key = "sk-abcdefghijklmnopqrstuvwxyz012345";
    // Cut in the event (past 65,536 characters), yet within the command line's 128 KiB.
    const prompt = `${"a".repeat(70_000)}${` ${key} ü`.repeat(500)}`;
    const result = await runCli(["run", "--backend", "evosci", "--bin", STAND_IN, "-"], {
      input: prompt,
      env: { STANDIN_RECORD: scratch.recordPath(), STANDIN_TRANSCRIPT: transcript("evosci-success.jsonl") },
    });
    const { events } = expectCanonical(result);
    const bytes = Buffer.byteLength(prompt);
    expect(events[1]).toMatchObject({ type: "prompt.submitted", bytes });
    expect(events[1]!.text as string).toMatch(new RegExp(`… \\[prompt shortened here: ${bytes} bytes in all\\]$`));
    expect(result.stdout).not.toContain(key);
  });

  it("--no-prompt-in-stream: the backend gets the prompt, the stream holds it nowhere (no prompt.submitted, [prompt left out] in run.started.command)", async () => {
    const record = scratch.recordPath();
    const prompt = "the-words-that-must-not-be-recorded";
    for (const backend of ["atomic", "evosci"]) {
      const result = await runCli(["run", "--backend", backend, "--bin", STAND_IN, "--no-prompt-in-stream", prompt], {
        env: { STANDIN_RECORD: record, STANDIN_TRANSCRIPT: transcript(`${backend}-success.jsonl`) },
      });
      const { events } = expectCanonical(result);
      expect(result.code, result.stderr).toBe(0);
      expect(readRecord(record).argv).toContain(prompt);
      expect(events[0]!.command as string[]).toContain("[prompt left out]");
      expect(events.filter((e) => e.type === "prompt.submitted")).toEqual([]);
      expect(result.stdout).not.toContain(prompt);
    }
  });

  it("a run's prompt.submitted is written once, though the backend echoes the user message (Atomic)", async () => {
    const result = await runCli(["run", "--backend", "atomic", "--bin", STAND_IN, "greet me"], {
      env: { STANDIN_RECORD: scratch.recordPath(), STANDIN_TRANSCRIPT: transcript("atomic-success.jsonl") },
    });
    const { events } = expectCanonical(result);
    expect(events.filter((e) => e.type === "prompt.submitted")).toEqual([events[1]]);
    expect(events[1]).toMatchObject({ text: "greet me" });
  });

  it("a command line and environment the system would refuse together (E2BIG): exit 2 before run.started, with a hint that fits", async () => {
    // 2 MB of environment: agentstream starts, but a backend given a long prompt on top of it would not.
    const env: NodeJS.ProcessEnv = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`AGENTSTREAM_TEST_BULK_${i}`, "b".repeat(100_000)]),
    );
    const file = scratch.path("prompt.txt");
    writeFileSync(file, "q".repeat(120_000));
    const record = scratch.recordPath();
    const result = await runCli(["run", "--backend", "pi", "--bin", STAND_IN, "--prompt-file", file], {
      env: { ...env, STANDIN_RECORD: record },
    });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /pi's command line and environment are too long for the system: \d+ bytes \(the environment \d+ of them\), where it takes at most \d+ bytes/,
    );
    expect(result.stderr).toContain("hint: shorten the prompt, the --backend-arg values or the environment");
    expect(result.stderr).not.toContain("check that");
    expect(existsSync(record)).toBe(false);
  });
});
