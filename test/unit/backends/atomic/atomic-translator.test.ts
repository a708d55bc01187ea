// The Atomic/pi translator's key facts, stated explicitly. The golden files under
// test/fixtures/golden/atomic/ pin every line; this file says what matters in them.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { CanonicalEvent, ErrorInfo, EventOf, EventType } from "../../../../src/canonical/events.js";
import { translate, type TranslateOptions } from "../../../helpers/translate.js";

const DIR = fileURLToPath(new URL("../../../fixtures/golden/atomic/", import.meta.url));

/** Translate one golden fixture with its recorded options. */
function fixture(name: string) {
  const optionsPath = `${DIR}${name}.options.json`;
  const options: TranslateOptions = existsSync(optionsPath) ? JSON.parse(readFileSync(optionsPath, "utf8")) : {};
  return run(readFileSync(`${DIR}${name}.native.jsonl`), options);
}

function run(native: string | Buffer, options: TranslateOptions = {}) {
  const { events, outcome } = translate(native, options);
  const finished = events.at(-1) as EventOf<"run.finished">;
  const of = <T extends EventType>(type: T) => events.filter((e): e is EventOf<T> & CanonicalEvent => e.type === type);
  return { events, outcome, finished, of };
}

function expectFailed(finished: EventOf<"run.finished">, exitCode: number, error: Partial<ErrorInfo>): void {
  expect(finished.status).toBe("failed");
  expect(finished.exit_code).toBe(exitCode);
  expect(finished.error).toMatchObject(error);
}

const lines = (...events: object[]) => events.map((e) => `${JSON.stringify(e)}\n`).join("");
const exit0: TranslateOptions["end"] = { backendExit: { code: 0, signal: null }, stderrTail: [] };

describe("atomic translator: endings", () => {
  it("success: succeeded, exit 0, result is the last assistant text", () => {
    const { finished } = fixture("atomic-text");
    expect(finished.status).toBe("succeeded");
    expect(finished.exit_code).toBe(0);
    expect(finished.result).toEqual({ text: "Hello from the fake model." });
    expect(finished.error).toBeUndefined();
  });

  it("provider 400: failed, exit 1, not retryable", () => {
    const { finished, of } = fixture("atomic-error400");
    expectFailed(finished, 1, { code: "provider", retryable: false });
    expect(finished.result).toBeNull();
    expect(of("error")[0]).toMatchObject({ code: "provider", http_status: 400, native: "message_end" });
  });

  it("pi exits 0 after a provider 400, the outcome is still failed", () => {
    const { finished } = fixture("pi-0.73-error400");
    expect(finished.backend).toBe("pi");
    expect(finished.backend_exit).toEqual({ code: 0, signal: null });
    expectFailed(finished, 1, { code: "provider", retryable: false });
  });

  it("500 retried then success: succeeded, the error and the retry stay in the stream", () => {
    const { finished, of } = fixture("atomic-retry500");
    expect(finished.status).toBe("succeeded");
    expect(finished.exit_code).toBe(0);
    expect(finished.result).toEqual({ text: "Recovered after a retry." });
    expect(of("error").map((e) => [e.code, e.retryable, e.http_status])).toEqual([["provider", true, 500]]);
    expect(of("retry.started")[0]).toMatchObject({ scope: "request", attempt: 1, max_attempts: 2, delay_ms: 100 });
    expect(of("retry.completed")[0]).toMatchObject({ scope: "request", success: true, attempt: 1 });
    // The failed attempt said nothing: it is the error, not an empty message.
    expect(finished.counts).toMatchObject({ errors: 1, retries: 1, messages: 1, turns: 2 });
  });

  it("pi 0.84: agent_end {willRetry:true} then a retry that succeeds", () => {
    const { finished, of } = fixture("pi-0.84-retry");
    expect(finished.status).toBe("succeeded");
    expect(finished.result).toEqual({ text: "Hi there!" });
    expect(of("reasoning.completed").map((r) => r.text)).toEqual(["Try again politely."]);
    expect(finished.counts).toMatchObject({ errors: 1, retries: 1 });
  });

  it("500 until the retries run out: failed, retryable, exit 75", () => {
    const { finished, of } = fixture("atomic-error500");
    expectFailed(finished, 75, { code: "provider", retryable: true });
    expect(of("retry.completed")[0]).toMatchObject({ success: false, attempt: 2 });
    expect(finished.counts).toMatchObject({ errors: 3, retries: 2 });
  });

  it("context overflow, compaction, success", () => {
    const { finished, of } = fixture("atomic-overflow");
    expect(finished.status).toBe("succeeded");
    expect(of("error")[0]).toMatchObject({ code: "context_length", retryable: false });
    expect(of("compaction.started")[0]).toMatchObject({ reason: "overflow" });
    // Atomic's result: compactedText and stats.
    expect(of("compaction.completed")[0]).toMatchObject({
      reason: "overflow",
      summary: "(filtered 12 lines)",
      tokens_before: 9000,
      tokens_after: 1200,
      will_retry: true,
      aborted: false,
    });
    expect(finished.result).toEqual({ text: "Answer after overflow compaction." });
  });

  // An aborted turn was stopped by its user: cancelled, as every backend's (docs/canonical-stream.md "Outcome rules").
  it("Atomic aborted turn: cancelled, exit 130, no result", () => {
    const { finished } = fixture("atomic-abort");
    expect(finished).toMatchObject({
      status: "cancelled",
      exit_code: 130,
      error: { code: "cancelled", message: "Request was aborted", retryable: false },
      result: null,
    });
  });

  it("pi 1.6 aborted turn: cancelled although pi exits 0", () => {
    const { finished } = fixture("pi-1.6-abort");
    expect(finished).toMatchObject({ status: "cancelled", exit_code: 130, error: { code: "cancelled" } });
  });

  it("pi 1.6 agent_settled.aborted decides when the last message did not say so", () => {
    const { finished } = fixture("pi-1.6-abort-in-tool");
    expect(finished).toMatchObject({
      status: "cancelled",
      exit_code: 130,
      error: { code: "cancelled", message: "the turn was aborted", retryable: false },
    });
    expect(finished.counts.tool_failures).toBe(1);
  });

  it("pi 0.73 without agent_settled: a clean exit lets the last assistant message decide", () => {
    const { finished } = fixture("pi-0.73-text");
    expect(finished.status).toBe("succeeded");
    expect(finished.result).toEqual({ text: "Hello from the fake model." });
  });

  it("pi 0.73 recording that ends after agent_end: the last assistant message decides", () => {
    const { finished } = fixture("pi-0.73-recording");
    expect(finished.backend_exit).toBeNull();
    expect(finished.status).toBe("succeeded");
    expect(finished.result).toEqual({ text: "Recorded answer." });
  });

  // Issue 37: shapes from other projects' recordings (adapter tests) that leave message_end out.
  it("an answer that comes only on turn_end, then agent_end: succeeded with it, once", () => {
    const { finished, of } = fixture("pi-turn-end-answer");
    expect(finished).toMatchObject({
      status: "succeeded",
      exit_code: 0,
      result: { text: "The answer came on turn_end." },
    });
    expect(of("message.completed")).toHaveLength(1);
    // With its message_end too, turn_end repeats it: still one message.
    const message = { role: "assistant", content: [{ type: "text", text: "Once." }], stopReason: "stop" };
    const both = run(
      lines(
        { type: "agent_start" },
        { type: "turn_start" },
        { type: "message_end", message },
        { type: "turn_end", message, toolResults: [] },
        { type: "agent_end", messages: [message] },
      ),
      { from: "pi" },
    );
    expect(both.of("message.completed").map((m) => m.text)).toEqual(["Once."]);
    expect(both.finished).toMatchObject({ status: "succeeded", result: { text: "Once." } });
  });

  it("an answer only in agent_end's messages is the run's; agent_end with none fails, not 'without a terminal event'", () => {
    expect(fixture("pi-agent-end-answer").finished).toMatchObject({
      status: "succeeded",
      result: { text: "Hello, from agent_end's messages." },
      usage: { input_tokens: 12, output_tokens: 7 },
    });
    expectFailed(fixture("pi-agent-end-only").finished, 1, {
      code: "unknown",
      message: "the backend finished without an assistant message",
    });
    // A failed answer on turn_end fails the run by its own error.
    const failedTurn = run(
      lines(
        { type: "turn_start" },
        { type: "turn_end", message: { role: "assistant", content: [], stopReason: "error", errorMessage: "400 bad" } },
        { type: "agent_end", messages: [] },
      ),
      { from: "pi", end: exit0 },
    );
    expectFailed(failedTurn.finished, 1, { code: "provider", message: "400 bad" });
  });

  it("pi 0.73 recording cut while a retry was pending: no terminal event", () => {
    const { finished } = fixture("pi-0.73-retry-cut");
    expectFailed(finished, 76, { code: "backend_crashed" });
  });

  it("SIGTERM mid-stream: backend_crashed, exit 76, open tool call closed as cancelled", () => {
    const { finished, of } = fixture("atomic-sigterm");
    expectFailed(finished, 76, { code: "backend_crashed", retryable: false });
    expect(finished.result).toBeNull();
    const closed = of("tool.completed");
    expect(closed).toHaveLength(1);
    expect(closed[0]).toMatchObject({
      tool_call_id: "call_sleep_1",
      status: "cancelled",
      reason: "backend_exited",
      synthetic: true,
    });
    expect(closed[0]!.native).toBeUndefined();
  });

  it("header only, exit 1, no API key on stderr: auth, exit 77", () => {
    const { finished } = fixture("atomic-nokey");
    expectFailed(finished, 77, { code: "auth", retryable: false });
    expect(finished.stderr_tail?.[0]).toBe("No API key found for openai.");
    expect(finished.session_id).toBe("01a236e2-aafc-75c3-ba4d-4df75f68d32a");
  });

  it("nothing at all, exit 1, unknown provider on stderr: config, exit 78", () => {
    const { events, finished } = fixture("atomic-badprovider");
    expect(events.map((e) => e.type)).toEqual(["run.started", "run.finished"]);
    expect(finished.backend).toBe("atomic");
    expectFailed(finished, 78, { code: "config" });
  });

  it("fallback exhausted: the last (overloaded) error decides, retryable, exit 75", () => {
    const { finished, of } = fixture("atomic-fallback-exhausted");
    expectFailed(finished, 75, { code: "overloaded", retryable: true });
    expect(of("model.fallback").map((e) => e.phase)).toEqual(["started", "completed"]);
    expect(of("model.fallback")[1]).toMatchObject({ success: false, from: "fake/fake-model", to: "fake/fake-backup" });
  });

  it("fallback that works: succeeded, with the switch in the stream", () => {
    const { finished, of } = fixture("atomic-fallback");
    expect(finished.status).toBe("succeeded");
    expect(of("model.changed")[0]).toMatchObject({
      model: "fake-backup",
      provider: "fake",
      previous_model: "fake-model",
      reason: "fallback",
    });
    expect(of("model.fallback")[1]).toMatchObject({ phase: "completed", success: true });
  });

  it("agent_continue_error after the last assistant message fails the run", () => {
    const { finished, of } = fixture("atomic-continue-error");
    expect(of("error")[0]).toMatchObject({
      native: "agent_continue_error",
      message: "Post-compaction continuation failed: provider failed",
    });
    expectFailed(finished, 1, { code: "unknown", message: "Post-compaction continuation failed: provider failed" });
  });
});

describe("atomic translator: events", () => {
  it("usage: input_tokens includes the cache, cost is cost.total, totals in run.finished", () => {
    const { finished, of } = fixture("atomic-text");
    expect(of("usage")).toHaveLength(1);
    expect(of("usage")[0]).toMatchObject({
      scope: "message",
      input_tokens: 200 + 1000 + 50,
      output_tokens: 7,
      cache_read_input_tokens: 1000,
      cache_write_input_tokens: 50,
      total_tokens: 1257,
      cost_usd: 0.001014,
      model: "fake-model",
      provider: "fake",
    });
    expect(finished.usage).toEqual({
      input_tokens: 1250,
      output_tokens: 7,
      cache_read_input_tokens: 1000,
      cache_write_input_tokens: 50,
      reasoning_tokens: 0,
      total_tokens: 1257,
      cost_usd: 0.001014,
      cost_source: "reported",
    });
  });

  it("usage only where the message reports any; totals sum every message", () => {
    expect(fixture("atomic-error400").of("usage")).toHaveLength(0);
    expect(fixture("atomic-error400").finished.usage).toBeUndefined();
    const { finished, of } = fixture("atomic-tools");
    expect(of("usage").map((u) => u.input_tokens)).toEqual([1300, 1400]);
    expect(finished.usage).toMatchObject({
      input_tokens: 2700,
      output_tokens: 52,
      cache_read_input_tokens: 2300,
      cost_usd: 0.00075,
    });
  });

  it("usage with counts that are not exact integers is kept (the whole line) as backend.event, never written with a made-up 0", () => {
    const end = (usage: string) =>
      `{"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"hi"}],"usage":${usage},"stopReason":"stop"}}\n`;
    const native =
      end('{"input":10,"output":2}') +
      end('{"input":1e400,"output":2}') +
      end('{"input":10,"output":-5}') +
      end('{"input":18446744073709551616,"output":2}') +
      end('{"input":10,"output":2,"cacheRead":-1}') +
      end('{"input":9007199254740991,"output":2,"cacheRead":1}');
    const { finished, of } = run(native, { from: "atomic", end: exit0 });
    expect(of("usage").map((u) => [u.input_tokens, u.output_tokens])).toEqual([[10, 2]]);
    const kept = of("backend.event");
    expect(kept).toHaveLength(5);
    expect(kept.every((e) => e.native_type === "message_end" && e.native === "message_end")).toBe(true);
    const raw = kept.map((e) => e.raw as { message: { usage: { output: number }; content: unknown } });
    expect(raw.map((r) => r.message.usage.output)).toEqual([2, -5, 2, 2, 2]);
    expect(raw.every((r) => JSON.stringify(r.message.content) === '[{"type":"text","text":"hi"}]')).toBe(true);
    expect(of("message.completed")).toHaveLength(6);
    expect(finished.usage).toEqual({ input_tokens: 10, output_tokens: 2, complete: false });
  });

  it("a message whose fields have the wrong types keeps its text; the line is also kept whole as backend.event", () => {
    const end = (message: Record<string, unknown>) =>
      lines({ type: "message_end", message: { role: "assistant", ...message } });
    const native =
      end({ content: "plain text", usage: { input: "12", output: "3" }, stopReason: "stop" }) +
      end({ content: [{ type: "text", text: "blocks" }], usage: { input: 5, output: 1, totalTokens: -6 } }) +
      end({ content: [{ type: "text", text: "cost" }], usage: { input: 5, output: 1, cost: { total: "0.1" } } }) +
      end({ content: "model", model: 7 }) +
      end({ content: 42 }) +
      lines({ type: "message_end", message: "not an object" }) +
      end({ content: "last words", usage: { input: 1, output: 1 } });
    const { finished, of } = run(native, { from: "atomic", end: exit0 });
    expect(of("message.completed").map((m) => m.text)).toEqual(["plain text", "blocks", "cost", "model", "last words"]);
    const kept = of("backend.event");
    expect(kept.map((e) => e.native_type)).toEqual(Array(6).fill("message_end"));
    expect(kept.map((e) => e.raw)).toEqual(
      native
        .trim()
        .split("\n")
        .slice(0, 6)
        .map((l) => JSON.parse(l)),
    );
    // A line that breaks nothing gives no backend.event: seven lines, six kept.
    expect(of("usage").map((u) => [u.native, u.input_tokens])).toEqual([
      ["message_end", 5],
      ["message_end", 5],
      ["message_end", 1],
    ]);
    expect(finished.result).toEqual({ text: "last words" });
    expect(finished.usage?.complete).toBe(false);
  });

  it("auto_retry_start's delay_ms is capped at 2^53 - 1", () => {
    const native =
      '{"type":"auto_retry_start","attempt":1,"maxAttempts":2,"delayMs":1e400,"errorMessage":"500"}\n' +
      lines({ type: "auto_retry_start", attempt: 2, maxAttempts: 2, delayMs: 100.4, errorMessage: "500" });
    expect(
      run(native, { from: "atomic", end: exit0 })
        .of("retry.started")
        .map((r) => r.delay_ms),
    ).toEqual([Number.MAX_SAFE_INTEGER, 100]);
  });

  it("message.completed carries model, provider and stop_reason; text blocks are joined", () => {
    const { of } = fixture("atomic-tools");
    expect(of("message.completed").map((m) => [m.text, m.model, m.provider, m.stop_reason])).toEqual([
      ["Let me look.", "fake-model", "fake", "toolUse"],
      ["bash printed two lines; missing.txt does not exist.", "fake-model", "fake", "stop"],
    ]);
  });

  it("reasoning.completed per thinking block, deltas share the message id", () => {
    const { of } = fixture("atomic-thinking");
    expect(of("reasoning.completed").map((r) => r.text)).toEqual(["The user wants a greeting.", "Keep it short."]);
    expect(
      of("reasoning.delta")
        .map((r) => r.text)
        .join(""),
    ).toBe("The user wants a greeting.Keep it short.");
    const ids = new Set(
      [...of("reasoning.delta"), ...of("message.delta"), ...of("message.completed")].map((e) => e.message_id),
    );
    expect(ids).toEqual(new Set(["msg_1"]));
    expect(of("usage")[0]).toMatchObject({ reasoning_tokens: 12 });
  });

  it("tools: parallel calls in completion order, isError → failed, output = text blocks joined", () => {
    const { finished, of } = fixture("atomic-tools");
    expect(of("tool.started").map((t) => t.tool_call_id)).toEqual(["call_bash_1", "call_read_1"]);
    expect(of("tool.completed").map((t) => [t.tool_call_id, t.status, t.output])).toEqual([
      ["call_read_1", "failed", "ENOENT: no such file or directory, access '/home/user/ws/tools/missing.txt'"],
      ["call_bash_1", "succeeded", "hi\nthere\n"],
    ]);
    expect(of("tool.updated").map((t) => t.output)).toEqual(["", "hi\n"]);
    // Atomic's bash reports its wall time (result.details.wallTimeMs); read reports none.
    expect(of("tool.completed").map((t) => t.duration_ms)).toEqual([undefined, 12]);
    expect(finished.counts).toMatchObject({ tool_calls: 2, tool_failures: 1 });
  });

  it("pi 1.6: durationMs becomes duration_ms; system messages and settled {aborted:false} are quiet", () => {
    const { finished, of } = fixture("pi-1.6-tool");
    expect(of("tool.completed")[0]).toMatchObject({ duration_ms: 14, status: "succeeded", output: "a.txt\nb.txt\n" });
    expect(finished.status).toBe("succeeded");
    expect(finished.counts.unknown_events).toBe(0);
  });

  it("a message that only called a tool, only thought, or only failed has no message.completed; its usage and calls stay", () => {
    const { finished, of } = fixture("pi-1.6-tool");
    expect(of("message.completed").map((m) => [m.message_id, m.text])).toEqual([
      ["msg_2", "Two files: a.txt and b.txt."],
    ]);
    expect(of("usage").map((u) => u.input_tokens)).toEqual([1200, 1300]);
    expect(of("tool.started")).toHaveLength(1);
    expect(finished.counts.messages).toBe(1);
    const thinking = {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "hmm" },
        { type: "text", text: "" },
      ],
      stopReason: "stop",
    };
    const failed = { role: "assistant", content: [], stopReason: "error", errorMessage: "500 boom" };
    const quiet = run(lines({ type: "message_end", message: thinking }, { type: "message_end", message: failed }), {
      from: "atomic",
      end: exit0,
    });
    expect(quiet.events.map((e) => e.type)).toEqual(["run.started", "reasoning.completed", "error", "run.finished"]);
    expect(quiet.finished.result).toBeNull();
  });

  it("pi 0.73 message/partial copies are ignored: deltas come from the delta field only", () => {
    const { of } = fixture("pi-0.73-text");
    expect(of("message.delta").map((d) => d.text)).toEqual(["Hello from", " the fake model."]);
    expect(of("backend.event")).toHaveLength(0);
  });

  it("session metadata becomes session.updated; entry_appended, bash_execution_update and unknown types pass through", () => {
    const { finished, of } = fixture("atomic-session-events");
    expect(of("session.updated").map(({ name, thinking_level, queue }) => ({ name, thinking_level, queue }))).toEqual([
      { name: undefined, thinking_level: "high", queue: undefined },
      { name: "refactor notes", thinking_level: undefined, queue: undefined },
      {
        name: undefined,
        thinking_level: undefined,
        queue: { steering: ["use tabs"], follow_up: ["then run the tests"] },
      },
      { name: undefined, thinking_level: undefined, queue: { steering: [], follow_up: [] } },
    ]);
    expect(of("model.changed")[0]).toMatchObject({ model: "fake-reasoner", reason: "cycle" });
    expect(of("backend.event").map((e) => e.native_type)).toEqual([
      "message_update",
      "entry_appended",
      "bash_execution_update",
      "plan_updated",
    ]);
    expect(finished.counts.unknown_events).toBe(4);
    expect(finished.status).toBe("succeeded");
  });

  it("pi compaction: summary and estimate, summarization retries, an end without a start", () => {
    const { finished, of } = fixture("pi-compaction");
    expect(of("compaction.started")).toHaveLength(1);
    expect(of("compaction.completed")).toEqual([
      expect.objectContaining({
        reason: "threshold",
        summary: "The user asked two questions.",
        tokens_before: 150000,
        tokens_after: 4000,
        aborted: false,
      }),
      expect.objectContaining({ reason: "manual", aborted: true, error: "Compaction cancelled" }),
    ]);
    expect(of("retry.started")[0]).toMatchObject({
      scope: "summarization",
      attempt: 1,
      max_attempts: 3,
      delay_ms: 500,
    });
    expect(of("retry.completed")[0]).toMatchObject({ scope: "summarization" });
    expect(of("backend.event")[0]).toMatchObject({ native_type: "summarization_retry_attempt_start" });
    // Two prompts: the second one's answer is the result.
    expect(finished.result).toEqual({ text: "Second answer." });
    expect(finished.counts.turns).toBe(2);
  });

  it("old pi auto_compaction_start/end map like compaction_start/end", () => {
    const { of } = fixture("pi-auto-compaction");
    expect(of("compaction.started")[0]).toMatchObject({ reason: "threshold", native: "auto_compaction_start" });
    expect(of("compaction.completed")[0]).toMatchObject({
      summary: "Greeting exchanged.",
      tokens_before: 2004,
      native: "auto_compaction_end",
    });
  });

  it("session_id is on every line after the header, seq counts up by one, exit_code is the outcome's", () => {
    for (const name of ["atomic-tools", "atomic-sigterm", "pi-0.73-text", "pi-compaction", "atomic-error500"]) {
      const { events, finished, outcome } = fixture(name);
      expect(finished.exit_code).toBe(outcome.exitCode);
      const id = events.find((e) => e.type === "session.started")!.session_id;
      expect(events[0]!.session_id).toBeUndefined();
      expect(events.slice(1).every((e) => e.session_id === id)).toBe(true);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    }
  });
});

describe("atomic translator: several prompts in one run", () => {
  const header = { type: "session", version: 3, id: "s-1", cwd: "/w" };
  const assistant = (text: string, stopReason: string) => ({
    type: "message_end",
    message: { role: "assistant", content: [{ type: "text", text }], provider: "fake", model: "m", stopReason },
  });
  const prompt = (text: string, stopReason: string, settled: object | null) => [
    { type: "agent_start" },
    { type: "turn_start" },
    assistant(text, stopReason),
    { type: "turn_end" },
    { type: "agent_end", messages: [] },
    ...(settled ? [{ type: "agent_settled", ...settled }] : []),
  ];

  it("an abort in an earlier prompt does not fail a later one that succeeded", () => {
    const { finished } = run(
      lines(header, ...prompt("stopped", "aborted", { aborted: true }), ...prompt("done", "stop", { aborted: false })),
      { from: "pi", end: exit0 },
    );
    expect(finished.status).toBe("succeeded");
    expect(finished.result).toEqual({ text: "done" });
  });

  it("a kill during the second prompt is a crash, even though the first one settled", () => {
    const second = [
      { type: "agent_start" },
      { type: "turn_start" },
      { type: "tool_execution_start", toolCallId: "c1", toolName: "bash", args: {} },
    ];
    const { finished, of } = run(lines(header, ...prompt("first", "stop", {}), ...second), {
      end: { backendExit: { code: null, signal: "SIGTERM" }, stderrTail: [] },
    });
    expectFailed(finished, 76, { code: "backend_crashed" });
    expect(of("tool.completed")[0]).toMatchObject({ tool_call_id: "c1", status: "cancelled", synthetic: true });
  });

  it("a pi 0.73 recording ending with a threshold compaction after agent_end still counts as finished", () => {
    const compaction = [
      { type: "compaction_start", reason: "threshold" },
      { type: "compaction_end", reason: "threshold", aborted: false, willRetry: false },
    ];
    const { finished } = run(lines(header, ...prompt("answer", "stop", null), ...compaction), { from: "pi" });
    expect(finished.status).toBe("succeeded");
    expect(finished.result).toEqual({ text: "answer" });
  });

  it("agent_end with willRetry (pi >= 0.84) is not the end of a recording", () => {
    const native = lines(header, { type: "agent_start" }, assistant("", "error"), {
      type: "agent_end",
      messages: [],
      willRetry: true,
    });
    expect(run(native, { from: "pi" }).finished.error).toMatchObject({ code: "backend_crashed" });
  });
});

describe("a clean exit with nothing to show", () => {
  it("is a crash, not a verdict, when only the header came", () => {
    const header = '{"type":"session","version":3,"id":"s-1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}\n';
    const { outcome } = translate(header, { from: "pi", end: { backendExit: { code: 0, signal: null } } });
    expect(outcome).toMatchObject({ status: "failed", exitCode: 76, error: { code: "backend_crashed" } });
  });

  it("is a protocol error when stdout was not the protocol at all", () => {
    const { outcome } = translate("Hello, I am not JSON\n", {
      from: "atomic",
      end: { backendExit: { code: 0, signal: null } },
    });
    expect(outcome).toMatchObject({ status: "failed", exitCode: 76, error: { code: "backend_protocol" } });
  });
});
