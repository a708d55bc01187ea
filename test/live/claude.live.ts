import { describe, expect, it } from "vitest";
import { eventsOfType } from "./support/live-run.js";
import {
  checkedRun,
  describeLiveTarget,
  expectFailed,
  expectSucceeded,
  expectUsageMatchesServer,
  type TargetFacts,
  targetsFor,
} from "./support/live-suite.js";
import { ANSWERS, DENIED_COMMAND, SUBAGENT_PROMPT } from "./support/scenarios.mjs";

// Claude Code names its shell tool Bash and keeps the model's call id behind "toolu_" (the fake API's
// tool_use id); it announces each retry as system/api_retry, and re-sends an HTTP 400 five more times
// with other request shapes (no api_retry for those).
const FACTS: TargetFacts = {
  showsReasoning: true,
  retryNative: "system",
  showsRetryOfOne500: true,
  usageComplete: true,
  toolCallId: (call) => `toolu_${call.id}`,
  toolName: () => "Bash",
  requestsOn400: 6,
};
const ID = "claude-2.1.336";
describeLiveTarget(ID, FACTS);

// The cases only Claude Code's suite has: its own retry statuses, its limits and permissions, sub-agents.
for (const claude of targetsFor(ID)) {
  describe(`${claude.id} live, Claude Code's own cases`, () => {
    it("recovers when HTTP 429 comes once, and shows the retry", async () => {
      const run = await checkedRun(claude!, "retry429");
      expectSucceeded(run, ANSWERS.retry429);
      expect(run.server.requestsFor("retry429")).toHaveLength(2);
      expect(eventsOfType(run, "retry.started")).toEqual([
        expect.objectContaining({ scope: "request", attempt: 1, error: "HTTP 429: rate_limit" }),
      ]);
      expectUsageMatchesServer(run, FACTS);
    });

    it("recovers when HTTP 529 (overloaded) comes once", async () => {
      const run = await checkedRun(claude!, "retry529");
      expectSucceeded(run, ANSWERS.retry529);
      expect(run.server.requestsFor("retry529")).toHaveLength(2);
      expect(eventsOfType(run, "retry.started")).toEqual([
        expect.objectContaining({ attempt: 1, error: expect.stringMatching(/^HTTP 529: /) }),
      ]);
      expect(run.finished.counts.retries).toBe(1);
      expectUsageMatchesServer(run, FACTS);
    });

    it("fails as overloaded (retryable, exit 75) when HTTP 529 comes every time", async () => {
      const run = await checkedRun(claude!, "error529");
      expectFailed(run, { code: "overloaded", retryable: true, exitCode: 75 });
      // CLAUDE_CODE_MAX_RETRIES=2: the first attempt and two retries, each retry shown.
      expect(run.server.requestsFor("error529")).toHaveLength(3);
      expect(eventsOfType(run, "retry.started").map((e) => e.attempt)).toEqual([1, 2]);
      expect(eventsOfType(run, "error")).toEqual([
        expect.objectContaining({ code: "overloaded", http_status: 529, retryable: true }),
      ]);
      expect(run.finished.result).toBeNull();
    });

    it("fails with error.code budget (exit 1) when its own --max-turns is reached", async () => {
      const run = await checkedRun(claude!, "maxturns");
      expectFailed(run, { code: "budget", retryable: false, exitCode: 1 });
      expect(run.finished.error.message).toMatch(/maximum number of turns \(1\)/);
      // The tool of the last turn still runs; the model call after it is never made.
      expect(run.server.requestsFor("maxturns")).toHaveLength(1);
      expect(eventsOfType(run, "tool.completed")).toEqual([
        expect.objectContaining({ name: "Bash", status: "succeeded" }),
      ]);
      expectUsageMatchesServer(run, FACTS);
    });

    it("ends needs_input (exit 3) with the denied call as a pending approval, never a silent success", async () => {
      const run = await checkedRun(claude!, "denied");
      expect(run.finished, run.stderr).toMatchObject({
        status: "needs_input",
        exit_code: 3,
        // Paused, not done: what it said is its last message, not a result.
        result: null,
      });
      expect(eventsOfType(run, "message.completed").at(-1)?.text).toBe(ANSWERS.deniedFinal);
      expect(run.exitCode).toBe(3);
      const call = run.server.requestsFor("denied")[0]!.reply.toolCalls[0]!;
      const id = `toolu_${call.id}`;
      const approval = {
        request_id: id,
        kind: "approval",
        tool_call_id: id,
        actions: [expect.objectContaining({ name: "Bash", args: { command: DENIED_COMMAND } })],
      };
      expect(eventsOfType(run, "input.requested")).toEqual([expect.objectContaining(approval)]);
      expect(run.finished.pending).toEqual([expect.objectContaining(approval)]);
      expect(run.finished.resume).toMatchObject({
        session_id: run.events.find((e) => e.type === "session.started")!.session_id,
      });
      // The call itself was refused: it shows as a failed tool call, and the file was not made.
      expect(eventsOfType(run, "tool.completed")).toEqual([
        expect.objectContaining({ tool_call_id: id, status: "failed" }),
      ]);
      expect(run.finished.counts).toMatchObject({ tool_calls: 1, tool_failures: 1 });
      expectUsageMatchesServer(run, FACTS);
    });

    it("nests a sub-agent (Agent tool): subagent.started/completed, its prompt and text marked with the agent", async () => {
      const run = await checkedRun(claude!, "subagent");
      expectSucceeded(run, ANSWERS.subagentFinal);
      const call = run.server.requestsFor("subagent")[0]!.reply.toolCalls[0]!;
      const id = `toolu_${call.id}`;
      const agent = { name: "general-purpose", instance_id: id };
      expect(eventsOfType(run, "subagent.started")).toEqual([expect.objectContaining({ ...agent, tool_call_id: id })]);
      expect(eventsOfType(run, "subagent.completed")).toEqual([expect.objectContaining(agent)]);
      // The sub-agent's own model call made its answer; it reached the stream as its message.
      expect(run.server.requestsFor("subtask")).toHaveLength(1);
      const nested = run.events.filter((e) => e.agent?.instance_id === id);
      expect(nested.map((e) => e.type)).toContain("message.completed");
      expect(nested.find((e) => e.type === "message.completed")!.text).toBe(ANSWERS.subagentReport);
      expect(nested.find((e) => e.type === "backend.event")?.raw?.message?.content?.[0]?.text).toBe(SUBAGENT_PROMPT);
      const seq = (type: string) => run.events.find((e) => e.type === type)!.seq as number;
      expect(seq("subagent.started")).toBeLessThan(nested.find((e) => e.type === "message.completed")!.seq);
      expect(seq("subagent.completed")).toBeLessThan(run.finished.seq);
      expect(eventsOfType(run, "tool.completed")).toEqual([
        expect.objectContaining({ tool_call_id: id, name: call.name, status: "succeeded" }),
      ]);
      // Every model call counts, the sub-agent's too (result.usage leaves it out; modelUsage has it).
      expectUsageMatchesServer(run, FACTS);
    });
  });
}
