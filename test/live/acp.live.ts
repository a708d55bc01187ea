// Real agents driven over the Agent Client Protocol: `agentstream run --backend acp --bin AGENT --backend-arg ...`,
// Claude Code's and Codex's adapters as `run --backend claude|codex --transport acp --bin ADAPTER` (the built bin, a
// real process) against the loopback fake model server, each scenario checked for the
// canonical stream (agentstream verify), the outcome and the exit code. The agents run side by side, each
// one's scenarios in turn. AGENTSTREAM_LIVE_ONLY=acp runs this file alone (acp,codex-acp-2.6.0: that agent only); AGENTSTREAM_LIVE_CAPTURE=1 also
// keeps each agent's stdout as a golden (support/acp-captures.ts).
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { acpAgentsInstalled, type AcpAgentFacts } from "./support/acp-agents.js";
import { CAPTURING, keepCapture, teed, writeManifest, type CaptureEntry } from "./support/acp-captures.js";
import { eventsOfType, type AcpLaunch, type LiveRun, type LiveTarget } from "./support/live-run.js";
import { checkedRun, expectFailed } from "./support/live-suite.js";
import { processesIn } from "./support/processes.js";
import { ANSWERS, DENIED_COMMAND, USAGE_PER_CALL } from "./support/scenarios.mjs";

/** The file DENIED_COMMAND makes. */
const MADE = DENIED_COMMAND.split(" ").at(-1)!;

const agents = acpAgentsInstalled();
if (agents.length === 0) describe.skip("acp live", () => it("is not selected (AGENTSTREAM_LIVE_ONLY)", () => {}));

for (const { agent, target, launch } of agents) {
  // Agents side by side; one agent's scenarios one after the other.
  describe.concurrent(`acp: ${target.id}`, () => {
    // Claude's and Codex's adapters as their backends' transport; any other agent as --backend acp.
    const how = launch.transport ? `run --backend ${launch.transport.backend} --transport acp` : "run --backend acp";
    describe.sequential(how, () => describeScenarios(target, launch, agent.facts));
  });
}

function describeScenarios(target: LiveTarget, acp: AcpLaunch, facts: AcpAgentFacts): void {
  const captured: CaptureEntry[] = [];
  afterAll(() => {
    if (captured.length > 0) writeManifest(captured);
  });
  /** One run of `scenario`, kept as `label` when capturing. */
  const run = async (
    scenario: Parameters<typeof checkedRun>[1],
    options: Parameters<typeof checkedRun>[2] = {},
    label: string = scenario,
  ) => {
    if (!CAPTURING) return checkedRun(target, scenario, { ...options, acp });
    const scratch = join(tmpdir(), `agentstream-acp-capture-${process.pid}-${target.backend}-${label}.jsonl`);
    const tee = teed(target, acp, scratch);
    const done = await checkedRun(tee.target, scenario, { ...options, acp: tee.acp });
    captured.push(keepCapture(target, label, scratch, done, options.args ?? []));
    return done;
  };

  it("text: the answer streamed, the agent named, usage totals", async () => {
    const text = await run("text");
    expectAnswer(text, ANSWERS.text, facts);
    expect(eventsOfType(text, "message.delta").length).toBeGreaterThan(1);
    expect(eventsOfType(text, "session.started")).toEqual([
      expect.objectContaining({
        protocol_version: 1,
        agent_info: expect.objectContaining({ version: expect.any(String) }),
      }),
    ]);
    expectUsage(text, facts);
  });

  if (facts.ungovernable) {
    it("a rule for an agent that never asks is refused (exit 2): it is never left ungoverned in silence", async () => {
      const refused = await run("allowed", { args: ["--deny-tool", "shell"] }, "refused");
      expect(refused.exitCode, refused.stderr).toBe(2);
      expect(refused.finished.exit_code).toBe(2);
      expect(refused.files).not.toContain(MADE);
      expect(refused.server.requestsFor("allowed")).toEqual([]);
    });
  } else {
    it("--allow-tool shell: the agent's permission request is allowed, the command runs, the model answers", async () => {
      const allowed = await run("allowed", { args: ["--allow-tool", "shell"] });
      expectAnswer(allowed, ANSWERS.allowedFinal, facts);
      expect(allowed.files).toContain(MADE);
      expect(eventsOfType(allowed, "input.requested")).toHaveLength(1);
      expect(eventsOfType(allowed, "tool.completed")).toEqual([expect.objectContaining({ status: "succeeded" })]);
      expect(allowed.finished.counts).toMatchObject({ tool_calls: 1, tool_failures: 0 });
    });

    it("--deny-tool shell: the agent gets the rejection and the run goes on to the agent's own end", async () => {
      const denied = await run("denied", { args: ["--deny-tool", "shell"] });
      expect(denied.files).not.toContain(MADE);
      expect(eventsOfType(denied, "input.requested")).toHaveLength(1);
      expect(eventsOfType(denied, "tool.completed")).toEqual([
        expect.objectContaining({ status: facts.rejectionStatus }),
      ]);
      expect(denied.finished, denied.stderr).toMatchObject({ status: "succeeded", exit_code: 0 });
      expect(denied.exitCode).toBe(0);
      if (facts.answerAfterRejection === null) expect(denied.finished.result).toBeNull();
      else expectAnswer(denied, facts.answerAfterRejection, facts);
    });

    // Rows of the conformance table (test/fixtures/rules/conformance.json) on the agent's own request for the fake
    // model's shell call, answered by agentstream's reading of the pattern (docs/permissions.md "Rules").
    it("a deny pattern: --allow-tool shell --deny-tool 'shell(touch made-by*)' rejects the call, the run goes on", async () => {
      const args = ["--allow-tool", "shell", "--deny-tool", "shell(touch made-by*)"];
      const denied = await run("denied", { args }, "denied-by-pattern");
      expect(denied.files).not.toContain(MADE);
      expect(eventsOfType(denied, "input.answered")).toEqual([
        expect.objectContaining({ decision: "reject", by: "rule", rule: "shell(touch made-by*)" }),
      ]);
      expect(denied.finished, denied.stderr).toMatchObject({ status: "succeeded", exit_code: 0 });
    });

    it("an allow pattern: --allow-tool 'shell(touch *)' allows the call, the command runs", async () => {
      const allowed = await run("allowed", { args: ["--allow-tool", "shell(touch *)"] }, "allowed-by-pattern");
      expect(allowed.files).toContain(MADE);
      expect(eventsOfType(allowed, "input.answered")).toEqual([
        expect.objectContaining({ decision: "allow", by: "rule", rule: "shell(touch *)" }),
      ]);
      expect(allowed.finished, allowed.stderr).toMatchObject({ status: "succeeded", exit_code: 0 });
    });

    it("a pattern that is not the command: --allow-tool 'shell(touc)' leaves the call to the default (needs_input)", async () => {
      const norule = await run("denied", { args: ["--allow-tool", "shell(touc)"] }, "unmatched-pattern");
      expect(norule.files).not.toContain(MADE);
      expect(norule.finished, norule.stderr).toMatchObject({ status: "needs_input", exit_code: 3 });
    });

    it("no rule for the call: needs_input, exit 3, the call pending", async () => {
      const norule = await run("denied", {}, "norule");
      expect(norule.finished, norule.stderr).toMatchObject({ status: "needs_input", exit_code: 3 });
      expect(norule.exitCode).toBe(3);
      expect(norule.files).not.toContain(MADE);
      const [asked] = eventsOfType(norule, "input.requested");
      expect(norule.finished.pending).toEqual([
        expect.objectContaining({ kind: "approval", request_id: asked!.request_id }),
      ]);
    });
  }

  it("HTTP 400: failed, exit 1 (provider, where the agent tells it)", async () => {
    const refused = await run("error400");
    const code = facts.codeOn400 ?? "provider";
    expectFailed(refused, { code, retryable: false, exitCode: 1 });
    // An agent that drops the error (pi-acp) leaves nothing to show as an error event: only the outcome says it.
    expect(eventsOfType(refused, "error")).toEqual(facts.codeOn400 ? [] : [expect.objectContaining({ code })]);
  });

  it("HTTP 503 on every attempt: failed, overloaded, retryable, exit 75", async () => {
    const overloaded = await run("overloaded");
    expectFailed(overloaded, { code: facts.codeOn503 ?? "overloaded", retryable: true, exitCode: 75 });
    expect(overloaded.server.requestsFor("overloaded").length).toBeGreaterThan(1);
  });

  // The test's own expect: expect.poll needs it where tests run concurrently.
  it("SIGINT during a slow answer: cancelled, exit 130, no process of the agent left", async ({ expect }) => {
    const stopped = await run("slow", { interrupt: true });
    expect(stopped.finished, stopped.stderr).toMatchObject({
      status: "cancelled",
      exit_code: 130,
      error: { code: "cancelled", retryable: false },
    });
    expect(stopped.exitCode).toBe(130);
    expect(eventsOfType(stopped, "message.delta").length).toBeGreaterThan(0);
    const cwd = stopped.events[0]!.cwd as string;
    await expect.poll(() => processesIn(cwd), { timeout: 10_000, interval: 200 }).toEqual([]);
  });

  it("--max-turns 1 with a model that keeps calling tools: failed, budget, exit 1", async () => {
    // Every call allowed (where the agent asks), so the model's second call begins turn 2.
    const approvals = facts.ungovernable ? [] : ["--approvals", "auto"];
    const stopped = await run("loop", { args: ["--max-turns", "1", ...approvals] }, "budget");
    expectFailed(stopped, { code: "budget", retryable: false, exitCode: 1 });
    expect(stopped.finished.error.message).toBe("max-turns 1 reached: turn 2 began");
  });
}

/** Succeeded with `answer` (an adapter may add text of its own before or after it, in the same message). */
function expectAnswer(run: LiveRun, answer: string, facts: AcpAgentFacts): void {
  expect(run.finished, run.stderr).toMatchObject({ status: "succeeded", exit_code: 0 });
  expect(run.exitCode).toBe(0);
  const said = eventsOfType(run, "message.completed").at(-1)?.text;
  if (facts.answerAdds) {
    const quoted = answer.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    expect(said).toMatch(new RegExp(facts.answerAdds === "after" ? `^${quoted}` : `${quoted}$`));
    expect(run.finished.result.text).toBe(said);
  } else {
    expect(said).toBe(answer);
    expect(run.finished.result).toEqual({ text: answer });
  }
}

/** The run's totals are the fake server's for the calls the agent tells of (with their cost where it has one); marked incomplete where it tells none. */
function expectUsage(run: LiveRun, facts: AcpAgentFacts): void {
  if (facts.usageComplete) {
    const untold = facts.untoldRequests ?? 0;
    expect(run.finished.usage).toMatchObject({
      input_tokens: run.server.usage.input_tokens - untold * USAGE_PER_CALL.input_tokens,
      output_tokens: run.server.usage.output_tokens - untold * USAGE_PER_CALL.output_tokens,
    });
    expect(run.finished.usage.complete).toBeUndefined();
    if (facts.cost) expect(run.finished.usage).toMatchObject({ cost_usd: expect.any(Number), cost_source: facts.cost });
  } else {
    expect(run.finished.usage).toMatchObject({ complete: false });
  }
}
