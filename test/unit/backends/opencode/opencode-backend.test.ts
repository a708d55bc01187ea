// OpenCode: what its definition and translator make of its stream (docs/protocols/opencode.md).
import { describe, expect, it } from "vitest";
import { opencode } from "../../../../src/backends/opencode/index.js";
import { detectProtocolOwner } from "../../../../src/backends/registry.js";
import { translate } from "../../../helpers/translate.js";
import { argvOf } from "../../../helpers/backend-argv.js";

const SES = "ses_dc0f071f7ffe94M3YViKIg42mD";
const line = (type: string, rest: Record<string, unknown>) =>
  JSON.stringify({ type, timestamp: 1796354335821, sessionID: SES, ...rest });
const step = (reason: string) =>
  line("step_finish", {
    part: {
      type: "step-finish",
      reason,
      tokens: { total: 160, input: 40, output: 9, reasoning: 6, cache: { read: 100, write: 5 } },
      cost: 0.002,
    },
  });
const text = (t: string) => line("text", { part: { id: "prt_1", type: "text", text: t } });
const start = line("step_start", { part: { type: "step-start" } });
const error = (data: Record<string, unknown>, name = "APIError") => line("error", { error: { name, data } });
const exit = (code: number | null, signal: NodeJS.Signals | null = null) => ({
  end: { backendExit: { code, signal }, stderrTail: [] },
});

function finished(lines: string[], options = {}) {
  const { events } = translate(`${lines.join("\n")}\n`, { from: "opencode", ...options });
  return { events, finished: events.at(-1) as unknown as Record<string, unknown> };
}

describe("opencode definition", () => {
  it("splits the prompt on single spaces after --, so no word holds a space for OpenCode to quote", () => {
    const argv = argvOf(opencode, {
      prompt: 'say "hi"  -x --model',
      backendArgs: ["--title", "t"],
      promptTerminator: true,
      model: "fake/m",
      workdir: "/w",
    });
    expect(argv).toEqual([
      "run",
      "--format",
      "json",
      "--model",
      "fake/m",
      "--dir",
      "/w",
      "--title",
      "t",
      "--",
      "say",
      '"hi"',
      "",
      "-x",
      "--model",
    ]);
    // OpenCode joins its message words with one space: the prompt comes back whole.
    expect(argv.slice(argv.indexOf("--") + 1).join(" ")).toBe('say "hi"  -x --model');
  });

  it("a stream of one error line is OpenCode's, not EvoScientist's (which writes error too)", () => {
    const first = JSON.parse(error({ message: "boom", statusCode: 503, isRetryable: true }));
    expect(detectProtocolOwner(first)).toBe("opencode");
    const { events } = translate(`${error({ message: "boom", statusCode: 503 })}\n`);
    expect(events[0]).toMatchObject({ type: "run.started", backend: "opencode", detection: "detected" });
    // EvoScientist's own error line stays EvoScientist's.
    expect(detectProtocolOwner({ type: "error", message: "boom" })).toBe("evosci");
  });
});

describe("opencode translator", () => {
  it("a clean exit after a step that stopped succeeds with its text; usage adds cache and reasoning back", () => {
    const run = finished([start, text("Hello."), step("stop")], exit(0));
    expect(run.finished).toMatchObject({ status: "succeeded", exit_code: 0, result: { text: "Hello." } });
    expect(run.events.find((e) => e.type === "usage")).toMatchObject({
      scope: "call",
      input_tokens: 145,
      output_tokens: 15,
      cache_read_input_tokens: 100,
      cache_write_input_tokens: 5,
      reasoning_tokens: 6,
      total_tokens: 160,
      cost_usd: 0.002,
    });
    expect(run.finished.usage).toMatchObject({ input_tokens: 145, output_tokens: 15, complete: false });
  });

  it("exit 0 after a step that asked for tool results is no success (the stream stopped short)", () => {
    const run = finished([start, text("Let me look."), step("tool-calls")], exit(0));
    expect(run.finished).toMatchObject({ status: "failed", exit_code: 76, error: { code: "backend_crashed" } });
  });

  it("an error line fails the run by its status: a 503 is retryable (75) where OpenCode exits 1", () => {
    const run = finished([error({ message: "overloaded", statusCode: 503, isRetryable: true })], exit(1));
    expect(run.finished).toMatchObject({
      status: "failed",
      exit_code: 75,
      error: { code: "overloaded", retryable: true },
    });
    const bad = finished([error({ message: "rejected", statusCode: 400, isRetryable: false })], exit(1));
    expect(bad.finished).toMatchObject({ exit_code: 1, error: { code: "provider", retryable: false } });
  });

  it("an unreachable API (no status, retryable) is a network error; auth and context errors go by name", () => {
    const down = finished(
      [error({ message: "Cannot connect to API: Unable to connect.", isRetryable: true })],
      exit(1),
    );
    expect(down.finished).toMatchObject({ exit_code: 75, error: { code: "network", retryable: true } });
    const auth = finished([error({ message: "no key" }, "ProviderAuthError")], exit(1));
    expect(auth.finished).toMatchObject({ exit_code: 77, error: { code: "auth" } });
    const long = finished([start, error({ message: "too long" }, "ContextOverflowError")], exit(1));
    expect(long.finished).toMatchObject({ exit_code: 1, error: { code: "context_length" } });
    // The step the error ended is closed.
    expect(long.events.filter((e) => e.type === "turn.completed")).toEqual([
      expect.objectContaining({ turn: 1, stop_reason: "error" }),
    ]);
  });

  it("a tool call comes once, finished: started and completed together, and makes the text before it narration", () => {
    const tool = line("tool_use", {
      part: {
        type: "tool",
        tool: "bash",
        callID: "call_1",
        state: { status: "error", input: { command: "x" }, error: "rejected", time: { start: 10, end: 25 } },
      },
    });
    const run = finished([start, text("Let me run it."), tool, step("tool-calls"), start, step("stop")], exit(0));
    expect(run.events.filter((e) => e.type.startsWith("tool."))).toEqual([
      expect.objectContaining({ type: "tool.started", tool_call_id: "call_1", name: "bash", args: { command: "x" } }),
      expect.objectContaining({ type: "tool.completed", status: "failed", output: "rejected", duration_ms: 15 }),
    ]);
    expect(run.finished).toMatchObject({ status: "succeeded", result: null });
  });

  it("a command OpenCode calls completed but that exited non-zero is a failed call", () => {
    const tool = line("tool_use", {
      part: {
        type: "tool",
        tool: "bash",
        callID: "call_2",
        state: { status: "completed", input: { command: "ls nope" }, output: "ls: nope", metadata: { exit: 2 } },
      },
    });
    const run = finished([start, tool, step("tool-calls"), start, text("No."), step("stop")], exit(0));
    expect(run.events.find((e) => e.type === "tool.completed")).toMatchObject({ status: "failed", output: "ls: nope" });
    expect(run.finished).toMatchObject({ status: "succeeded", result: { text: "No." } });
  });

  it("killed by a signal mid-step: no verdict of its own (a recording reads it as a crash)", () => {
    const run = finished([start, text("tick")], exit(null, "SIGTERM"));
    expect(run.finished).toMatchObject({ status: "failed", exit_code: 76, error: { code: "backend_crashed" } });
  });

  it("the first line's sessionID starts the session: session.started, and every event carries it (what --continue-from reads)", () => {
    const run = finished([start, text("Hello."), step("stop")], exit(0));
    expect(run.events[1]).toMatchObject({ type: "session.started", session_id: SES });
    expect(run.events.filter((e) => e.type === "session.started")).toHaveLength(1);
    expect(run.finished).toMatchObject({ session_id: SES, status: "succeeded" });
  });

  const failedCall = (error: string) =>
    line("tool_use", {
      part: {
        type: "tool",
        tool: "bash",
        callID: "call_3",
        state: { status: "error", input: { command: "touch f" }, error, time: { start: 1, end: 2 } },
      },
    });

  it("a permission set to ask, rejected (no one to ask in run mode), ends needs_input with the call pending and a resume hint", () => {
    const rejected = "The user rejected permission to use this specific tool call.";
    const run = finished([start, failedCall(rejected), step("tool-calls")], exit(0));
    const action = { name: "bash", args: { command: "touch f" }, description: rejected };
    expect(run.events.find((e) => e.type === "input.requested")).toMatchObject({
      request_id: "call_3",
      kind: "approval",
      tool_call_id: "call_3",
      actions: [expect.objectContaining(action)],
    });
    expect(run.finished).toMatchObject({
      status: "needs_input",
      exit_code: 3,
      pending: [expect.objectContaining({ actions: [expect.objectContaining(action)] })],
      resume: {
        session_id: SES,
        hint: expect.stringContaining(`OPENCODE_PERMISSION='{"bash":"allow"}' opencode run --session ${SES}`),
      },
    });
  });

  it("a deny rule's refusal is the user's answer: a failed call, no pending request", () => {
    const denied = "The user has specified a rule which prevents you from using this specific tool call. Here are some";
    const run = finished([start, failedCall(denied), step("tool-calls"), start, text("No."), step("stop")], exit(0));
    expect(run.events.some((e) => e.type === "input.requested")).toBe(false);
    expect(run.finished).toMatchObject({ status: "succeeded", result: { text: "No." } });
  });

  // Issue 37: lines without their part (or with the wrong types in it) are kept as data, never read.
  it("a stream of only lines without their part is no success, and no empty answer", () => {
    const garbage = [line("step_finish", { part: null }), line("text", {})];
    for (const end of [exit(0), { end: { backendExit: null, stderrTail: [] } }]) {
      const run = finished(garbage, end);
      expect(run.finished).toMatchObject({ status: "failed", exit_code: 76, error: { code: "backend_crashed" } });
      expect(run.events.some((e) => e.type === "message.completed")).toBe(false);
      expect(run.events.filter((e) => e.type === "backend.event")).toHaveLength(2);
    }
  });

  it("a malformed text, reasoning, tool_use or step_finish after the answer changes neither the answer nor the verdict", () => {
    const bad = [
      line("text", { part: { id: "prt_x", type: "text", text: 42 } }),
      line("text", { part: "Hello." }),
      line("reasoning", {}),
      line("tool_use", { part: null }),
      line("tool_use", { part: { type: "tool", tool: "bash", callID: "c", state: { status: "running", input: {} } } }),
      line("step_finish", { part: [] }),
    ];
    const run = finished([start, text("Hello."), ...bad, step("stop")], exit(0));
    expect(run.finished).toMatchObject({ status: "succeeded", result: { text: "Hello." } });
    expect(run.events.filter((e) => e.type === "message.completed")).toHaveLength(1);
    expect(run.events.some((e) => e.type.startsWith("tool."))).toBe(false);
    expect(run.events.filter((e) => e.type === "backend.event")).toHaveLength(bad.length);
  });

  it("a step_finish without its step_start is no step: its tokens count, the run has not ended", () => {
    const run = finished([step("stop")], exit(0));
    expect(run.finished).toMatchObject({ status: "failed", exit_code: 76, usage: { input_tokens: 145 } });
  });

  it("an error's text is read where it is: data.message, message, the error itself", () => {
    const message = (errorField: unknown) =>
      (finished([line("error", { error: errorField })], exit(1)).finished.error as { message: string }).message;
    expect(message({ message: "model unavailable" })).toBe("model unavailable");
    expect(message({ name: "UnknownError", data: { message: "in data" }, message: "outer" })).toBe("in data");
    expect(message("a bare string")).toBe("a bare string");
    expect(message({ name: "APIError" })).toBe("APIError");
    expect(message(null)).toBe("the backend reported an error");
  });

  it("a done line with no step before it fails: no model call answered", () => {
    const run = finished([line("done", { reason: "idle", rejected: [] })], exit(0));
    expect(run.finished).toMatchObject({ status: "failed", exit_code: 1, error: { code: "unknown" } });
    expect(run.finished.error).toMatchObject({ message: expect.stringContaining("without a step") });
  });

  it("newer releases' done line ends the run", () => {
    const run = finished([start, text("Hi."), step("stop"), line("done", { reason: "idle", rejected: [] })], {
      end: { backendExit: null, stderrTail: [] },
    });
    expect(run.finished).toMatchObject({ status: "succeeded", result: { text: "Hi." } });
  });
});
