import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, parseJsonl, runCli } from "../../helpers/cli.js";
import {
  expectCanonical,
  expectNoneLeftRunning,
  openGate,
  Scratch,
  STAND_IN,
  startCli,
  transcript,
} from "../../helpers/stand-in.js";

const scratch = new Scratch();
afterAll(() => scratch.remove());

describe.concurrent("agentstream run: stdout", () => {
  it("is live: each canonical line is out before the backend writes its next native line", async () => {
    const gate = await openGate();
    const record = scratch.recordPath();
    const run = startCli(["run", "--backend", "evosci", "--bin", STAND_IN, "x"], {
      env: {
        STANDIN_RECORD: record,
        STANDIN_TRANSCRIPT: transcript("evosci-steps.jsonl"),
        STANDIN_GATE_PORT: String(gate.port),
      },
    });
    // The stand-in writes one native line, then waits for the gate: a line that
    // arrives here before gate.next() was written while the backend still runs.
    expect(await run.nextEvent()).toMatchObject({ type: "run.started" });
    expect(await run.nextEvent()).toMatchObject({ type: "prompt.submitted", text: "x" });
    expect(await run.nextEvent()).toMatchObject({ type: "turn.started", turn: 1 });
    expect(await run.nextEvent()).toMatchObject({ type: "message.delta", text: "first" });
    gate.next();
    expect(await run.nextEvent()).toMatchObject({ type: "message.completed", text: "first" });
    expect(await run.nextEvent()).toMatchObject({ type: "tool.started", name: "ls" });
    gate.next();
    expect(await run.nextEvent()).toMatchObject({ type: "tool.completed", name: "ls", status: "succeeded" });
    gate.next(); // the done line: it ends the protocol, and nothing shows until the backend exits
    gate.next();
    const result = await run.done;
    await gate.close();
    expect(expectCanonical(result).finished).toMatchObject({ status: "succeeded", result: { text: "first" } });
    expect(result.code).toBe(0);
    expectNoneLeftRunning(record);
  });

  it("| head -1: exit 141, the backend stopped, at most a short note on stderr", async () => {
    const record = scratch.recordPath();
    const status = scratch.path("pipestatus");
    const script = `"${process.execPath}" "${BIN}" run --backend evosci --bin "${STAND_IN}" x | head -1; echo "\${PIPESTATUS[0]}" > "${status}"`;
    const result = await new Promise<{ stdout: string; stderr: string }>((resolve) => {
      const shell = spawn("bash", ["-c", script], {
        env: {
          ...process.env,
          NO_COLOR: "1",
          STANDIN_RECORD: record,
          STANDIN_TRANSCRIPT: transcript("evosci-partial.jsonl"),
          STANDIN_END: "flood",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      shell.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
      shell.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
      shell.on("close", () => resolve({ stdout, stderr }));
    });
    expect(readFileSync(status, "utf8").trim()).toBe("141");
    expect(parseJsonl(result.stdout)).toMatchObject([{ type: "run.started" }]);
    const stderrLines = result.stderr.split("\n").filter(Boolean);
    expect(stderrLines.length).toBeLessThanOrEqual(1);
    expect(result.stderr).not.toMatch(/EPIPE|Error|\n\s+at /);
    expectNoneLeftRunning(record);
  });

  it("a 50 MB native line becomes one backend.unparsed event; the run goes on", async () => {
    const record = scratch.recordPath();
    const result = await runCli(["run", "--backend", "evosci", "--bin", STAND_IN, "x"], {
      env: {
        STANDIN_RECORD: record,
        STANDIN_HUGE_LINE_MB: "50",
        STANDIN_TRANSCRIPT: transcript("evosci-success.jsonl"),
      },
    });
    const { events, finished } = expectCanonical(result);
    expect(result.code).toBe(0);
    expect(events[2]).toMatchObject({ type: "backend.unparsed", reason: "line_too_long" });
    expect((events[2]!.line as string).length).toBeLessThanOrEqual(4096);
    expect(result.stdout.length).toBeLessThan(100_000);
    expect(finished).toMatchObject({ status: "succeeded", counts: { unparsed_lines: 1 } });
    expectNoneLeftRunning(record);
  });

  it("--output json: only the run.finished object, same exit code", async () => {
    const ok = await runCli(["run", "--backend", "evosci", "--bin", STAND_IN, "--output", "json", "x"], {
      env: { STANDIN_TRANSCRIPT: transcript("evosci-success.jsonl") },
    });
    expect(ok.code).toBe(0);
    expect(ok.stdout.trimEnd().split("\n")).toHaveLength(1);
    expect(JSON.parse(ok.stdout)).toMatchObject({ type: "run.finished", status: "succeeded", exit_code: 0, seq: 17 });

    const failed = await runCli(["run", "--backend", "evosci", "--bin", STAND_IN, "--output", "json", "x"], {
      env: { STANDIN_TRANSCRIPT: transcript("evosci-error-529.jsonl"), STANDIN_END: "exit:1" },
    });
    expect(failed.code).toBe(75);
    expect(JSON.parse(failed.stdout)).toMatchObject({ status: "failed", exit_code: 75 });
  });

  it("--output text: only the final answer, same exit code", async () => {
    const ok = await runCli(["run", "--backend", "atomic", "--bin", STAND_IN, "--output", "text", "x"], {
      env: { STANDIN_TRANSCRIPT: transcript("atomic-success.jsonl") },
    });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe("Hi there.\n");

    const crashed = await runCli(["run", "--backend", "evosci", "--bin", STAND_IN, "--output", "text", "x"], {
      env: { STANDIN_TRANSCRIPT: transcript("evosci-partial.jsonl"), STANDIN_END: "kill:SIGKILL" },
    });
    expect(crashed.code).toBe(76);
    expect(crashed.stdout).toBe("");
  });
});

describe.concurrent("agentstream run: stderr", () => {
  const success = { STANDIN_TRANSCRIPT: transcript("evosci-success.jsonl"), STANDIN_STDERR: "Loading agent...\n" };
  const failure = {
    STANDIN_TRANSCRIPT: transcript("evosci-error-400.jsonl"),
    STANDIN_STDERR: "Loading agent...\nsomething went wrong\n",
    STANDIN_END: "exit:1",
  };
  const run = (extra: string[], env: NodeJS.ProcessEnv) =>
    runCli(["run", "--backend", "evosci", "--bin", STAND_IN, ...extra, "x"], { env });

  it("not a terminal: plain prefixed lines, a line per tool call and a summary, no colour", async () => {
    const result = await run([], success);
    const lines = result.stderr.split("\n").filter(Boolean);
    expect(lines.every((l) => l.startsWith("[agentstream] "))).toBe(true);
    expect(lines).toContainEqual(expect.stringMatching(/^\[agentstream\] ✔ ls \d+ms$/));
    expect(lines.at(-1)).toMatch(/succeeded in .* · 1 tool call · 2\.5k in \/ 65 out tokens \(main agent only\)/);
    expect(result.stderr).not.toContain("\x1b[");
    // The backend's own stderr is not shown without --verbose.
    expect(result.stderr).not.toContain("Loading agent");
  });

  it("FORCE_COLOR colours it even when not a terminal; NO_COLOR does not", async () => {
    expect((await run([], { ...success, NO_COLOR: undefined, FORCE_COLOR: "1" })).stderr).toContain("\x1b[");
    expect((await run([], { ...success, NO_COLOR: "1" })).stderr).not.toContain("\x1b[");
  });

  it("a failed run shows the error and the tail of the backend's stderr", async () => {
    const result = await run([], failure);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /failed after [^\n]*: the provider returned an error · exit 1\n.* {2}Error code: 400/,
    );
    expect(result.stderr).toContain("│ something went wrong");
  });

  it("--quiet: nothing when the run succeeds, the error when it fails", async () => {
    expect((await run(["--quiet"], success)).stderr).toBe("");
    const failed = await run(["--quiet"], failure);
    expect(failed.stderr).toMatch(/failed after/);
    expect(failed.stderr).toContain("│ something went wrong");
  });

  it("--verbose: also the backend's own stderr, prefixed", async () => {
    const result = await run(["--verbose"], success);
    expect(result.stderr).toContain("[evosci] Loading agent...");
    expect(result.stderr).toMatch(/running .*stand-in\.mjs -p x --output-format stream-json/);
  });
});
