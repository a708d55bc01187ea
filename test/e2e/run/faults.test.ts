import { afterAll, describe, expect, it } from "vitest";
import {
  expectCanonical,
  expectNoneLeftRunning,
  peakRssMiB,
  REPORT_PEAK_RSS,
  runStandIn,
  Scratch,
  STAND_IN,
  standInEnv,
  startCli,
  transcript,
} from "../../helpers/stand-in.js";

// Backends that misbehave: each run still ends with a valid stream, the right
// run.finished and exit code, and leaves no process behind. Floods read by a
// slow reader (backpressure) are in floods.test.ts.

const scratch = new Scratch();
afterAll(() => scratch.remove());

async function run(backend: string, knobs: Record<string, string>, extra: string[] = []) {
  const { result, standIn } = await runStandIn(scratch, ["--backend", backend, ...extra, "do the task"], { knobs });
  return { result, standIn, ...expectCanonical(result) };
}

describe.concurrent("agentstream run: faults", () => {
  it("killed with SIGKILL mid-line: the cut line is a backend.unparsed, the open call is closed, exit 76", async () => {
    const cut = '{"type": "tool_result", "name": "execute", "content": "half a res';
    const { result, events, finished, standIn } = await run("evosci", {
      STANDIN_TRANSCRIPT: transcript("evosci-partial.jsonl"),
      STANDIN_PARTIAL: cut,
      STANDIN_GRANDCHILD: "holds-stdout",
      STANDIN_END: "kill:SIGKILL",
    });
    expect(result.code).toBe(76);
    expect(events.map((e) => e.type)).toEqual([
      "run.started",
      "prompt.submitted",
      "turn.started",
      "message.delta",
      "message.completed",
      "tool.started",
      "backend.unparsed",
      "tool.completed",
      "run.finished",
    ]);
    expect(events[6]).toMatchObject({ line: cut, reason: "invalid_json" });
    expect(events[7]).toMatchObject({ status: "cancelled", reason: "backend_exited", synthetic: true });
    expect(finished).toMatchObject({
      status: "failed",
      backend_exit: { code: null, signal: "SIGKILL" },
      error: { code: "backend_crashed", message: "the backend was killed by SIGKILL" },
      counts: { unparsed_lines: 1, tool_calls: 1 },
    });
    expect(standIn?.grandchild).toBeTypeOf("number");
  });

  it("killed with SIGKILL after a whole last line with no newline: nothing is lost", async () => {
    const last =
      '{"type": "tool_result", "name": "execute", "content": "built", "success": true, "id": "toolu_standin_3"}';
    const { result, events, finished } = await run("evosci", {
      STANDIN_TRANSCRIPT: transcript("evosci-partial.jsonl"),
      STANDIN_PARTIAL: last,
      STANDIN_END: "kill:SIGKILL",
    });
    expect(result.code).toBe(76);
    expect(events.find((e) => e.type === "tool.completed")).toMatchObject({
      status: "succeeded",
      output: "built",
      native: "tool_result",
    });
    expect(finished).toMatchObject({
      status: "failed",
      error: { code: "backend_crashed" },
      counts: { unparsed_lines: 0 },
    });
  });

  it("exits while a process that left its group still holds its stdout: finished after --grace, that process stopped", async () => {
    // The grandchild runs in a session of its own and ignores SIGTERM: only its hold on the pipe gives it away.
    const { result, finished, standIn } = await run(
      "evosci",
      { STANDIN_TRANSCRIPT: transcript("evosci-success.jsonl"), STANDIN_GRANDCHILD: "escapes-holding-stdout" },
      ["--grace", "0.3"],
    );
    expect(result.code).toBe(0);
    expect(finished).toMatchObject({
      status: "succeeded",
      backend_exit: { code: 0, signal: null },
      result: { text: "There are two entries: README.md and data/." },
    });
    expect(standIn?.grandchild).toBeTypeOf("number");
  });

  it.each([
    { backend: "evosci", file: "evosci-partial.jsonl", closed: 1 },
    { backend: "atomic", file: "atomic-header.jsonl", closed: 0 },
  ])("$backend exits 0 with no terminal event: failed, backend_crashed, exit 76", async ({ backend, file, closed }) => {
    const { result, events, finished } = await run(backend, {
      STANDIN_TRANSCRIPT: transcript(file),
      STANDIN_END: "exit:0",
    });
    expect(result.code).toBe(76);
    expect(finished).toMatchObject({
      status: "failed",
      result: null,
      backend_exit: { code: 0, signal: null },
      error: {
        code: "backend_crashed",
        message: "the backend exited with code 0 without a terminal event",
        retryable: false,
      },
    });
    expect(events.filter((e) => e.type === "tool.completed" && e.reason === "backend_exited")).toHaveLength(closed);
  });

  it("never writes anything until --timeout: timed_out, exit 124, the backend and its child stopped", async () => {
    const { result, events, finished } = await run("atomic", { STANDIN_END: "hang", STANDIN_GRANDCHILD: "hang" }, [
      "--timeout",
      "0.5",
      "--grace",
      "1",
    ]);
    expect(result.code).toBe(124);
    expect(events.map((e) => e.type)).toEqual(["run.started", "prompt.submitted", "run.finished"]);
    expect(finished).toMatchObject({
      status: "timed_out",
      error: { code: "timeout" },
      backend_exit: { code: null, signal: "SIGTERM" },
      result: null,
    });
    expect(result.stderr).toMatch(/⏱ timed out after [^\n]* · exit 124\n/);
  });

  it("writes invalid UTF-8: U+FFFD in its place, every line accounted for, the run goes on", async () => {
    const { result, events, finished } = await run("evosci", {
      STANDIN_TRANSCRIPT: transcript("evosci-invalid-utf8.jsonl"),
    });
    expect(result.code).toBe(0);
    expect(events.map((e) => e.type)).toEqual([
      "run.started",
      "prompt.submitted",
      "turn.started",
      "message.delta",
      "message.completed",
      "tool.started",
      "backend.unparsed",
      "tool.completed",
      "turn.completed",
      "run.finished",
    ]);
    expect(events[3]).toMatchObject({ text: "caf\uFFFD \uFFFD\uFFFD bytes" });
    // A UTF-16 surrogate encoded in UTF-8 and an overlong "/" are invalid too, byte by byte.
    expect(events[5]).toMatchObject({ args: { path: "/déjà \uFFFD\uFFFD\uFFFD \uFFFD\uFFFD" } });
    expect(events[6]).toMatchObject({ line: "\uFFFD( not json \uFFFD", reason: "invalid_json" });
    expect(events[7]).toMatchObject({ output: "naïve 中文 🚀", status: "succeeded" });
    expect(finished).toMatchObject({
      status: "succeeded",
      result: { text: "ok" },
      counts: { unparsed_lines: 1, tool_calls: 1 },
    });
  });

  it("floods stderr with 50 MB: run.finished keeps a bounded tail, stderr stays short, memory stays flat", async () => {
    const record = scratch.recordPath();
    const result = await startCli(["run", "--backend", "evosci", "--bin", STAND_IN, "x"], {
      node: ["--import", REPORT_PEAK_RSS],
      env: standInEnv(record, {
        STANDIN_TRANSCRIPT: transcript("evosci-partial.jsonl"),
        STANDIN_STDERR_FLOOD_MB: "50",
        STANDIN_END: "exit:1",
      }),
    }).done;
    const { finished } = expectCanonical(result);
    expect(result.code).toBe(76);
    const tail = finished.stderr_tail as string[];
    expect(tail).toHaveLength(20);
    expect(tail.at(-1)).toMatch(/^warning \d+\.599: something noisy happened/);
    expect(result.stderr.length).toBeLessThan(10_000);
    expect(result.stderr).toContain(`│ ${tail.at(-1)}`);
    expect(peakRssMiB(result.stderr)).toBeLessThan(150);
    expectNoneLeftRunning(record);
  });
});
