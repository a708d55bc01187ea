import { describe, expect, inject, it } from "vitest";
import { eventsOfType } from "./support/live-run.js";
import { checkedRun, describeLiveTarget, expectSucceeded } from "./support/live-suite.js";
import { processesRunning } from "./support/processes.js";
import { ANSWERS, FAILING_COMMAND, SLOW_SLEEP } from "./support/scenarios.mjs";

// OpenCode (`opencode run --format json`) writes every text whole, once it has ended (no deltas), a
// tool call only once it has finished, reasoning only with --thinking, and nothing of its retries
// (a 5xx is retried five times with backoff, silently). Its steps leave the title request and
// sub-agents out of their tokens: its usage is never complete. The SIGINT scenario interrupts once
// the fake server has the model request.
describeLiveTarget("opencode-1.18.34", {
  showsReasoning: false,
  showsRetryOfOne500: false,
  usageComplete: false,
  streamsDeltas: false,
  interruptWhen: (_stdout, server) => server.requestsFor("slow").length > 0,
});

const opencode = inject("liveTargets").find((t) => t.id === "opencode-1.18.34");
describe.skipIf(!opencode)("opencode-1.18.34 live, OpenCode's own cases", () => {
  it("fails as a retryable network error when the model API is down (OpenCode itself exits 1)", async () => {
    const run = await checkedRun(opencode!, "text", { apiDown: true });
    expect(run.finished, run.stderr).toMatchObject({
      status: "failed",
      exit_code: 75,
      result: null,
      error: { code: "network", retryable: true },
      backend_exit: { code: 1 },
    });
    expect(run.exitCode).toBe(75);
    expect(run.server.requestsFor("text")).toEqual([]);
    expect(eventsOfType(run, "error")).toEqual([
      expect.objectContaining({ code: "network", message: expect.stringContaining("Cannot connect to API") }),
    ]);
  });

  it("fails as overloaded, exit 75, where OpenCode exits 1 after its five silent retries of a 503", async () => {
    const run = await checkedRun(opencode!, "error503");
    expect(run.finished).toMatchObject({ exit_code: 75, backend_exit: { code: 1 } });
    // The first request and its five retries.
    expect(run.server.requestsFor("error503")).toHaveLength(6);
    expect(eventsOfType(run, "error")).toEqual([expect.objectContaining({ code: "overloaded", http_status: 503 })]);
  });

  it("a command that exits non-zero (completed for OpenCode, exit 2 in its metadata) is a failed tool call; the run still succeeds", async () => {
    const run = await checkedRun(opencode!, "toolfail");
    expectSucceeded(run, ANSWERS.toolfailFinal);
    expect(eventsOfType(run, "tool.started")).toEqual([
      expect.objectContaining({ name: "bash", args: { command: FAILING_COMMAND } }),
    ]);
    expect(eventsOfType(run, "tool.completed")).toEqual([
      expect.objectContaining({ status: "failed", output: expect.stringContaining("no-such-file") }),
    ]);
    expect(run.finished.counts).toMatchObject({ tool_calls: 1, tool_failures: 1 });
    expect(run.server.requestsFor("toolfail")).toHaveLength(2);
  });

  it("ends as cancelled on SIGINT while a model command runs; OpenCode itself is gone", async () => {
    const run = await checkedRun(opencode!, "slowtool", { interrupt: () => processesRunning(SLOW_SLEEP).length > 0 });
    expect(run.finished, run.stderr).toMatchObject({
      status: "cancelled",
      exit_code: 130,
      result: null,
      error: { code: "cancelled", retryable: false },
    });
    expect(run.exitCode).toBe(130);
    // OpenCode writes a call only once it has finished: this one never is.
    expect(eventsOfType(run, "tool.started")).toEqual([]);
    expect(run.server.requestsFor("slowtool")).toHaveLength(1);
    await expect.poll(() => processesRunning(opencode!.executable), { timeout: 10_000, interval: 200 }).toEqual([]);
  });

  // OpenCode runs each command of its shell tool in a process group of its own and dies on the signal
  // without stopping it: agentstream finds the command among OpenCode's descendants when it stops
  // OpenCode, and stops its group too.
  it("leaves no model command running after SIGINT (the command has its own process group)", async () => {
    await checkedRun(opencode!, "slowtool", { interrupt: () => processesRunning(SLOW_SLEEP).length > 0 });
    try {
      await expect.poll(() => processesRunning(SLOW_SLEEP), { timeout: 5_000, interval: 200 }).toEqual([]);
    } finally {
      for (const pid of processesRunning(SLOW_SLEEP)) process.kill(pid, "SIGKILL");
    }
  });
});
