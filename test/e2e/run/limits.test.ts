// --max-turns, --max-tokens, --max-cost-usd against the stand-in backend (a real
// process tree): the limit crossed stops the backend its clean way, the run
// ends failed with error.code budget, exit 1, and nothing is left running.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { CanonicalEvent, EventOf } from "../../../src/canonical/events.js";
import { UsageError } from "../../../src/core/errors.js";
import { run } from "../../../src/lib/run.js";
import { parseJsonl, runCli } from "../../helpers/cli.js";
import { expectNoneLeftRunning, Scratch, STAND_IN, transcript } from "../../helpers/stand-in.js";

const scratch = new Scratch();
afterAll(() => scratch.remove());

// Two turns (a call asking for two tools, then the answer), each with its usage and cost (0.0005, then 0.00025 USD).
const TWO_TURNS = fileURLToPath(new URL("../../../examples/atomic/tools.native.jsonl", import.meta.url));

/** Run the stand-in replaying `file`, then staying alive until stopped, with these limit flags. */
async function limited(file: string, backend: string, flags: string[]) {
  const record = scratch.recordPath();
  const signals = scratch.path("signals.log");
  const result = await runCli(["run", "--backend", backend, "--bin", STAND_IN, ...flags, "hello"], {
    env: { STANDIN_RECORD: record, STANDIN_TRANSCRIPT: file, STANDIN_END: "hang", STANDIN_SIGNAL_LOG: signals },
  });
  expectNoneLeftRunning(record);
  const events = parseJsonl(result.stdout) as unknown as CanonicalEvent[];
  const finished = events.at(-1) as EventOf<"run.finished">;
  const verified = await runCli(["verify"], { input: result.stdout });
  expect(verified.code, verified.stderr).toBe(0);
  return { result, events, finished, signals: readFileSync(signals, "utf8") };
}

describe("run limits", () => {
  it("--max-turns 1: the second turn's start stops the backend (its stop signal); failed, budget, exit 1", async () => {
    const { result, finished, signals } = await limited(TWO_TURNS, "atomic", ["--max-turns", "1"]);
    expect(result.code).toBe(1);
    expect(finished).toMatchObject({
      status: "failed",
      exit_code: 1,
      error: { code: "budget", message: "max-turns 1 reached: turn 2 began", retryable: false },
    });
    expect(signals).toContain("SIGTERM");
    // The usage so far is in run.finished.
    expect(finished.usage).toMatchObject({ input_tokens: 2700, output_tokens: 52 });
    expect(result.stderr).toContain("max-turns 1 reached");
  });

  it("--max-cost-usd crossed by the first usage stops at once, the message says the figure and the turns", async () => {
    const { result, finished } = await limited(TWO_TURNS, "atomic", ["--max-cost-usd", "0.0004"]);
    expect(result.code).toBe(1);
    expect(finished.error).toEqual({
      code: "budget",
      message: "max-cost-usd 0.0004 reached: 0.00050 USD after 1 turn",
      retryable: false,
    });
  });

  it("--max-tokens counts input + output of this run", async () => {
    const { finished } = await limited(TWO_TURNS, "atomic", ["--max-tokens", "1000"]);
    expect(finished.error?.code).toBe("budget");
    expect(finished.error?.message).toMatch(/^max-tokens 1000 reached: \d+ tokens after 1 turn$/);
  });

  it("a limit not reached changes nothing: the run succeeds", async () => {
    const record = scratch.recordPath();
    const result = await runCli(
      ["run", "--backend", "atomic", "--bin", STAND_IN, "--max-turns", "2", "--max-cost-usd", "5", "hello"],
      { env: { STANDIN_RECORD: record, STANDIN_TRANSCRIPT: TWO_TURNS } },
    );
    expectNoneLeftRunning(record);
    expect(result.code).toBe(0);
  });

  it("--max-cost-usd with usage it cannot price fails closed at the first usage", async () => {
    const { result, finished } = await limited(transcript("evosci-success.jsonl"), "evosci", ["--max-cost-usd", "1"]);
    expect(result.code).toBe(1);
    expect(finished.error?.code).toBe("budget");
    expect(finished.error?.message).toMatch(/^max-cost-usd 1: cannot price model /);
    // EvoScientist reports the main agent's usage only: the limit undercounts, and the run says so.
    expect(result.stderr).toContain("count only what it reports");
  });

  it.each([
    ["--max-turns", "0"],
    ["--max-turns", "1.5"],
    ["--max-tokens", "-3"],
    ["--max-cost-usd", "0"],
    ["--max-cost-usd", "abc"],
  ])("%s %s is a usage error (exit 2), nothing started", async (flag, value) => {
    const record = scratch.recordPath();
    const result = await runCli(["run", "--backend", "atomic", "--bin", STAND_IN, flag, value, "hello"], {
      env: { STANDIN_RECORD: record },
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(flag);
    expect(expectNoneLeftRunning(record)).toBeUndefined();
  });

  it.each([
    [["--max-cost-usd", "1"], "--max-cost-usd"],
    [["--max-tokens", "5000"], "--max-tokens"],
    [["--max-tokens", "5000", "--max-cost-usd", "1"], "--max-tokens and --max-cost-usd"],
  ])(
    "Copilot CLI, which tells its usage only after it exited: %j is refused (exit 2), nothing started",
    async (flags, named) => {
      const record = scratch.recordPath();
      const result = await runCli(["run", "--backend", "copilot", "--bin", STAND_IN, ...flags, "hello"], {
        env: { STANDIN_RECORD: record },
      });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(
        `${named}: Copilot CLI reports its token usage only after it exited, so it cannot be stopped at a token or cost limit`,
      );
      expect(result.stderr).toContain("--max-turns stops it");
      expect(expectNoneLeftRunning(record)).toBeUndefined();
      // --max-turns is watched as the turns begin: taken.
      const events = run({ backend: "copilot", bin: STAND_IN, prompt: "x", maxCostUsd: 1 });
      await expect(events.next()).rejects.toBeInstanceOf(UsageError);
    },
  );

  it("library run(): the same limits as options, refused with a UsageError naming the option", async () => {
    for (const bad of [{ maxTurns: 0 }, { maxTokens: 2.5 }, { maxCostUsd: Number.NaN }, { maxCostUsd: -1 }]) {
      const events = run({ backend: "atomic", bin: STAND_IN, prompt: "x", ...bad });
      const error = await events.next().then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toContain(Object.keys(bad)[0]);
    }
    const record = scratch.recordPath();
    const out: CanonicalEvent[] = [];
    for await (const event of run({
      backend: "atomic",
      bin: STAND_IN,
      prompt: "x",
      maxTurns: 1,
      env: { ...process.env, STANDIN_RECORD: record, STANDIN_TRANSCRIPT: TWO_TURNS, STANDIN_END: "hang" },
    }))
      out.push(event);
    expectNoneLeftRunning(record);
    expect(out.at(-1)).toMatchObject({ type: "run.finished", status: "failed", error: { code: "budget" } });
  });
});
