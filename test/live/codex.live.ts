import { describe, expect, inject, it } from "vitest";
import { eventsOfType, type LiveRun } from "./support/live-run.js";
import { checkedRun, describeLiveTarget, expectSucceeded } from "./support/live-suite.js";
import { processesRunning } from "./support/processes.js";
import { ANSWERS, FAILING_COMMAND, SLOW_COMMAND, SLOW_SLEEP, USAGE_PER_CALL } from "./support/scenarios.mjs";
import { CACHED_INPUT_PER_CALL } from "./support/wire/openai-responses.mjs";

// Codex CLI (`codex exec --json`) writes every message whole (no deltas), so the SIGINT scenario
// interrupts once the fake server has the model request; its tool items have their own ids
// (item_<n>) and show the command Codex ran; a 500 once is retried silently (request level), a 429
// at the turn level, and only with a Retry-After.
describeLiveTarget("codex-0.171.0", {
  showsReasoning: true,
  retryNative: "error",
  showsRetryOfOne500: false,
  usageComplete: true,
  toolCallId: () => expect.stringMatching(/^item_\d+$/),
  streamsDeltas: false,
  interruptWhen: (_stdout, server) => server.requestsFor("slow").length > 0,
  shownToolCall: () => ({ name: "command_execution", args: { command: expect.stringMatching(/ ls'?$/) } }),
});

const codex = inject("liveTargets").find((t) => t.id === "codex-0.171.0");
describe.skipIf(!codex)("codex-0.171.0 live, Codex's own cases", () => {
  it("a command that fails is a failed tool call; the run still succeeds", async () => {
    const run = await checkedRun(codex!, "toolfail");
    expectSucceeded(run, ANSWERS.toolfailFinal);
    const started = eventsOfType(run, "tool.started");
    const completed = eventsOfType(run, "tool.completed");
    expect(started).toEqual([
      expect.objectContaining({
        name: "command_execution",
        args: { command: expect.stringContaining(FAILING_COMMAND) },
      }),
    ]);
    expect(completed).toEqual([
      expect.objectContaining({
        tool_call_id: started[0]!.tool_call_id,
        status: "failed",
        output: expect.stringContaining("no-such-file"),
      }),
    ]);
    expect(run.finished.counts).toMatchObject({ tool_calls: 1, tool_failures: 1 });
    expect(run.server.requestsFor("toolfail")).toHaveLength(2);
    expectCodexUsage(run);
  });

  it("recovers when HTTP 429 comes once: one retry shown, then the answer", async () => {
    const run = await checkedRun(codex!, "retry429");
    expectSucceeded(run, ANSWERS.retry429);
    expect(run.server.requestsFor("retry429")).toHaveLength(2);
    expect(eventsOfType(run, "retry.started")).toEqual([
      expect.objectContaining({ scope: "request", attempt: 1, error: expect.stringContaining("429") }),
    ]);
    expect(eventsOfType(run, "retry.completed")).toEqual([expect.objectContaining({ success: true, attempt: 1 })]);
    expect(run.finished.counts.retries).toBe(1);
    expectCodexUsage(run);
  });

  it("fails as rate limited (retryable) on a 429 without Retry-After, which Codex does not retry", async () => {
    const run = await checkedRun(codex!, "bare429");
    expect(run.finished, run.stderr).toMatchObject({
      status: "failed",
      exit_code: 75,
      result: null,
      error: { code: "rate_limit", retryable: true },
    });
    expect(run.exitCode).toBe(75);
    expect(run.server.requestsFor("bare429")).toHaveLength(1);
    expect(eventsOfType(run, "retry.started")).toEqual([]);
  });

  it("on HTTP 503 every time, shows its two turn-level retries, each after its silent request-level ones", async () => {
    const run = await checkedRun(codex!, "error503");
    expect(run.finished).toMatchObject({
      status: "failed",
      exit_code: 75,
      result: null,
      error: { code: "overloaded", retryable: true },
    });
    // (1 + request_max_retries) x (1 + stream_max_retries), both 2 in the fake provider's config.toml.
    expect(run.server.requestsFor("error503")).toHaveLength(9);
    expect(eventsOfType(run, "retry.started").map((r) => [r.attempt, r.max_attempts])).toEqual([
      [1, 2],
      [2, 2],
    ]);
    expect(eventsOfType(run, "retry.completed")).toEqual([expect.objectContaining({ success: false, attempt: 2 })]);
    expect(eventsOfType(run, "error")).toEqual([expect.objectContaining({ code: "overloaded", http_status: 503 })]);
  });

  it("ends as cancelled on SIGINT while a model command runs, the command closed as cancelled", async () => {
    const run = await checkedRun(codex!, "slowtool", {
      interrupt: (stdout) => stdout.includes('"type":"tool.started"'),
    });
    expect(run.finished, run.stderr).toMatchObject({
      status: "cancelled",
      exit_code: 130,
      result: null,
      error: { code: "cancelled", retryable: false },
    });
    expect(run.exitCode).toBe(130);
    const started = eventsOfType(run, "tool.started");
    expect(started).toEqual([
      expect.objectContaining({ name: "command_execution", args: { command: expect.stringContaining(SLOW_COMMAND) } }),
    ]);
    // Codex never completes the item: agentstream closes it.
    expect(eventsOfType(run, "tool.completed")).toEqual([
      expect.objectContaining({ tool_call_id: started[0]!.tool_call_id, status: "cancelled" }),
    ]);
    // The answer after the command never came.
    expect(run.server.requestsFor("slowtool")).toHaveLength(1);
    // Stopping Codex's process group took the model's command with it: no shell, no sleep left.
    await expect.poll(() => processesRunning(SLOW_SLEEP), { timeout: 10_000, interval: 200 }).toEqual([]);
  });
});

/** The totals are the fake server's, call by call, the cached part included in input_tokens, not added to it. */
function expectCodexUsage(run: LiveRun): void {
  const calls = run.server.usage.output_tokens / USAGE_PER_CALL.output_tokens;
  expect(calls).toBeGreaterThan(0);
  expect(run.finished.usage).toMatchObject({
    input_tokens: run.server.usage.input_tokens,
    output_tokens: run.server.usage.output_tokens,
    cache_read_input_tokens: calls * CACHED_INPUT_PER_CALL,
  });
  expect(run.finished.usage.complete).toBeUndefined();
}
