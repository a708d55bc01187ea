// The shared half of every translation: invariants kept whatever the backend sends.
import { describe, expect, it } from "vitest";
import { translate } from "../../helpers/translate.js";
import { verifyEvents } from "../../helpers/verify.js";

const lines = (...objects: object[]) => objects.map((o) => JSON.stringify(o)).join("\n");
const done = { type: "done", content: "", response: "" };
const call = (id: string) => ({ type: "tool_call", name: "ls", args: {}, id });
const result = (id: string) => ({ type: "tool_result", name: "ls", content: "ok", success: true, id });
/** Event types, without the turns EvoSci streams get around each model call. */
const typesOf = (events: Array<{ type: string }>) => events.map((e) => e.type).filter((t) => !t.startsWith("turn."));

describe("CanonicalStream", () => {
  it("usage totals stop at 2^53 - 1 and then say complete: false", () => {
    const big = Number.MAX_SAFE_INTEGER;
    const message = (input: number, cost: number) => ({
      type: "message_end",
      message: {
        role: "assistant",
        content: [{ type: "text", text: "hi" }],
        usage: { input, output: 1, totalTokens: input, cost: { total: cost } },
        stopReason: "stop",
      },
    });
    const exit0 = { backendExit: { code: 0, signal: null }, stderrTail: [] };
    const { events } = translate(lines(message(big, big), message(big, big)), { from: "atomic", end: exit0 });
    expect(events.at(-1)).toMatchObject({
      usage: { input_tokens: big, output_tokens: 2, total_tokens: big, cost_usd: big, complete: false },
    });
    expect(verifyEvents(events)).toEqual([]);
    const small = translate(lines(message(big - 1, 0.5), message(1, 0.5)), { from: "atomic", end: exit0 }).events.at(
      -1,
    );
    expect(small).toMatchObject({ usage: { input_tokens: big, output_tokens: 2, total_tokens: big, cost_usd: 1 } });
    expect(small).not.toHaveProperty("usage.complete");
  });

  it("stopped during a model call whose usage never came: run.finished's usage so far says complete: false", async () => {
    const { readFileSync } = await import("node:fs");
    const native = readFileSync(new URL("../../../examples/atomic/tools.native.jsonl", import.meta.url), "utf8").split(
      "\n",
    );
    const stopped = { end: { backendExit: { code: null, signal: "SIGTERM" } }, from: "atomic" as const };
    /** The stream up to and with the first line that `predicate` picks. */
    const cut = (predicate: (line: string) => boolean, interruption?: { kind: "timeout" }) => {
      const at = native.findIndex(predicate);
      return translate(native.slice(0, at + 1).join("\n"), { ...stopped, ...(interruption ? { interruption } : {}) })
        .events;
    };
    const finished = (events: Array<{ type: string }>) => events.at(-1) as { usage?: Record<string, unknown> };
    // The second call began (turn_start after the first call's usage): its usage is unknown.
    const secondTurn = (line: string, i = native.indexOf(line)) => line.includes('"turn_start"') && i > 2;
    const second = cut(secondTurn, { kind: "timeout" });
    expect(finished(second).usage).toMatchObject({ input_tokens: 1300, output_tokens: 40, complete: false });
    expect(verifyEvents(second)).toEqual([]);
    // Stopped before any usage came: zero so far, incomplete.
    const first = cut((line) => line.includes('"turn_start"'), { kind: "timeout" });
    expect(finished(first).usage).toEqual({ input_tokens: 0, output_tokens: 0, complete: false });
    // Stopped after the call's usage came (during its tool calls): nothing unknown.
    const afterUsage = cut((line) => line.includes('"tool_execution_start"'), { kind: "timeout" });
    expect(finished(afterUsage).usage).toMatchObject({ input_tokens: 1300 });
    expect(finished(afterUsage).usage).not.toHaveProperty("complete");
    // The same cut, not stopped by agentstream (the backend crashed): no claim about its usage.
    expect(finished(cut(secondTurn)).usage).not.toHaveProperty("complete");
  });

  it("keeps a second start of a call still open as backend.event, and counts it", () => {
    const { events } = translate(lines(call("a"), call("a"), result("a"), done), { from: "evosci" });
    expect(typesOf(events)).toEqual(["run.started", "tool.started", "backend.event", "tool.completed", "run.finished"]);
    expect(events.at(-1)).toMatchObject({ counts: { tool_calls: 1, unknown_events: 1 } });
    expect(verifyEvents(events)).toEqual([]);
  });

  it("announces a call the backend never started before its result", () => {
    const { events } = translate(lines(result("b"), done), { from: "evosci" });
    const started = events.findIndex((e) => e.type === "tool.started");
    expect(events[started]).toMatchObject({ type: "tool.started", tool_call_id: "b", args: {}, synthetic: true });
    expect(events[started]).not.toHaveProperty("native");
    expect(events[started + 1]).toMatchObject({ type: "tool.completed", tool_call_id: "b", native: "tool_result" });
    expect(verifyEvents(events)).toEqual([]);
  });

  it("closes open calls and sub-agents before run.finished, without marking the sub-agent's close as inside it", () => {
    const { events } = translate(
      lines(call("c"), { type: "subagent_start", name: "r", description: "", instance_id: "i1", tool_call_id: "c" }),
      { from: "evosci", end: { backendExit: { code: null, signal: "SIGKILL" } } },
    );
    const closing = events.slice(-3);
    expect(closing[0]).toMatchObject({
      type: "tool.completed",
      tool_call_id: "c",
      status: "cancelled",
      reason: "backend_exited",
      synthetic: true,
    });
    expect(closing[1]).toMatchObject({ type: "subagent.completed", instance_id: "i1", synthetic: true });
    expect(closing[1]).not.toHaveProperty("agent");
    expect(closing[2]).toMatchObject({ type: "run.finished", exit_code: 76 });
    expect(verifyEvents(events)).toEqual([]);
  });

  it("gives run.finished a duration equal to its own elapsed_ms", () => {
    const finished = translate(lines({ type: "text", content: "x" }, done)).events.at(-1)!;
    expect(finished).toMatchObject({ duration_ms: finished.elapsed_ms });
  });

  it("attaches raw only to events translated from that native object", () => {
    const { events } = translate(lines({ type: "text", content: "x" }, call("d"), result("d"), done), {
      from: "evosci",
      includeRaw: true,
    });
    const withRaw = events.filter((e) => "raw" in e).map((e) => e.type);
    expect(withRaw).toEqual(["message.delta", "tool.started", "tool.completed"]);
    expect(events.find((e) => e.type === "message.completed")).not.toHaveProperty("raw");
  });

  it("measures tool durations with its own clock only in live runs", () => {
    const recorded = translate(lines(call("e"), result("e"), done), { from: "evosci" }).events;
    expect(recorded.find((e) => e.type === "tool.completed")).not.toHaveProperty("duration_ms");
    const live = translate(lines(call("e"), result("e"), done), { from: "evosci", liveDurations: true }).events;
    expect(live.find((e) => e.type === "tool.completed")).toMatchObject({ duration_ms: expect.any(Number) });
  });

  it("drops only deltas with --no-deltas, and keeps seq without gaps", () => {
    const { events } = translate(
      lines({ type: "text", content: "x" }, { type: "thinking", content: "y", id: 0 }, done),
      { from: "evosci", deltas: false },
    );
    expect(typesOf(events)).toEqual(["run.started", "reasoning.completed", "message.completed", "run.finished"]);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  });
});
