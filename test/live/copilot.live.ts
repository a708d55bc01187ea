import { existsSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { eventsOfType, type LiveRun } from "./support/live-run.js";
import { processesRunning } from "./support/processes.js";
import { checkedRun, describeLiveTarget, expectFailed, expectSucceeded } from "./support/live-suite.js";
import { ANSWERS, FAILING_COMMAND, SLOW_COMMAND, SLOW_SLEEP, USAGE_PER_CALL } from "./support/scenarios.mjs";

// GitHub Copilot CLI (`copilot -p --output-format json`) against a custom OpenAI-compatible provider
// (no GitHub login). It streams deltas, shows every retry (assistant.turn_retry), and writes token
// counts only to its --usage-output-file, which agentstream reads at the end.
describeLiveTarget("copilot-1.0.102", {
  showsReasoning: true,
  retryNative: "assistant.turn_retry",
  showsRetryOfOne500: true,
  usageComplete: true,
  costLimitStops: false,
});

const copilot = inject("liveTargets").find((t) => t.id === "copilot-1.0.102");
describe.skipIf(!copilot)("copilot-1.0.102 live, Copilot's own cases", () => {
  it("takes the token counts from its usage file: one run-scope usage event, then the file is gone", async () => {
    const run = await checkedRun(copilot!, "tool");
    expectSucceeded(run, ANSWERS.toolFinal);
    const usage = eventsOfType(run, "usage");
    expect(usage).toEqual([
      expect.objectContaining({
        scope: "run",
        native: "usage-output-file",
        input_tokens: 2 * USAGE_PER_CALL.input_tokens,
        output_tokens: 2 * USAGE_PER_CALL.output_tokens,
        model: "fake-model",
      }),
    ]);
    expect(run.finished.usage).toMatchObject({
      input_tokens: run.server.usage.input_tokens,
      output_tokens: run.server.usage.output_tokens,
    });
    expect(existsSync(usageFileOf(run))).toBe(false);
  });

  it("a command that exits non-zero is a failed tool call; the run still succeeds", async () => {
    const run = await checkedRun(copilot!, "toolfail");
    expectSucceeded(run, ANSWERS.toolfailFinal);
    const started = eventsOfType(run, "tool.started");
    expect(started).toEqual([expect.objectContaining({ name: "bash", args: { command: FAILING_COMMAND } })]);
    expect(eventsOfType(run, "tool.completed")).toEqual([
      expect.objectContaining({
        tool_call_id: started[0]!.tool_call_id,
        status: "failed",
        output: expect.stringContaining("no-such-file"),
      }),
    ]);
    expect(run.finished.counts).toMatchObject({ tool_calls: 1, tool_failures: 1 });
  });

  it("shows each retry of a persistent 503 and fails as overloaded with the status", async () => {
    const run = await checkedRun(copilot!, "error503");
    expectFailed(run, { code: "overloaded", retryable: true, exitCode: 75 });
    // Copilot 1.0.102 retries 5 times.
    expect(run.server.requestsFor("error503")).toHaveLength(6);
    expect(eventsOfType(run, "retry.started").map((r) => r.attempt)).toEqual([1, 2, 3, 4, 5]);
    expect(eventsOfType(run, "retry.completed")).toEqual([expect.objectContaining({ success: false, attempt: 5 })]);
    expect(eventsOfType(run, "error")).toEqual([expect.objectContaining({ code: "overloaded", http_status: 503 })]);
    expect(run.finished.counts.retries).toBe(5);
  });

  it("fails as a network error (retryable) when the API is down, after its retries", async () => {
    const run = await checkedRun(copilot!, "text", { apiDown: true });
    expectFailed(run, { code: "network", retryable: true, exitCode: 75 });
    expect(eventsOfType(run, "error")).toEqual([
      expect.objectContaining({ code: "network", message: expect.stringContaining("Could not connect") }),
    ]);
    expect(run.server.requestsFor("text")).toEqual([]);
  });

  it("ends as cancelled (130, not Copilot's 0) on SIGINT while a model command runs; no process is left", async () => {
    const run = await checkedRun(copilot!, "slowtool", {
      interrupt: (stdout) => stdout.includes('"type":"tool.started"'),
    });
    expect(run.finished, run.stderr).toMatchObject({
      status: "cancelled",
      exit_code: 130,
      result: null,
      error: { code: "cancelled", retryable: false },
    });
    expect(run.exitCode).toBe(130);
    expect(run.finished.backend_exit).toMatchObject({ code: 0 });
    const started = eventsOfType(run, "tool.started");
    expect(started).toEqual([expect.objectContaining({ name: "bash", args: { command: SLOW_COMMAND } })]);
    expect(eventsOfType(run, "tool.completed")).toEqual([
      expect.objectContaining({ tool_call_id: started[0]!.tool_call_id, status: "cancelled" }),
    ]);
    expect(run.server.requestsFor("slowtool")).toHaveLength(1);
    // Neither Copilot (its command line names this run's usage file) nor the model's command is left.
    const usageFile = usageFileOf(run);
    await expect.poll(() => processesRunning(usageFile), { timeout: 10_000, interval: 200 }).toEqual([]);
    await expect.poll(() => processesRunning(SLOW_SLEEP), { timeout: 10_000, interval: 200 }).toEqual([]);
  });
});

/** The usage file agentstream named on Copilot's command line (run.started shows it). */
function usageFileOf(run: LiveRun): string {
  const command: string[] = run.events[0]!.command;
  const at = command.indexOf("--usage-output-file");
  expect(at).toBeGreaterThan(0);
  return command[at + 1]!;
}
