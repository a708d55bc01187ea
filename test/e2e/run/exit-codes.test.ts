import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { expectCanonical, runStandIn, Scratch, STAND_IN, standInEnv, transcript } from "../../helpers/stand-in.js";

// One test per row of the exit-code table that `run` can reach, each against a
// stand-in backend run as a real process. SIGINT/SIGTERM/timeout (124, 130,
// 143) are in lifecycle.test.ts, EPIPE (141) in streaming.test.ts.

const scratch = new Scratch();
afterAll(() => scratch.remove());

/** Run the stand-in through agentstream; afterwards neither may be left running. */
const run = (backend: string, knobs: Record<string, string>, extra: string[] = []) =>
  runStandIn(scratch, ["--backend", backend, ...extra, "do the task"], { knobs });

describe.concurrent("agentstream run: the exit-code table", () => {
  // Rows decided by the backend's own stream, whatever its exit code says.
  const fromTheStream = [
    {
      row: "0: succeeded",
      backend: "evosci",
      transcript: "evosci-success.jsonl",
      end: "exit:0",
      code: 0,
      finished: { status: "succeeded", result: { text: "There are two entries: README.md and data/." } },
    },
    {
      row: "1: failed, not retryable (EvoSci error event, exit 1)",
      backend: "evosci",
      transcript: "evosci-error-400.jsonl",
      end: "exit:1",
      code: 1,
      finished: { error: { code: "provider", retryable: false } },
    },
    {
      row: "1: pi exits 0 after a provider error",
      backend: "pi",
      transcript: "pi-error-400.jsonl",
      end: "exit:0",
      code: 1,
      finished: { status: "failed", backend_exit: { code: 0, signal: null } },
    },
    {
      row: "75: failed, retryable (EvoSci 529 overloaded)",
      backend: "evosci",
      transcript: "evosci-error-529.jsonl",
      end: "exit:1",
      code: 75,
      finished: { error: { code: "overloaded", retryable: true } },
    },
    {
      row: "75: pi rate-limited, exiting 0",
      backend: "pi",
      transcript: "pi-error-429.jsonl",
      end: "exit:0",
      code: 75,
      finished: { error: { code: "rate_limit", retryable: true } },
    },
    {
      row: "77: the provider refuses the key (EvoSci 401 error event)",
      backend: "evosci",
      transcript: "evosci-error-401.jsonl",
      end: "exit:1",
      code: 77,
      finished: { error: { code: "auth" } },
    },
  ];
  it.each(fromTheStream)("$row", async ({ backend, transcript: file, end, code, finished }) => {
    const { result } = await run(backend, { STANDIN_TRANSCRIPT: transcript(file), STANDIN_END: end });
    expect(expectCanonical(result).finished).toMatchObject(finished);
    expect(result.code).toBe(code);
  });

  it("2: bad flags; nothing is spawned and nothing written on stdout", async () => {
    const cases: string[][] = [
      ["run", "--backend", "evosci", "--bin", STAND_IN],
      ["run", "--backend", "nope", "--bin", STAND_IN, "x"],
      ["run", "--bin", STAND_IN, "x"],
      ["run", "--backend", "evosci", "--bin", STAND_IN, "--model", "gpt-4o", "x"],
      ["run", "--backend", "atomic", "--bin", STAND_IN, "--workdir", "/tmp", "x"],
      ["run", "--backend", "evosci", "--bin", STAND_IN, "--timeout", "soon", "x"],
      ["run", "--backend", "evosci", "--bin", STAND_IN, "--output", "yaml", "x"],
      ["run", "--backend", "evosci", "--bin", STAND_IN, "--prompt-file", scratch.path("missing.txt")],
      ["run", "--backend", "evosci", "--bin", STAND_IN, "--cwd", scratch.path("missing-dir"), "x"],
      ["run", "--backend", "evosci", "--bin", STAND_IN, "--quiet", "--verbose", "x"],
      ["run", "--backend", "evosci", "--bin", STAND_IN, "   "],
    ];
    await Promise.all(
      cases.map(async (args) => {
        const record = scratch.recordPath();
        const result = await runCli(args, { env: standInEnv(record, {}) });
        expect(result.code, args.join(" ")).toBe(2);
        expect(result.stdout, args.join(" ")).toBe("");
        expect(result.stderr, args.join(" ")).not.toMatch(/\n\s+at /);
        expect(existsSync(record), `${args.join(" ")} spawned the backend`).toBe(false);
      }),
    );
  });

  it("2: EvoScientist has no --model: the message says where the model is set", async () => {
    const result = await runCli(["run", "--backend", "evosci", "--bin", STAND_IN, "--model", "gpt-4o", "x"]);
    expect(result.stderr).toContain("EvoScientist has no model flag");
    expect(result.stderr).toContain("config.yaml");
  });

  it("3: needs_input (EvoSci paused for approval, exit 0)", async () => {
    const { result } = await run("evosci", { STANDIN_TRANSCRIPT: transcript("evosci-interrupt.jsonl") }, [
      "--no-auto-mode",
    ]);
    const { finished } = expectCanonical(result);
    expect(result.code).toBe(3);
    expect(finished).toMatchObject({
      status: "needs_input",
      pending: [{ kind: "approval", request_id: "standin-interrupt-1" }],
    });
  });

  describe.concurrent("69: backend not found", () => {
    const expectNotFound = (result: Awaited<ReturnType<typeof runCli>>, message: RegExp): void => {
      const { events, finished } = expectCanonical(result);
      expect(result.code).toBe(69);
      expect(events.map((e) => e.type)).toEqual(["run.started", "prompt.submitted", "run.finished"]);
      expect(finished).toMatchObject({
        status: "failed",
        backend_exit: null,
        error: { code: "backend_not_found", retryable: false },
      });
      expect((finished.error as { message: string }).message).toMatch(message);
      const hints = result.stderr.split("\n").filter((l) => l.includes("hint:"));
      expect(hints).toHaveLength(1);
      expect(hints[0]).toMatch(/--bin/);
    };

    it("--bin points nowhere", async () => {
      expectNotFound(
        await runCli(["run", "--backend", "evosci", "--bin", scratch.path("no-such-program"), "x"]),
        /does not exist/,
      );
    });

    it("nothing by the usual names on PATH", async () => {
      const result = await runCli(["run", "--backend", "atomic", "x"], {
        env: { PATH: scratch.dir, AGENTSTREAM_ATOMIC_BIN: undefined },
      });
      expectNotFound(result, /not found: looked for atomic on PATH/);
      expect(result.stderr).toContain("npm install -g @bastani/atomic");
    });

    it("AGENTSTREAM_PI_BIN points nowhere", async () => {
      expectNotFound(
        await runCli(["run", "--backend", "pi", "x"], { env: { AGENTSTREAM_PI_BIN: scratch.path("gone") } }),
        /from AGENTSTREAM_PI_BIN/,
      );
    });

    it("the file is not executable", async () => {
      const file = scratch.path("not-executable");
      writeFileSync(file, "#!/bin/sh\n");
      chmodSync(file, 0o644);
      expectNotFound(await runCli(["run", "--backend", "evosci", "--bin", file, "x"]), /not executable/);
    });

    it("the file cannot be started (its interpreter is missing)", async () => {
      const file = scratch.path("bad-interpreter");
      writeFileSync(file, "#!/nonexistent/interpreter\n");
      chmodSync(file, 0o755);
      expectNotFound(await runCli(["run", "--backend", "evosci", "--bin", file, "x"]), /could not be started/);
    });
  });

  describe.concurrent("76: crashed, killed or no terminal event", () => {
    it("killed by a signal mid-run; the open tool call is closed", async () => {
      const { result } = await run("evosci", {
        STANDIN_TRANSCRIPT: transcript("evosci-partial.jsonl"),
        STANDIN_END: "kill:SIGKILL",
      });
      const { events, finished } = expectCanonical(result);
      expect(result.code).toBe(76);
      expect(finished).toMatchObject({
        status: "failed",
        backend_exit: { code: null, signal: "SIGKILL" },
        error: { code: "backend_crashed" },
      });
      expect(events.find((e) => e.type === "tool.completed")).toMatchObject({
        status: "cancelled",
        reason: "backend_exited",
        synthetic: true,
      });
    });

    it("exits 0 without a terminal event", async () => {
      const { result } = await run("evosci", { STANDIN_TRANSCRIPT: transcript("evosci-partial.jsonl") });
      expect(expectCanonical(result).finished).toMatchObject({ status: "failed", error: { code: "backend_crashed" } });
      expect(result.code).toBe(76);
    });

    it("writes garbage instead of the protocol", async () => {
      const { result } = await run("evosci", { STANDIN_TRANSCRIPT: transcript("garbage.txt") });
      const { events, finished } = expectCanonical(result);
      expect(result.code).toBe(76);
      expect(finished).toMatchObject({ error: { code: "backend_protocol" }, counts: { unparsed_lines: 3 } });
      expect(events.filter((e) => e.type === "backend.unparsed")).toHaveLength(3);
    });
  });

  it("77: exits non-zero after the header, saying there is no API key (Atomic)", async () => {
    const { result } = await run("atomic", {
      STANDIN_TRANSCRIPT: transcript("atomic-header.jsonl"),
      STANDIN_STDERR: "\nNo API key found for openai.\n\nUse /login to log into a provider via OAuth or API key.\n",
      STANDIN_END: "exit:1",
    });
    const { finished } = expectCanonical(result);
    expect(result.code).toBe(77);
    expect(finished).toMatchObject({ status: "failed", error: { code: "auth" } });
    expect(finished.stderr_tail).toContain("No API key found for openai.");
    expect(result.stderr).toContain("No API key found for openai.");
  });

  it("78: refuses to start for configuration reasons (unknown provider)", async () => {
    const { result } = await run("pi", {
      STANDIN_STDERR: 'Error: Unknown provider "nope". Use --list-models to see available providers/models.\n',
      STANDIN_END: "exit:1",
    });
    const { finished } = expectCanonical(result);
    expect(result.code).toBe(78);
    expect(finished).toMatchObject({ error: { code: "config" }, backend_exit: { code: 1, signal: null } });
  });

  it("78: exits non-zero before any event (start-up failure, traceback on stderr)", async () => {
    const { result } = await run("evosci", {
      STANDIN_STDERR: "Loading agent...\nTraceback (most recent call last):\nValueError: could not build the agent\n",
      STANDIN_END: "exit:1",
    });
    const { finished } = expectCanonical(result);
    expect(result.code).toBe(78);
    expect(finished).toMatchObject({ error: { code: "backend_startup" } });
    expect(finished.stderr_tail).toEqual([
      "Loading agent...",
      "Traceback (most recent call last):",
      "ValueError: could not build the agent",
    ]);
  });
});
