// The mapping from canonical events to one ATIF document, case by case: steps per turn (or per model output
// after tool results where there are no turns), results back on their call's step, metrics only where known,
// final_metrics' exceptions, sub-agents embedded with refs, times, and the outcome in extra.
import { describe, expect, it } from "vitest";
import type { CanonicalEvent } from "../../../../src/canonical/events.js";
import type { AtifTrajectory } from "../../../../src/export/atif/document.js";
import { AtifInputError, AtifRuns, type ExportedRun } from "../../../../src/export/atif/runs.js";

type Partial = Record<string, unknown> & { type: string };

/** Canonical events of one run, envelope filled in: ts is seq seconds after midnight. */
function stream(events: Partial[], run = "r1", mode: "run" | "normalize" = "normalize"): CanonicalEvent[] {
  const all: Partial[] = [{ type: "run.started", agentstream_version: "9.9.9", mode }, ...events];
  return all.map(
    (e, seq) =>
      ({
        v: 1,
        seq,
        ts: `2026-01-01T00:00:${String(seq).padStart(2, "0")}.000Z`,
        elapsed_ms: seq * 1000,
        run_id: run,
        backend: "pi",
        ...e,
      }) as unknown as CanonicalEvent,
  );
}

const finished = (extra: Record<string, unknown> = {}): Partial => ({
  type: "run.finished",
  status: "succeeded",
  exit_code: 0,
  backend_exit: { code: 0, signal: null },
  duration_ms: 5,
  result: { text: "done" },
  counts: {
    turns: 1,
    messages: 1,
    tool_calls: 0,
    tool_failures: 0,
    errors: 0,
    retries: 0,
    unknown_events: 0,
    unparsed_lines: 0,
  },
  ...extra,
});

function exportAll(events: CanonicalEvent[]): ExportedRun[] {
  const runs: ExportedRun[] = [];
  const atif = new AtifRuns((r) => runs.push(r));
  for (const e of events) atif.event(e);
  atif.end();
  return runs;
}
const exportOne = (events: CanonicalEvent[]): AtifTrajectory => exportAll(events)[0]!.document;

const usage = (input: number, extra: Record<string, unknown> = {}): Partial => ({
  type: "usage",
  scope: "call",
  input_tokens: input,
  output_tokens: 1,
  ...extra,
});

describe("export atif: steps", () => {
  it("opens with a user step, then one agent step per turn holding its text, thoughts, calls and results", () => {
    const doc = exportOne(
      stream([
        { type: "turn.started", turn: 1 },
        { type: "reasoning.completed", message_id: "m", text: "think" },
        { type: "message.completed", message_id: "m", text: "I will look", model: "m1" },
        { type: "tool.started", tool_call_id: "c1", name: "bash", args: { command: "ls" } },
        { type: "turn.completed", turn: 1, stop_reason: "tool_use" },
        { type: "turn.started", turn: 2 },
        // The result comes after the next turn began: it goes back onto the call's step.
        { type: "tool.completed", tool_call_id: "c1", name: "bash", status: "succeeded", output: "a.txt" },
        { type: "message.completed", message_id: "n", text: "done" },
        { type: "turn.completed", turn: 2 },
        finished(),
      ]),
    );
    expect(doc.steps).toEqual([
      expect.objectContaining({ step_id: 1, source: "user", message: "" }),
      {
        step_id: 2,
        source: "agent",
        model_name: "m1",
        message: "I will look",
        reasoning_content: "think",
        tool_calls: [{ tool_call_id: "c1", function_name: "bash", arguments: { command: "ls" } }],
        observation: { results: [{ source_call_id: "c1", content: "a.txt", extra: { status: "succeeded" } }] },
        extra: { stop_reason: "tool_use" },
      },
      // The model in effect: the one the trajectory named last.
      { step_id: 3, source: "agent", model_name: "m1", message: "done" },
    ]);
    expect(doc.agent).toEqual({ name: "pi", version: "unknown", model_name: "m1", extra: { backend: "pi" } });
    expect(doc.notes).toMatch(/version is unknown/);
  });

  it('an agent step with no text has message ""; a result whose call is unknown points at no call', () => {
    const doc = exportOne(
      stream([
        { type: "turn.started", turn: 1 },
        { type: "tool.completed", tool_call_id: "x", name: "bash", status: "failed", output: "?" },
        finished(),
      ]),
    );
    expect(doc.steps[1]).toEqual({
      step_id: 2,
      source: "agent",
      message: "",
      observation: { results: [{ content: "?", extra: { status: "failed", tool_call_id: "x", name: "bash" } }] },
    });
  });

  it("a compaction is a system step with context_management; an error is kept in its step's extra.events", () => {
    const doc = exportOne(
      stream([
        { type: "turn.started", turn: 1 },
        { type: "error", code: "overloaded", message: "busy", retryable: true },
        { type: "compaction.completed", reason: "threshold", summary: "so far", tokens_before: 9, tokens_after: 2 },
        finished(),
      ]),
    );
    expect(doc.steps.slice(1)).toEqual([
      {
        step_id: 2,
        source: "agent",
        message: "",
        extra: { events: [{ type: "error", code: "overloaded", message: "busy", retryable: true }] },
      },
      {
        step_id: 3,
        source: "system",
        message: "so far",
        extra: {
          context_management: { type: "compaction", boundary: "replace", tokens_before: 9, tokens_after: 2 },
          reason: "threshold",
        },
      },
    ]);
  });
});

describe("export atif: the prompt", () => {
  const steps = (events: Partial[]) =>
    exportOne(stream([...events, finished()])).steps.map((s) => [s.source, s.message, s.extra]);

  it("the user step holds the prompt, where it comes before the first turn or inside it while the agent said nothing (pi)", () => {
    const said = { type: "message.completed", message_id: "m1", text: "hi" };
    const prompt = { type: "prompt.submitted", text: "say hi" };
    for (const events of [
      [prompt, { type: "turn.started", turn: 1 }, said],
      [{ type: "turn.started", turn: 1 }, prompt, said],
    ])
      expect(steps(events)).toEqual([
        ["user", "say hi", undefined],
        ["agent", "hi", undefined],
      ]);
  });

  it('a prompt after the agent spoke is a user step of its own; none at all: message "" and extra.prompt says so', () => {
    const turn = (n: number) => [
      { type: "turn.started", turn: n },
      { type: "message.completed", message_id: `m${n}`, text: `answer ${n}` },
    ];
    expect(
      steps([
        { type: "prompt.submitted", text: "one" },
        ...turn(1),
        { type: "prompt.submitted", text: "two" },
        ...turn(2),
      ]),
    ).toEqual([
      ["user", "one", undefined],
      ["agent", "answer 1", undefined],
      ["user", "two", undefined],
      ["agent", "answer 2", undefined],
    ]);
    expect(steps(turn(1))[0]).toEqual(["user", "", { prompt: expect.stringMatching(/no prompt\.submitted/) }]);
  });

  it("a prompt the stream cut keeps its whole size in the step's extra", () => {
    const text = "aaa… [prompt shortened here: 70000 bytes in all]";
    expect(steps([{ type: "prompt.submitted", text, bytes: 70000 }])[0]).toEqual([
      "user",
      text,
      { prompt_bytes: 70000 },
    ]);
  });
});

describe("export atif: metrics", () => {
  it("per step from its usage reports, absent where none came or a figure is unknown (never 0)", () => {
    const doc = exportOne(
      stream([
        { type: "turn.started", turn: 1 },
        usage(100, {
          cache_read_input_tokens: 60,
          cache_write_input_tokens: 10,
          cost_usd: 0.5,
          cost_source: "reported",
        }),
        usage(50, { cost_usd: 0.25, cost_source: "estimated", price_data: "genai-prices 0.1.8" }),
        { type: "turn.started", turn: 2 },
        usage(7),
        { type: "turn.started", turn: 3 },
        { type: "message.completed", message_id: "m", text: "no usage here" },
        finished(),
      ]),
    );
    expect(doc.steps[1]).toMatchObject({
      metrics: {
        prompt_tokens: 150,
        completion_tokens: 2,
        cached_tokens: 60,
        cost_usd: 0.5,
        extra: { cache_creation_input_tokens: 10, estimated_cost_usd: 0.25, price_data: "genai-prices 0.1.8" },
      },
      llm_call_count: 2,
    });
    expect(doc.steps[2]).toMatchObject({ metrics: { prompt_tokens: 7, completion_tokens: 1 }, llm_call_count: 1 });
    expect(doc.steps[2]!.metrics).not.toHaveProperty("cached_tokens");
    expect(doc.steps[2]!.metrics).not.toHaveProperty("cost_usd");
    expect(doc.steps[3]).not.toHaveProperty("metrics");
    expect(doc.steps[3]).not.toHaveProperty("llm_call_count");
  });

  it.each([
    [
      "reported cost",
      { input_tokens: 10, output_tokens: 2, cost_usd: 1, cost_source: "reported" },
      { total_prompt_tokens: 10, total_completion_tokens: 2, total_cost_usd: 1, total_steps: 2 },
    ],
    [
      "estimated cost: in extra with its price data",
      { input_tokens: 10, output_tokens: 2, cost_usd: 1, cost_source: "estimated", price_data: "p 1" },
      {
        total_prompt_tokens: 10,
        total_completion_tokens: 2,
        total_steps: 2,
        extra: { estimated_cost_usd: 1, cost_source: "estimated", price_data: "p 1" },
      },
    ],
    [
      "incomplete: no totals, said in extra",
      { input_tokens: 10, output_tokens: 2, complete: false },
      {
        total_steps: 2,
        extra: {
          llm_usage_calls_complete: false,
          usage_so_far: { input_tokens: 10, output_tokens: 2, complete: false },
        },
      },
    ],
  ])("final_metrics: %s", (_what, totals, expected) => {
    const doc = exportOne(stream([{ type: "turn.started", turn: 1 }, usage(10), finished({ usage: totals })]));
    expect(doc.final_metrics).toEqual(expected);
  });

  it("final_metrics has no totals where no usage came (run.finished's zeros stand for nothing)", () => {
    const doc = exportOne(stream([finished({ usage: { input_tokens: 0, output_tokens: 0 } })]));
    expect(doc.final_metrics).toEqual({ total_steps: 1, extra: { usage: "the stream reported no usage" } });
  });

  it("two sessions: notes say the totals and outcome are the last one's", () => {
    const doc = exportOne(stream([usage(1), finished({ sessions: 2, usage: { input_tokens: 1, output_tokens: 1 } })]));
    expect(doc.notes).toMatch(/2 sessions: final_metrics and the outcome are the last session's/);
  });
});

describe("export atif: agent, times, outcome", () => {
  it("the agent as the stream names itself: its version, no note", () => {
    const doc = exportOne(
      stream([
        { type: "session.started", session_id: "s1", agent_info: { name: "codex-acp", version: "0.4.1" } },
        finished(),
      ]),
    );
    expect(doc.agent).toMatchObject({ name: "codex-acp", version: "0.4.1" });
    expect(doc.session_id).toBe("s1");
    expect(doc).not.toHaveProperty("notes");
  });

  it.each([
    ["normalize: native_ts only, never the replay's ts", "normalize", [undefined, "2026-05-05T00:00:00.000Z"]],
    ["run: ts where native_ts is absent", "run", ["2026-01-01T00:00:01.000Z", "2026-05-05T00:00:00.000Z"]],
  ] as const)("%s", (_what, mode, times) => {
    const doc = exportOne(
      stream(
        [
          { type: "turn.started", turn: 1 },
          { type: "turn.started", turn: 2, native_ts: "2026-05-05T00:00:00.000Z" },
          finished(),
        ],
        "r1",
        mode,
      ),
    );
    expect(doc.steps.slice(1).map((s) => s.timestamp)).toEqual(times);
  });

  it("the outcome goes in extra; a cut stream's is unknown", () => {
    const done = exportOne(
      stream([
        finished({ status: "failed", exit_code: 75, error: { code: "overloaded", message: "busy", retryable: true } }),
      ]),
    );
    expect(done.extra!.outcome).toMatchObject({ status: "failed", exit_code: 75, error: { code: "overloaded" } });
    const cut = exportAll(stream([{ type: "turn.started", turn: 1 }]));
    expect(cut[0]!.finished).toBe(false);
    expect(cut[0]!.document.extra!.outcome).toEqual({
      status: "unknown",
      reason: expect.stringMatching(/without run\.finished/),
    });
  });
});

describe("export atif: sub-agents", () => {
  it("embedded in the trajectory of the step that called them, steps from 1, the call's result pointing at them", () => {
    const sub = (id: string) => ({ agent: { name: "helper", instance_id: id } });
    const doc = exportOne(
      stream([
        { type: "turn.started", turn: 1 },
        { type: "tool.started", tool_call_id: "task1", name: "Task", args: {} },
        { type: "subagent.started", name: "helper", instance_id: "s1", tool_call_id: "task1", description: "look" },
        { type: "message.completed", message_id: "a", text: "looking", ...sub("s1") },
        { type: "tool.started", tool_call_id: "t2", name: "Task", args: {}, ...sub("s1") },
        { type: "subagent.started", name: "helper", instance_id: "s2", tool_call_id: "t2", ...sub("s1") },
        { type: "message.completed", message_id: "b", text: "deep", ...sub("s2") },
        { type: "tool.completed", tool_call_id: "t2", name: "Task", status: "succeeded", output: "ok", ...sub("s1") },
        // No turns inside a sub-agent: an output after a tool result is its next step.
        { type: "message.completed", message_id: "c", text: "found", ...sub("s1") },
        { type: "subagent.completed", name: "helper", instance_id: "s1", duration_ms: 3 },
        { type: "tool.completed", tool_call_id: "task1", name: "Task", status: "succeeded", output: "found" },
        finished(),
      ]),
    );
    expect(doc.steps[1]!.observation).toEqual({
      results: [
        {
          source_call_id: "task1",
          content: "found",
          extra: { status: "succeeded" },
          subagent_trajectory_ref: [{ trajectory_id: "s1" }],
        },
      ],
    });
    const [s1] = doc.subagent_trajectories!;
    expect(s1).toMatchObject({
      schema_version: "ATIF-v1.7",
      trajectory_id: "s1",
      agent: { name: "helper", version: "unknown" },
      extra: { duration_ms: 3 },
    });
    expect(s1!.steps.map((s) => [s.step_id, s.source, s.message])).toEqual([
      [1, "user", "look"],
      [2, "agent", "looking"],
      [3, "agent", "found"],
    ]);
    expect(s1!.steps[1]!.observation!.results[0]!.subagent_trajectory_ref).toEqual([{ trajectory_id: "s2" }]);
    expect(s1!.subagent_trajectories!.map((t) => [t.trajectory_id, t.steps.length])).toEqual([["s2", 2]]);
  });
});

describe("export atif: several runs", () => {
  it("interleaved runs give one document each, equal to each run exported alone", () => {
    const a = stream(
      [{ type: "turn.started", turn: 1 }, { type: "message.completed", message_id: "m", text: "A" }, finished()],
      "a",
    );
    const b = stream([{ type: "turn.started", turn: 1 }, usage(3), finished()], "b");
    const mixed = a.flatMap((e, i) => [e, b[i]!]);
    const runs = exportAll(mixed);
    expect(runs.map((r) => r.runId)).toEqual(["a", "b"]);
    expect(runs[0]!.document).toEqual(exportOne(a));
    expect(runs[1]!.document).toEqual(exportOne(b));
  });

  it("an event of a run whose run.started is not in the stream is refused", () => {
    expect(() => exportAll(stream([finished()]).slice(1))).toThrow(AtifInputError);
  });
});

describe("export atif: call ids used again (each result with its own call, no id twice in a step)", () => {
  const call = (id: string, n: number): Partial => ({
    type: "tool.started",
    tool_call_id: id,
    name: "bash",
    args: { n },
  });
  const result = (id: string, output: string): Partial => ({
    type: "tool.completed",
    tool_call_id: id,
    name: "bash",
    status: "succeeded",
    output,
  });
  /** Each step's calls and its results, as [call ids, [source_call_id, content]...]. */
  const pairs = (doc: AtifTrajectory) =>
    doc.steps
      .slice(1)
      .map((s) => [
        (s.tool_calls ?? []).map((c) => `${c.tool_call_id}:${(c.arguments as { n: number }).n}`),
        (s.observation?.results ?? []).map((r) => `${r.source_call_id}=${r.content}`),
      ]);

  it.each([
    [
      "an id a later turn uses again: each turn's call keeps its own result (before: the last result on the first call, the second call with none)",
      [call("c1", 1), result("c1", "first"), { type: "turn.started", turn: 2 }, call("c1", 2), result("c1", "second")],
      [
        [["c1:1"], ["c1=first"]],
        [["c1:2"], ["c1=second"]],
      ],
    ],
    [
      "two calls open under one id (a stream verify refuses): results answer them oldest first",
      [call("x", 1), call("x", 2), result("x", "a"), result("x", "b")],
      [
        [["x:1"], ["x=a"]],
        [["x:2"], ["x=b"]],
      ],
    ],
    [
      "a second result for an answered call replaces its result (one result per call)",
      [call("x", 1), result("x", "a"), result("x", "again")],
      [[["x:1"], ["x=again"]]],
    ],
  ])("%s", (_what, events, expected) => {
    expect(pairs(exportOne(stream([{ type: "turn.started", turn: 1 }, ...events, finished()])))).toEqual(expected);
  });

  it("an id used twice in one turn (EvoScientist): the second call opens the next step, each with its result (before: tool_calls [dup, dup])", () => {
    const doc = exportOne(
      stream([
        { type: "turn.started", turn: 1 },
        { type: "message.completed", message_id: "m", text: "two looks" },
        call("t", 1),
        result("t", "one"),
        call("t", 2),
        result("t", "two"),
        usage(5),
        { type: "turn.completed", turn: 1, stop_reason: "end_turn" },
        finished(),
      ]),
    );
    expect(pairs(doc)).toEqual([
      [["t:1"], ["t=one"]],
      [["t:2"], ["t=two"]],
    ]);
    // The turn's output after the second call is on the step it opened.
    expect(doc.steps[2]).toMatchObject({
      source: "agent",
      metrics: { prompt_tokens: 5 },
      extra: { stop_reason: "end_turn" },
    });
  });
});

describe("export atif: session_id, always", () => {
  const sessionOf = (events: Partial[], started: Record<string, unknown> = {}) =>
    exportOne(stream(events).map((e, i) => (i === 0 ? ({ ...e, ...started } as unknown as CanonicalEvent) : e)));

  it.each([
    [
      "the first event stamped with one",
      [{ type: "turn.started", turn: 1, session_id: "env-s" }, finished()],
      {},
      "env-s",
    ],
    [
      "run.finished's resume (EvoScientist)",
      [finished({ resume: { session_id: "2c9d11aa", hint: "EvoSci --resume 2c9d11aa" } })],
      { resumed_from: "older" },
      "2c9d11aa",
    ],
    ["the session it continues", [{ type: "turn.started", turn: 1 }], { resumed_from: "older" }, "older"],
  ] as const)("from %s", (_what, events, started, expected) => {
    const doc = sessionOf([...events], started);
    expect(doc.session_id).toBe(expected);
    expect(doc.notes ?? "").not.toMatch(/session_id/);
  });

  it("none known (a run failing before session.started, a cut stream): the run's id, notes saying so, sub-trajectories too", () => {
    const doc = sessionOf([
      { type: "subagent.started", name: "helper", instance_id: "s1" },
      { type: "message.completed", message_id: "a", text: "hi", agent: { name: "helper", instance_id: "s1" } },
    ]);
    expect(doc.session_id).toBe("r1");
    expect(doc.notes).toMatch(/session_id is the run's id: the stream names no session/);
    expect(doc.subagent_trajectories![0]!.session_id).toBe("r1");
  });
});

describe("export atif: each agent step names its model where the stream does", () => {
  it("a step whose own events name none is of the model the trajectory named last (model.changed, an earlier step's)", () => {
    const doc = exportOne(
      stream([
        { type: "model.changed", model: "m0", reason: "set" },
        { type: "turn.started", turn: 1 },
        usage(1),
        { type: "turn.started", turn: 2 },
        { type: "message.completed", message_id: "a", text: "x", model: "m1" },
        usage(2),
        { type: "turn.started", turn: 3 },
        usage(3),
        { type: "turn.started", turn: 4 },
        { type: "model.changed", model: "m2", reason: "cycle" },
        usage(4),
        finished(),
      ]),
    );
    expect(doc.steps.map((s) => [s.source, s.model_name, s.metrics?.prompt_tokens])).toEqual([
      ["user", undefined, undefined],
      ["agent", "m0", 1],
      ["agent", "m1", 2],
      ["agent", "m1", 3],
      ["agent", "m2", 4],
    ]);
  });

  it("none where the stream names no model at all", () => {
    const doc = exportOne(stream([{ type: "turn.started", turn: 1 }, usage(1), finished()]));
    expect(doc.steps[1]).not.toHaveProperty("model_name");
  });
});
