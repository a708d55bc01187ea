// The limit watcher on canonical events, without a process: what crosses a limit, and what it says.
import { describe, expect, it } from "vitest";
import type { CanonicalEvent } from "../../../src/canonical/events.js";
import { resolveOutcome } from "../../../src/core/outcome.js";
import { LimitWatch, type RunLimits } from "../../../src/app/limit-watch.js";
import { cliNaming } from "../../../src/app/options.js";
import { wordedWith } from "../../../src/core/errors.js";

const turn = (n: number, agent?: string) =>
  ({
    type: "turn.started",
    turn: n,
    ...(agent ? { agent: { name: agent, instance_id: agent } } : {}),
  }) as unknown as CanonicalEvent;
const usage = (input: number, output: number, extra: Record<string, unknown> = {}) =>
  ({ type: "usage", scope: "call", input_tokens: input, output_tokens: output, ...extra }) as unknown as CanonicalEvent;

function watch(limits: RunLimits, events: CanonicalEvent[], usageComplete = true) {
  const reached: string[] = [];
  const notes: string[] = [];
  const w = new LimitWatch(
    limits,
    (m) => reached.push(m),
    (n) => notes.push(wordedWith(n, cliNaming)),
    usageComplete,
  );
  for (const e of events) w.see(e);
  return { reached, notes };
}

describe("LimitWatch", () => {
  it("max-turns N lets N turns run and stops when the next one begins; sub-agents' turns are inside their call", () => {
    expect(watch({ maxTurns: 2 }, [turn(1), turn(2)]).reached).toEqual([]);
    expect(watch({ maxTurns: 2 }, [turn(1), turn(1, "sub"), turn(2)]).reached).toEqual([]);
    expect(watch({ maxTurns: 2 }, [turn(1), turn(2), turn(3), turn(4)]).reached).toEqual([
      "max-turns 2 reached: turn 3 began",
    ]);
  });

  it("max-tokens sums input + output of every usage; said once", () => {
    const { reached } = watch({ maxTokens: 100 }, [turn(1), usage(40, 10), turn(2), usage(45, 5), usage(1, 1)]);
    expect(reached).toEqual(["max-tokens 100 reached: 100 tokens after 2 turns"]);
  });

  it("max-cost-usd sums the costs; the figure is shown to the cent", () => {
    const events = [turn(1), usage(1, 1, { cost_usd: 0.2 }), turn(2), usage(1, 1, { cost_usd: 0.33 })];
    expect(watch({ maxCostUsd: 0.5 }, events).reached).toEqual(["max-cost-usd 0.5 reached: 0.53 USD after 2 turns"]);
    expect(watch({ maxCostUsd: 0.6 }, events).reached).toEqual([]);
  });

  it("a usage without a cost: fail closed under a cost limit, else one note a run", () => {
    expect(watch({ maxCostUsd: 1 }, [usage(10, 1, { model: "fake-model" })]).reached).toEqual([
      "max-cost-usd 1: cannot price model fake-model",
    ]);
    const { reached, notes } = watch({}, [
      usage(10, 1, { model: "m" }),
      usage(10, 1, { model: "m" }),
      usage(10, 1, { model: "other" }),
      usage(0, 0),
      usage(5, 1),
    ]);
    expect(reached).toEqual([]);
    expect(notes).toEqual([
      "no cost for model m: the price table does not know it (said once a run, for the first model it lacks)",
    ]);
  });

  it("a model name is shown cut to 120 characters, in the limit's message and in the note", () => {
    const long = "x".repeat(100_000);
    const [reached] = watch({ maxCostUsd: 1 }, [usage(10, 1, { model: long })]).reached;
    expect(reached).toBe(`max-cost-usd 1: cannot price model ${"x".repeat(119)}…`);
    const [note] = watch({}, [usage(10, 1, { model: long })]).notes;
    expect(note).toContain(`no cost for model ${"x".repeat(119)}…: `);
  });

  it("a backend whose usage is incomplete: a token or cost limit says it undercounts", () => {
    expect(watch({ maxCostUsd: 1 }, [], false).notes).toEqual([
      "this backend does not report all of its model calls' usage: --max-tokens and --max-cost-usd count only what it reports",
    ]);
    expect(watch({ maxTurns: 1 }, [], false).notes).toEqual([]);
  });
});

describe("the budget outcome", () => {
  const end = { backendExit: { code: 0, signal: null }, stderrTail: [] };
  const facts = { end, sawEvents: true, sawGarbage: false, started: true, usageComplete: true };
  it("a limit crossed wins over the backend's own verdict after it: failed, budget, exit 1", () => {
    const outcome = resolveOutcome({
      ...facts,
      terminal: { status: "succeeded", resultText: "done" },
      interruption: { kind: "budget", message: "max-turns 1 reached: turn 2 began" },
    });
    expect(outcome).toMatchObject({
      status: "failed",
      exitCode: 1,
      error: { code: "budget", message: "max-turns 1 reached: turn 2 began", retryable: false },
      // Only a succeeded run has a result (docs/canonical-stream.md "Outcome rules"): "done" stays in its messages.
      resultText: null,
    });
  });
});
