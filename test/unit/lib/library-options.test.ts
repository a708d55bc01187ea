// The library's run() options are checked as their CLI flags are: a wrong one
// is the exported UsageError naming the library option, before anything runs.
import { describe, expect, it } from "vitest";
import { run, UsageError } from "../../../src/index.js";
import { longFlag, RUN_OPTIONS } from "../../../src/app/options.js";
import { clisOf } from "../../../src/core/option-row.js";
import type { RunOptions } from "../../../src/lib/run.js";
import { STAND_IN } from "../../helpers/stand-in.js";

/** The error run() throws for these options (it must throw before its first event). */
async function refusal(options: Record<string, unknown>): Promise<unknown> {
  const events = run({ backend: "evosci", bin: STAND_IN, prompt: "x", ...options } as unknown as RunOptions);
  try {
    await events.next();
  } catch (err) {
    return err;
  } finally {
    await events.return(undefined as never).catch(() => undefined);
  }
  throw new Error(`run() took ${JSON.stringify(options)}`);
}

describe.runIf(process.platform === "linux")("library run(): an argv the system would refuse", () => {
  // What lands in the backend's argv is checked against the system's limit (Linux: 128 KiB an argument).
  it.each([
    [
      { backend: "pi", backendArgs: ["a".repeat(200_000)] },
      "run(): one of the option backendArgs values is too long for the command line: 200000 bytes",
    ],
    [
      { backend: "pi", outputSchema: { type: "object", description: "d".repeat(240_000) } },
      "run(): the prompt with option outputSchema's schema added to it is too long for the command line",
    ],
  ] as const)("%#: a UsageError naming what is too long, before any event", async (options, message) => {
    const err = await refusal(options);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toContain(message);
  });
});

describe("library run() options", () => {
  it.each([
    [{ prompt: 42 }, "run(): option prompt: expected a string, got 42"],
    [{ prompt: undefined }, "run(): option prompt: is required"],
    [{ prompt: { text: "hi" } }, "run(): option prompt: expected a string, got an object"],
    [{ timeoutMs: -5 }, "run(): option timeoutMs: expected a number of milliseconds greater than 0"],
    [{ timeoutMs: Number.NaN }, "run(): option timeoutMs: expected a number of milliseconds greater than 0"],
    [{ timeoutMs: 0 }, "run(): option timeoutMs"],
    [{ timeoutMs: 2 ** 31 }, "run(): option timeoutMs"],
    [
      { graceMs: "soon" },
      'run(): option graceMs: expected a number of milliseconds from 0 up to 2147483647, got "soon"',
    ],
    [{ lingerMs: -1 }, "run(): option lingerMs"],
    [{ backendArgs: "--verbose" }, 'run(): option backendArgs: expected an array of strings, got "--verbose"'],
    [{ backendArgs: ["--a", 1] }, "run(): option backendArgs"],
    [{ maxLineBytes: 1.5 }, "run(): option maxLineBytes"],
    [{ autoMode: "no" }, "run(): option autoMode: expected true or false"],
    [{ backend: "nope" }, "run(): option backend: expected one of"],
    [{ otlp: { endpoint: "http://127.0.0.1:0/" } }, "run(): option otlp.endpoint: port 0 names no collector"],
    [{ otlp: { endpoint: "collector:4318" } }, "run(): option otlp.endpoint: expected an http(s) URL"],
    [{ signal: "stop" }, "run(): option signal: expected an AbortSignal"],
    // The README's example once had a cwd that does not exist: the error names the option, not --cwd.
    [{ cwd: "/nonexistent-agentstream-cwd" }, "run(): option cwd /nonexistent-agentstream-cwd: not a directory"],
    [{ allowTools: "shell" }, 'run(): option allowTools: expected an array of strings, got "shell"'],
    [{ denyTools: [1] }, "run(): option denyTools: expected an array of strings"],
    [{ approvals: "always" }, 'run(): option approvals: expected one of never, auto, ask, got "always"'],
    [{ resume: "" }, "run(): option resume: expected a session id"],
    [{ continueFrom: 3 }, "run(): option continueFrom: expected a file name"],
    [{ backend: undefined }, "run(): option backend: is required"],
    [{ allowTools: ["shell"] }, "run(): option allowTools: EvoScientist has no per-tool permissions"],
    [{ denyTools: ["shell"] }, "run(): option denyTools: EvoScientist has no per-tool permissions"],
    [{ backend: "codex", approvals: "auto" }, "run(): option approvals auto: Codex never stops for approvals"],
    [
      { backend: undefined, continueFrom: "/nonexistent/run.jsonl" },
      "run(): option continueFrom /nonexistent/run.jsonl: no such file",
    ],
  ])("%j is a UsageError naming the option", async (options, message) => {
    const err = await refusal(options);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message.startsWith(message), (err as Error).message).toBe(true);
    expect((err as Error).message).not.toMatch(
      /--(?:timeout|grace|linger|backend-arg|max-line-bytes|model|otlp|cwd|backend\b)/,
    );
  });

  it("a backend that has no such flag is named by the library option, not the CLI flag", async () => {
    const err = await refusal({ model: "m" });
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/^run\(\): option model: EvoScientist has no model flag/);
  });
});

describe("library run() refusals from the run's planning", () => {
  // Every CLI flag of the option table: none of them may name an option to a library caller.
  const FLAGS = new RegExp(
    RUN_OPTIONS.flatMap((row) => clisOf(row).map((cli) => `${longFlag(cli)}(?![\\w-])`)).join("|"),
  );

  it.each([
    [{ resume: "abc", continueFrom: "/nonexistent/run.jsonl" }, "run(): option resume and option continueFrom"],
    [{ autoMode: false, approvals: "auto" }, "run(): option autoMode: false and option approvals auto"],
    [{ backend: "codex", autoMode: false }, "run(): option autoMode: false: Codex has no option autoMode: false flag"],
    [{ maxTurns: 0 }, "run(): option maxTurns: expected a whole number greater than 0, got 0"],
    [{ backend: "copilot", maxTokens: 10 }, "run(): option maxTokens: Copilot CLI reports its token usage"],
    [{ backend: "claude", allowTools: ["Bash"], denyTools: ["Bash"] }, "run(): option allowTools and option denyTools"],
    [{ bin: "a\0b" }, "run(): option bin"],
    [{ backendArgs: ["a\0b"] }, "run(): option backendArgs (argument 1)"],
    [{ resume: "-x", backend: "claude" }, 'run(): option resume "-x"'],
  ])("%j names the library's options, never a CLI flag", async (options, message) => {
    const err = await refusal(options);
    expect(err).toBeInstanceOf(UsageError);
    const said = (err as UsageError).message;
    expect(said.startsWith(message), said).toBe(true);
    expect(said).not.toMatch(FLAGS);
  });
});
