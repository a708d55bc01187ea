// The EvoScientist translator's key facts, stated one by one. The golden
// fixtures in test/fixtures/golden/evosci/ pin the whole streams; these tests
// say what in them matters and why.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { CanonicalEvent, EventOf, EventType, RunStatus } from "../../../../src/canonical/events.js";
import { EvosciTranslator } from "../../../../src/backends/evosci/translator.js";
import type { NativeEvent } from "../../../../src/core/translator.js";
import { translate, type TranslateOptions } from "../../../helpers/translate.js";

const done0 = { type: "done", content: "", response: "" };
const FIXTURES = fileURLToPath(new URL("../../../fixtures/golden/evosci/", import.meta.url));

/** Translate one golden fixture with its recorded options. */
function fixture(name: string, extra: TranslateOptions = {}) {
  const optionsPath = join(FIXTURES, `${name}.options.json`);
  const options: TranslateOptions = existsSync(optionsPath) ? JSON.parse(readFileSync(optionsPath, "utf8")) : {};
  return translate(readFileSync(join(FIXTURES, `${name}.native.jsonl`)), { ...options, ...extra });
}

/** Translate native events written inline (JSON objects or raw lines). */
function stream(lines: Array<Record<string, unknown> | string>, options: TranslateOptions = {}) {
  const text = lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n");
  return translate(`${text}\n`, { from: "evosci", ...options });
}

function ofType<T extends EventType>(events: CanonicalEvent[], type: T): Array<EventOf<T>> {
  return events.filter((e) => e.type === type) as Array<EventOf<T>>;
}

function finished(events: CanonicalEvent[]): EventOf<"run.finished"> {
  const last = events.at(-1)!;
  expect(last.type).toBe("run.finished");
  return last as EventOf<"run.finished">;
}

/** run.finished, once its status is checked and its exit_code is what the process exits with. */
function endedAs(run: ReturnType<typeof translate>, status: RunStatus, exitCode: number): EventOf<"run.finished"> {
  const end = finished(run.events);
  expect([end.status, end.exit_code, run.outcome.exitCode]).toEqual([status, exitCode, exitCode]);
  return end;
}

function nativeLines(name: string): Array<Record<string, unknown>> {
  return readFileSync(join(FIXTURES, `${name}.native.jsonl`), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("evosci: successful runs", () => {
  it("a text-only run succeeds with the joined text as its result", () => {
    const run = fixture("text-only");
    const { events } = run;
    const end = endedAs(run, "succeeded", 0);
    expect(end.result?.text).toBe(ofType(events, "message.completed")[0]!.text);
    expect(end.error).toBeUndefined();
    expect(end.stderr_tail).toBeUndefined();
  });

  it("result.text is the text after the last main tool call, not done.response", () => {
    const { events } = fixture("tool-calls");
    const done = nativeLines("tool-calls").at(-1)!;
    const end = finished(events);
    expect(end.result?.text).toBe("`ours` beats the baseline: 0.857 vs 0.812 accuracy (+4.5 points).");
    expect(end.result?.text).not.toBe(done.response);
  });

  it("falls back to done.response when no text follows the last tool call", () => {
    const end = finished(fixture("result-fallback").events);
    expect(end.result?.text).toBe("Writing the notes file.");
  });

  it("has no result when the run wrote no text at all", () => {
    expect(finished(fixture("raw").events).result).toBeNull();
  });

  it("keeps the backend's success verdict, even where the output says otherwise", () => {
    const { events } = fixture("tool-calls");
    const completed = ofType(events, "tool.completed");
    expect(completed.find((e) => e.tool_call_id === "toolu_01ReadMissing")?.status).toBe("failed");
    // "Exit code: 2" in the output, but the backend said success: true.
    expect(completed.find((e) => e.tool_call_id === "toolu_01ExecLs")?.status).toBe("succeeded");
    expect(finished(events).counts).toMatchObject({
      messages: 4,
      tool_calls: 4,
      tool_failures: 1,
      errors: 0,
      turns: 5,
    });
  });

  it("sums usage over the run and marks it incomplete (main agent only)", () => {
    const { events } = fixture("tool-calls");
    const calls = ofType(events, "usage");
    expect(calls.every((u) => u.scope === "call")).toBe(true);
    expect(finished(events).usage).toEqual({
      input_tokens: calls.reduce((n, u) => n + u.input_tokens, 0),
      output_tokens: calls.reduce((n, u) => n + u.output_tokens, 0),
      complete: false,
    });
  });

  it("keeps usage_stats whose counts are not exact integers as backend.event, out of the totals", () => {
    const { events } = stream([
      { type: "usage_stats", input_tokens: 10, output_tokens: 2 },
      '{"type":"usage_stats","input_tokens":1e400,"output_tokens":2}',
      '{"type":"usage_stats","input_tokens":18446744073709551616,"output_tokens":2}',
      { type: "usage_stats", input_tokens: 10, output_tokens: -5 },
      { type: "usage_stats", input_tokens: 10 },
      { type: "done", content: "", response: "" },
    ]);
    expect(ofType(events, "usage").map((u) => [u.input_tokens, u.output_tokens])).toEqual([[10, 2]]);
    expect(ofType(events, "backend.event").map((e) => e.native_type)).toEqual([
      "usage_stats",
      "usage_stats",
      "usage_stats",
      "usage_stats",
    ]);
    expect(finished(events).usage).toEqual({ input_tokens: 10, output_tokens: 2, complete: false });
  });

  it("model_retry's delay_ms is wait_seconds in ms, capped at 2^53 - 1", () => {
    const { events } = stream([
      { type: "model_retry", attempt: 1, wait_seconds: 1.5, reason: "429" },
      { type: "model_retry", attempt: 2, wait_seconds: 1e300, reason: "429" },
      '{"type":"model_retry","attempt":3,"wait_seconds":1e400,"reason":"429"}',
      done0,
    ]);
    expect(ofType(events, "retry.started").map((r) => r.delay_ms)).toEqual([
      1500,
      Number.MAX_SAFE_INTEGER,
      Number.MAX_SAFE_INTEGER,
    ]);
  });

  it("reports no usage when the backend reported none", () => {
    expect(finished(stream([{ type: "done", content: "", response: "" }]).events).usage).toBeUndefined();
  });

  it("reads the resume hint from stderr; the session id appears on no line", () => {
    const { events } = fixture("text-only");
    expect(finished(events).resume).toEqual({ session_id: "3f9a1c02", hint: "EvoSci --resume 3f9a1c02" });
    expect(events.some((e) => e.session_id !== undefined)).toBe(false);
    expect(ofType(events, "session.started")).toHaveLength(0);
  });

  it("has no resume when stderr has no hint", () => {
    expect(finished(fixture("killed-sigterm").events).resume).toBeUndefined();
  });
});

describe("evosci: turns (one main-agent model call and the tools it calls)", () => {
  const turnsOf = (events: CanonicalEvent[]) =>
    events
      .filter((e) => e.type.startsWith("turn."))
      .map((e) => `${e.type === "turn.started" ? "+" : "-"}${(e as EventOf<"turn.started">).turn}`);

  it("a tool round trip per call, then the answer: one turn each, closed before the next opens", () => {
    const { events } = fixture("tool-calls");
    expect(turnsOf(events)).toEqual(["+1", "-1", "+2", "-2", "+3", "-3", "+4", "-4", "+5", "-5"]);
    expect(finished(events).counts.turns).toBe(5);
    // Each call's tools run inside its turn; every turn event is made up.
    const [started, completed] = [
      events.findIndex((e) => e.type === "turn.started"),
      events.findIndex((e) => e.type === "turn.completed"),
    ];
    expect(events.slice(started, completed).map((e) => e.type)).toContain("tool.completed");
    expect(
      events.filter((e) => e.type.startsWith("turn.")).every((e) => e.synthetic === true && e.native === undefined),
    ).toBe(true);
  });

  it("a retried call stays one turn; sub-agents work inside it", () => {
    expect(turnsOf(fixture("model-retry").events)).toEqual(["+1", "-1"]);
    expect(turnsOf(fixture("subagents-parallel").events)).toEqual(["+1", "-1", "+2", "-2"]);
    expect(
      turnsOf(stream([{ type: "subagent_text", subagent: "a", content: "x", instance_id: "i1" }, done0]).events),
    ).toEqual([]);
  });

  it("a rubric revision is a new call; nothing after done is a turn", () => {
    expect(turnsOf(fixture("rubric-satisfied").events)).toEqual(["+1", "-1", "+2", "-2"]);
    expect(finished(fixture("after-terminal").events).counts.turns).toBe(1);
  });

  it("an error closes the turn before it; an error with no output before it is no turn", () => {
    const run = stream([
      { type: "text", content: "Reading." },
      { type: "error", message: "Error code: 400 - bad" },
    ]);
    expect(turnsOf(run.events)).toEqual(["+1", "-1"]);
    expect(run.events.at(-2)!.type).toBe("error");
    expect(finished(stream([{ type: "error", message: "Error code: 400 - bad" }]).events).counts.turns).toBe(0);
  });
});

describe("evosci: chunked text, thinking and summaries", () => {
  it("closes reasoning at the next non-thinking event, as a synthetic event", () => {
    const { events } = fixture("thinking");
    const types = events.map((e) => e.type);
    const firstCompleted = types.indexOf("reasoning.completed");
    expect(types.slice(1, firstCompleted)).toEqual(["turn.started", "reasoning.delta", "reasoning.delta"]);
    expect(types[firstCompleted + 1]).toBe("message.delta");
    for (const e of ofType(events, "reasoning.completed")) {
      expect(e.synthetic).toBe(true);
      expect(e.native).toBeUndefined();
    }
    expect(ofType(events, "reasoning.completed").map((e) => e.text)).toEqual([
      "The user wants a sanity check of the LR schedule. Warmup 500 of 20k steps is 2.5%.",
      "Recommend a floor of 10% of peak (3e-5).",
    ]);
  });

  it("joins message chunks into one synthetic message.completed before the tool call", () => {
    const { events } = fixture("tool-calls");
    const first = events.findIndex((e) => e.type === "tool.started");
    expect(events.slice(1, first).map((e) => e.type)).toEqual([
      "turn.started",
      "message.delta",
      "message.delta",
      "message.completed",
    ]);
    expect(events[first - 1]).toMatchObject({
      message_id: "msg_1",
      text: "I'll start by looking at the workspace layout.",
      synthetic: true,
    });
    expect(events[first - 1]!.native).toBeUndefined();
  });

  it("joins summary chunks into compaction.completed at the next other event", () => {
    const { events } = fixture("summarization");
    const started = events.findIndex((e) => e.type === "compaction.started");
    expect(events[started + 1]).toMatchObject({
      type: "compaction.completed",
      summary: "## Session intent\nCompare ablations run1-run8.\n\n## Open items\n- Fill run7 row",
      synthetic: true,
    });
    // Then the next model call's turn, whose text comes first.
    expect(events.slice(started + 2, started + 5).map((e) => e.type)).toEqual([
      "turn.completed",
      "turn.started",
      "message.delta",
    ]);
  });

  it("completes a compaction whose summary was not streamed, without a summary", () => {
    const completed = ofType(fixture("summarization-without-summary").events, "compaction.completed");
    expect(completed).toHaveLength(1);
    expect(completed[0]!.summary).toBeUndefined();
  });

  it("maps tool_selection to tools.selected", () => {
    const selected = ofType(fixture("tool-selection").events, "tools.selected");
    expect(selected.map((e) => e.tools)).toEqual([["read_file", "write_file", "task", "arxiv_search_papers"]]);
  });
});

describe("evosci: sub-agents", () => {
  const { events } = fixture("subagents-parallel");
  const agentA = { name: "research-agent", instance_id: "inst-a7" };
  const agentB = { name: "research-agent", instance_id: "inst-b3" };

  it("tells parallel sub-agents of the same name apart by instance_id", () => {
    expect(ofType(events, "subagent.started").map((e) => [e.instance_id, e.tool_call_id])).toEqual([
      ["inst-a7", "toolu_01TaskA"],
      ["inst-b3", "toolu_01TaskB"],
    ]);
    const messages = ofType(events, "message.completed").filter((e) => e.agent !== undefined);
    expect(messages.map((e) => [e.agent?.instance_id, e.text])).toEqual([
      ["inst-a7", "Searching for CIFAR-100 baselines."],
      ["inst-b3", "Searching for Tiny-ImageNet"],
      ["inst-a7", "Search failed; reporting the known figure (~76%)."],
      ["inst-b3", "Tiny-ImageNet baseline is ~55% top-1."],
    ]);
    const subTools = ofType(events, "tool.completed").filter((e) => e.agent !== undefined);
    expect(subTools.map((e) => [e.agent, e.status])).toEqual([
      [agentB, "succeeded"],
      [agentA, "failed"],
    ]);
  });

  it("accepts subagent_end before and after the parent task's tool_result", () => {
    const at = (pred: (e: CanonicalEvent) => boolean) => events.findIndex(pred);
    const endA = at((e) => e.type === "subagent.completed" && e.instance_id === "inst-a7");
    const endB = at((e) => e.type === "subagent.completed" && e.instance_id === "inst-b3");
    const taskA = at((e) => e.type === "tool.completed" && e.tool_call_id === "toolu_01TaskA");
    const taskB = at((e) => e.type === "tool.completed" && e.tool_call_id === "toolu_01TaskB");
    expect(endA).toBeLessThan(taskA);
    expect(endB).toBeGreaterThan(taskB);
    // Both are the backend's own ends, not closed by agentstream.
    expect([events[endA]!.synthetic, events[endB]!.synthetic]).toEqual([undefined, undefined]);
  });

  it("puts agent only on events produced inside a sub-agent", () => {
    const subMessages = new Set(
      ofType(events, "message.delta")
        .filter((e) => e.native === "subagent_text")
        .map((e) => e.message_id),
    );
    for (const e of events) {
      const inside =
        e.native === undefined
          ? e.type === "message.completed" && subMessages.has(e.message_id)
          : /^subagent_(text|tool_call|tool_result)$/.test(e.native);
      expect(e.agent !== undefined, `seq ${e.seq} ${e.type}`).toBe(inside);
    }
  });

  it("keeps sub-agent text out of the result", () => {
    expect(finished(events).result?.text).toBe("Baselines: CIFAR-100 ~76%, Tiny-ImageNet ~55% top-1.");
    expect(finished(events).counts).toMatchObject({ messages: 6, tool_calls: 4, tool_failures: 1 });
  });

  it("pairs calls sent without ids per agent", () => {
    const { events: e } = fixture("empty-ids");
    const pairs = ofType(e, "tool.completed").map((c) => [c.tool_call_id, c.output]);
    expect(pairs).toEqual([
      ["ls_call_1", "['/data/']"],
      ["ls_call_3", "[]"],
      ["ls_call_2", "['/data/a.csv']"],
    ]);
    expect(ofType(e, "subagent.started")[0]!.instance_id).toBe("helper");
  });

  // Issue 19: each call without an id once copied the whole queue (quadratic: minutes
  // at this size). The timeout is only a guard; linear work ends in well under a second.
  it("pairs 200,000 calls sent without ids in linear work", { timeout: 60_000 }, () => {
    const calls = 200_000;
    const translator = new EvosciTranslator();
    const ids = (e: NativeEvent) =>
      translator
        .translate(e)
        .filter((d) => d.type.startsWith("tool."))
        .map((d) => (d.payload as { tool_call_id: string }).tool_call_id);
    const started: string[] = [];
    for (let i = 0; i < calls; i++) started.push(...ids({ type: "tool_call", id: "", name: "ls", args: {} }));
    const completed: string[] = [];
    for (let i = 0; i < calls; i++) completed.push(...ids({ type: "tool_result", id: "", name: "ls", content: "" }));
    expect(completed).toEqual(started);
    expect(new Set(started).size).toBe(calls);
  });
});

describe("evosci: sub-agents dispatched inside a code-interpreter call (panel_dispatch_*)", () => {
  const run = fixture("panel-dispatch");
  const searchA = { name: "research-agent", instance_id: "9c1d2e3f4a5b6c7d" };
  const searchB = { name: "research-agent", instance_id: "0a1b2c3d4e5f6a7b" };

  it("are sub-agents keyed by dispatch id, spawned by the code_interpreter call, with their task", () => {
    expect(ofType(run.events, "subagent.started")).toMatchObject([
      {
        ...searchA,
        tool_call_id: "toolu_01Eval",
        description: "Find 3 recent papers on contrastive pretraining",
        native: "panel_dispatch_start",
      },
      {
        ...searchB,
        tool_call_id: "toolu_01Eval",
        description: "Find 3 recent papers on data augmentation for tabular data",
        native: "panel_dispatch_start",
      },
    ]);
    // The end events carry no name: it is the one the start gave.
    expect(ofType(run.events, "subagent.completed")).toEqual([
      expect.objectContaining({ ...searchB, duration_ms: 2210, native: "panel_dispatch_error" }),
      expect.objectContaining({ ...searchA, duration_ms: 8423, native: "panel_dispatch_complete" }),
    ]);
    expect(ofType(run.events, "backend.event")).toEqual([]);
  });

  it("a dispatch that raised reports its error inside the sub-agent, then completes; the run goes on", () => {
    const [error] = ofType(run.events, "error");
    expect(error).toMatchObject({
      agent: searchB,
      code: "overloaded",
      retryable: true,
      http_status: 529,
      native: "panel_dispatch_error",
    });
    expect(run.events.indexOf(error!)).toBeLessThan(run.events.findIndex((e) => e.type === "subagent.completed"));
    const end = endedAs(run, "succeeded", 0);
    expect(end.counts.errors).toBe(1);
    expect(end.result?.text).toBe(
      "One search failed (the provider was overloaded); the other found SimCLR, MoCo v3 and DINOv2.",
    );
  });

  it("a dispatch end without a start still pairs; one without an id stays data; a duration of 0 is EvoScientist's 'not given'", () => {
    const events = stream([
      { type: "panel_dispatch_complete", eval_id: "", id: "d1", duration_ms: 0 },
      { type: "panel_dispatch_start", eval_id: "", id: "" },
      done0,
    ]).events;
    expect(ofType(events, "subagent.started")).toMatchObject([{ name: "", instance_id: "d1", synthetic: true }]);
    expect(ofType(events, "subagent.completed")[0]).not.toHaveProperty("duration_ms");
    expect(ofType(events, "backend.event").map((e) => e.native_type)).toEqual(["panel_dispatch_start"]);
    expect(ofType(events, "subagent.started")[0]).not.toHaveProperty("tool_call_id");
  });
});

describe("evosci: paused for input", () => {
  it("interrupt then done: needs_input, exit 3, the approval pending", () => {
    const end = endedAs(fixture("interrupt"), "needs_input", 3);
    expect(end.backend_exit).toEqual({ code: 0, signal: null });
    expect(end.pending).toHaveLength(1);
    expect(end.pending![0]).toMatchObject({ request_id: "5b0f6c1e2a7d4e93b8c1f0a2d6e4b731", kind: "approval" });
    expect(end.pending![0]!.actions!.map((a) => [a.name, a.allowed_decisions])).toEqual([
      ["execute", ["approve", "edit", "reject"]],
      ["edit_file", ["approve", "reject"]],
    ]);
    expect(end.resume?.session_id).toBe("6d14f0ab");
    expect(end.stderr_tail?.at(-1)).toBe("EvoSci --resume 6d14f0ab");
  });

  it("closes every call left without a result as awaiting_input", () => {
    const closed = ofType(fixture("interrupt").events, "tool.completed");
    expect(closed.map((e) => [e.tool_call_id, e.status, e.reason, e.synthetic])).toEqual([
      ["toolu_01Write", "cancelled", "awaiting_input", true],
      ["toolu_01Exec", "cancelled", "awaiting_input", true],
      ["toolu_01EditCfg", "cancelled", "awaiting_input", true],
    ]);
  });

  it("ask_user then done: a pending question tied to its tool call", () => {
    const run = fixture("ask-user");
    const { events } = run;
    const end = endedAs(run, "needs_input", 3);
    expect(end.pending).toEqual(
      ofType(events, "input.requested").map(({ request_id, kind, tool_call_id, questions }) => ({
        request_id,
        kind,
        tool_call_id,
        questions,
      })),
    );
    expect(end.pending![0]).toMatchObject({ kind: "question", tool_call_id: "toolu_01AskUser" });
    expect(end.pending![0]!.questions!.map((q) => [q.type, q.required])).toEqual([
      ["multiple_choice", undefined],
      ["text", undefined],
      ["multiple_choice", false],
    ]);
    expect(ofType(events, "tool.completed")).toMatchObject([
      { tool_call_id: "toolu_01AskUser", reason: "awaiting_input", synthetic: true },
    ]);
  });

  it("a sub-agent that stopped for input (subagent_end.paused): needs_input, exit 3, even with no interrupt on stdout", () => {
    const run = fixture("subagent-paused");
    const end = endedAs(run, "needs_input", 3);
    expect(end.backend_exit).toEqual({ code: 0, signal: null });
    expect(ofType(run.events, "subagent.completed")).toMatchObject([
      { name: "code-agent", instance_id: "tools:7f3e9a", paused: true },
    ]);
    // The sub-agent's call and the task that spawned it wait for the answer too.
    expect(ofType(run.events, "tool.completed").map((e) => [e.tool_call_id, e.reason])).toEqual([
      ["toolu_01Task", "awaiting_input"],
      ["toolu_02Exec", "awaiting_input"],
    ]);
  });

  it("a sub-agent that simply ended is not paused; a paused one before an error leaves the run failed", () => {
    const ended = stream([
      { type: "subagent_start", name: "a", instance_id: "i1" },
      { type: "subagent_end", name: "a", instance_id: "i1" },
      done0,
    ]);
    expect(ofType(ended.events, "subagent.completed")[0]).not.toHaveProperty("paused");
    endedAs(ended, "succeeded", 0);
    const paused = { type: "subagent_end", name: "a", instance_id: "i1", paused: true };
    endedAs(stream([paused, { type: "error", message: "Error code: 400 - bad" }]), "failed", 1);
  });

  it("keeps every interrupt of a run pending", () => {
    const request = (id: string) => ({ type: "interrupt", interrupt_id: id, action_requests: [], review_configs: [] });
    const end = finished(
      stream([request("a"), request(""), request(""), { type: "done", content: "", response: "" }]).events,
    );
    expect(end.pending!.map((p) => p.request_id)).toEqual(["a", "interrupt_1", "interrupt_2"]);
  });
});

describe("evosci: graded runs (--rubric)", () => {
  it("a rubric satisfied after a revision: succeeded, the answer is the last pass's text", () => {
    const run = fixture("rubric-satisfied");
    const end = endedAs(run, "succeeded", 0);
    expect(end.result?.text).toBe("The mean accuracy is 0.861 (n = 5 runs, sd 0.004), from data/results.csv.");
    expect(ofType(run.events, "error")).toEqual([]);
    // The draft and the revision are two messages; each verdict is kept whole.
    expect(ofType(run.events, "message.completed").map((m) => m.text)).toEqual([
      "The mean accuracy is 0.86.",
      end.result?.text,
    ]);
    expect(ofType(run.events, "backend.event").map((e) => e.native_type)).toEqual([
      "rubric_evaluation_start",
      "rubric_evaluation",
      "rubric_evaluation_start",
      "rubric_evaluation",
    ]);
  });

  it.each([
    ["rubric-not-met", "were not met (verdict max_iterations_reached): The data file is still not named."],
    ["rubric-grader-error", "could not be checked: the grader failed (verdict grader_error)"],
    ["rubric-no-verdict", "the run stopped before its acceptance criteria (--rubric) were checked"],
  ])("%s: failed with code acceptance, exit 1 (not the backend's 3)", (name, said) => {
    const run = fixture(name);
    const end = endedAs(run, "failed", 1);
    expect(end.backend_exit).toEqual({ code: 3, signal: null });
    expect(end.error).toMatchObject({ code: "acceptance", retryable: false });
    expect(end.error!.message).toContain(said);
    // The verdict is an error event too, the line before run.finished.
    expect(run.events.at(-2)).toMatchObject({
      type: "error",
      code: "acceptance",
      message: end.error!.message,
      synthetic: true,
    });
    expect(end.counts.errors).toBe(1);
    // What the agent answered was not accepted: it is in its messages, not a result.
    expect(end.result).toBeNull();
  });

  it("an unmet verdict decides even when the exit code is not known (a recording)", () => {
    const end = endedAs(fixture("rubric-not-met", { end: { backendExit: null } }), "failed", 1);
    expect(end.error?.code).toBe("acceptance");
    // With no verdict, only the backend's 3 tells that grading was missed.
    endedAs(fixture("rubric-no-verdict", { end: { backendExit: null } }), "succeeded", 0);
  });

  it("grading that started or was deferred but gave no verdict fails the run, even without the exit code", () => {
    const deferred = stream([
      { type: "text", content: "Queued the jobs." },
      { type: "rubric_evaluation_deferred", tasks: 2, processes: 0 },
      done0,
    ]);
    expect(endedAs(deferred, "failed", 1).error).toMatchObject({
      code: "acceptance",
      message: expect.stringContaining("grading waits for background work"),
    });
    const started = stream([{ type: "rubric_evaluation_start", iteration: 0 }, done0]);
    expect(endedAs(started, "failed", 1).error?.message).toBe(
      "the run stopped before its acceptance criteria (--rubric) were checked",
    );
  });

  it("a graded run paused for input stays needs_input", () => {
    const run = stream([{ type: "ask_user", interrupt_id: "q1", questions: [], tool_call_id: "" }, done0], {
      end: { backendExit: { code: 3, signal: null }, stderrTail: [] },
    });
    endedAs(run, "needs_input", 3);
    expect(ofType(run.events, "error")).toEqual([]);
  });

  it("done.last_pass_response is the result when no text after the last tool call was streamed", () => {
    const run = stream([
      {
        type: "rubric_evaluation",
        iteration: 0,
        result: "satisfied",
        explanation: "",
        criteria: [],
        unverified: false,
      },
      { type: "done", content: "draft\n\nfinal", response: "draft\n\nfinal", last_pass_response: "final" },
    ]);
    expect(endedAs(run, "succeeded", 0).result?.text).toBe("final");
  });
});

describe("evosci: errors", () => {
  it.each([
    ["error-overloaded", "overloaded", true, 529, 75],
    ["error-auth", "auth", false, 401, 77],
    ["error-provider-400", "provider", false, 400, 1],
    ["error-empty-message", "unknown", false, undefined, 1],
    // EvoScientist retries a response that ended with finish_reason=error; once it gives up, a retry later may help.
    ["error-finish-reason", "provider", true, undefined, 75],
    // A used-up quota is a 429 that no wait cures.
    ["error-quota", "provider", false, 429, 1],
  ])("%s: code %s, retryable %s, http %s, exit %s", (name, code, retryable, http, exit) => {
    const run = fixture(name);
    const errors = ofType(run.events, "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code, retryable, native: "error" });
    expect(errors[0]!.http_status).toBe(http);
    expect(errors[0]!.message).not.toBe("");
    const end = endedAs(run, "failed", exit);
    expect(end.error).toEqual({ code, message: errors[0]!.message, retryable });
    expect(end.counts.errors).toBe(1);
    // The error is the line just before run.finished: nothing was left open.
    expect(run.events.at(-2)!.type).toBe("error");
  });

  it("a failed run has no result: what it said before failing is in its messages", () => {
    expect(finished(fixture("error-overloaded").events).result).toBeNull();
    const events = fixture("error-provider-400").events;
    expect(finished(events).result).toBeNull();
    expect(events).toContainEqual(
      expect.objectContaining({ type: "message.completed", text: "Drafting the report now." }),
    );
  });
});

describe("evosci: no terminal event", () => {
  it.each([
    ["no-terminal-exit-unknown", null, "backend_crashed", 76, "run_ended"],
    ["no-terminal-exit-0", { code: 0, signal: null }, "backend_crashed", 76, "backend_exited"],
    ["killed-sigterm", { code: null, signal: "SIGTERM" }, "backend_crashed", 76, "backend_exited"],
  ])("%s: failed %s, exit %s, open call closed as %s", (name, backendExit, code, exit, reason) => {
    const run = fixture(name);
    const { events } = run;
    const end = endedAs(run, "failed", exit);
    expect(end.backend_exit).toEqual(backendExit);
    expect(end.error?.code).toBe(code);
    expect(end.result).toBeNull();
    expect(ofType(events, "tool.completed")).toMatchObject([{ status: "cancelled", reason, synthetic: true }]);
    // Open text is still assembled.
    expect(ofType(events, "message.completed")).toHaveLength(1);
  });

  it("exit 1 before any event: a start-up failure, explained from stderr", () => {
    const run = fixture("startup-failure");
    expect(run.events.map((e) => e.type)).toEqual(["run.started", "run.finished"]);
    const end = endedAs(run, "failed", 78);
    expect(end.error?.code).toBe("backend_startup");
    expect(end.error?.message).toContain("no session matches --resume 'zz99'");
    expect(end.stderr_tail).toEqual(["Error: no session matches --resume 'zz99'"]);
  });
});

describe("evosci: robustness", () => {
  it("passes unknown types through and reports non-JSON lines, without stopping the run", () => {
    const run = fixture("unknown-and-unparsed");
    const { events } = run;
    expect(ofType(events, "backend.event").map((e) => e.native_type)).toEqual([
      "goal_state",
      "goal_state",
      "panel_vote",
      "memory_digest",
    ]);
    expect(ofType(events, "backend.unparsed").map((e) => e.reason)).toEqual([
      "invalid_json",
      "not_an_object",
      "missing_type",
    ]);
    expect(endedAs(run, "succeeded", 0).counts).toMatchObject({ unknown_events: 4, unparsed_lines: 3 });
    // The message goes on across the lines in between.
    expect(new Set(ofType(events, "message.delta").map((e) => e.message_id))).toEqual(new Set(["msg_1"]));
  });

  it("still translates events after the terminal one; the first terminal event decides", () => {
    const { events } = fixture("after-terminal");
    const end = finished(events);
    expect([end.status, end.result?.text]).toEqual(["succeeded", "All checks pass."]);
    expect(ofType(events, "message.completed").map((e) => e.text)).toEqual(["All checks pass.", "late chunk"]);
    expect(end.usage).toMatchObject({ input_tokens: 16900, output_tokens: 22 });
    expect(end.counts.unknown_events).toBe(1);
  });

  // Issue 18: a second done was neither translated nor passed through nor counted.
  it("a second done is passed through whole and counted, the first one decides", () => {
    const { events } = stream([
      { type: "text", content: "first" },
      { type: "done", content: "first", response: "first" },
      { type: "done", content: "second", response: "second" },
    ]);
    const end = finished(events);
    expect([end.status, end.result?.text, end.counts.unknown_events]).toEqual(["succeeded", "first", 1]);
    expect(
      ofType(events, "backend.event").map((e) => [e.native_type, (e.raw as { content?: string }).content]),
    ).toEqual([["done", "second"]]);
  });

  it("an error after done is reported but does not undo the success", () => {
    const end = endedAs(
      stream([
        { type: "done", content: "ok", response: "ok" },
        { type: "error", message: "Error code: 500 - late" },
      ]),
      "succeeded",
      0,
    );
    expect(end.counts.errors).toBe(1);
  });

  it("decodes Python json.dumps output: \\u escapes, surrogate pairs, spaces after separators", () => {
    const { events } = fixture("python-escapes");
    expect(ofType(events, "message.completed").map((e) => e.text)).toEqual([
      'Café résumé — 模型 🚀 launched; quote " backslash \\ tab\tline\u2028sep',
      "Done ✅ (😀)",
    ]);
    expect(ofType(events, "tool.started")[0]!.args).toEqual({ file_path: "/naïve.txt", content: "🧪 µs" });
    // A lone surrogate becomes U+FFFD (I-JSON): jq 1.6 and strict readers refuse its \u escape.
    expect(ofType(events, "tool.completed")[0]!.output).toBe("wrote 5 bytes: \ufffd");
    expect(JSON.stringify(ofType(events, "tool.completed")[0])).not.toContain("\\udcff");
  });

  it("reads CRLF line endings", () => {
    expect(finished(fixture("crlf-line-endings").events).result?.text).toBe("Hello from Windows.");
  });
});

describe("evosci: options", () => {
  it("raw: each translated event carries the native object it came from", () => {
    const { events } = fixture("raw");
    const natives = nativeLines("raw");
    const translated = events.filter((e) => e.native !== undefined && e.type !== "backend.event");
    expect(translated.map((e) => e.raw)).toEqual(natives.filter((n) => n.type !== "goal_state" && n.type !== "done"));
    // backend.event holds the object as its payload anyway.
    expect(ofType(events, "backend.event")[0]!.raw).toEqual(natives.find((n) => n.type === "goal_state"));
  });

  it("raw is absent without the option", () => {
    expect(
      fixture("raw", { includeRaw: false }).events.some((e) => e.type !== "backend.event" && e.raw !== undefined),
    ).toBe(false);
  });

  it("no deltas: only whole messages and reasoning, counts unchanged", () => {
    const without = fixture("no-deltas").events;
    const withDeltas = fixture("no-deltas", { deltas: true }).events;
    expect(without.some((e) => e.type === "message.delta" || e.type === "reasoning.delta")).toBe(false);
    expect(withDeltas.filter((e) => e.type === "message.delta")).toHaveLength(6);
    const completed = (events: CanonicalEvent[]) =>
      events.filter((e) => e.type.endsWith(".completed")).map((e) => ({ ...e, seq: 0, ts: "", elapsed_ms: 0 }));
    expect(completed(without)).toEqual(completed(withDeltas));
    expect(finished(without).counts).toEqual(finished(withDeltas).counts);
  });
});
