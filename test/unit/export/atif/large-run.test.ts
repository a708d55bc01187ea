// Issue 48 item 5: a run of 100,000 tool calls exports to one document whose every call has its result on
// its own step, in one pass (the document is the only thing held).
import { describe, expect, it } from "vitest";
import type { CanonicalEvent } from "../../../../src/canonical/events.js";
import { atifText } from "../../../../src/export/atif/document.js";
import { AtifRuns, type ExportedRun } from "../../../../src/export/atif/runs.js";

const CALLS = 100_000;

/** A run of `calls` turns, each a tool call and its result (a live run: ts is the step's time). */
function* bigRun(calls: number): Generator<CanonicalEvent> {
  let seq = 0;
  const envelope = () => ({
    v: 1 as const,
    seq: ++seq,
    ts: "2026-01-01T00:00:00.000Z",
    elapsed_ms: seq,
    run_id: "big",
    backend: "pi",
  });
  yield { ...envelope(), type: "run.started", agentstream_version: "9.9.9", mode: "run" } as CanonicalEvent;
  yield { ...envelope(), type: "prompt.submitted", text: "call the tool many times" } as CanonicalEvent;
  for (let i = 1; i <= calls; i++) {
    const id = `call_${i}`;
    yield { ...envelope(), type: "turn.started", turn: i } as CanonicalEvent;
    yield { ...envelope(), type: "tool.started", tool_call_id: id, name: "bash", args: { n: i } } as CanonicalEvent;
    yield {
      ...envelope(),
      type: "tool.completed",
      tool_call_id: id,
      name: "bash",
      status: "succeeded",
      output: `out ${i}`,
    } as CanonicalEvent;
    yield { ...envelope(), type: "turn.completed", turn: i } as CanonicalEvent;
  }
  const counts = { turns: calls, messages: 0, tool_calls: calls, tool_failures: 0, errors: 0, retries: 0 };
  yield {
    ...envelope(),
    type: "run.finished",
    status: "succeeded",
    exit_code: 0,
    backend_exit: { code: 0, signal: null },
    duration_ms: seq,
    result: null,
    counts: { ...counts, unknown_events: 0, unparsed_lines: 0 },
  } as CanonicalEvent;
}

describe("export atif: a run of 100,000 tool calls", () => {
  it("one document: a user step, then one step per call holding the call and its result", () => {
    const runs: ExportedRun[] = [];
    const atif = new AtifRuns((run) => runs.push(run));
    for (const event of bigRun(CALLS)) atif.event(event);
    atif.end();
    expect(runs).toHaveLength(1);
    const { document, finished } = runs[0]!;
    expect(finished).toBe(true);
    expect(document.steps).toHaveLength(CALLS + 1);
    expect(document.steps[0]).toMatchObject({ step_id: 1, source: "user", message: "call the tool many times" });
    for (let i = 1; i <= CALLS; i++) {
      const step = document.steps[i]!;
      const id = `call_${i}`;
      if (
        step.step_id !== i + 1 ||
        step.tool_calls?.[0]?.tool_call_id !== id ||
        step.observation?.results[0]?.source_call_id !== id ||
        step.observation.results[0].content !== `out ${i}`
      )
        expect.fail(`step ${i + 1}: ${JSON.stringify(step)}`);
    }
    expect(document.final_metrics?.total_steps).toBe(CALLS + 1);
    // It serializes, and reads back whole.
    const text = atifText(document);
    expect((JSON.parse(text) as { steps: unknown[] }).steps).toHaveLength(CALLS + 1);
  }, 120_000);
});
