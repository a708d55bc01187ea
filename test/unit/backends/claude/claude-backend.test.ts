// Claude Code's definition and the outcomes its traps must give (docs/protocols/claude.md).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { claude } from "../../../../src/backends/claude/index.js";
import { detectProtocolOwner } from "../../../../src/backends/registry.js";
import { translate } from "../../../helpers/translate.js";
import { argvOf } from "../../../helpers/backend-argv.js";

const LIVE = new URL("../../../fixtures/live/claude-2.1.332/", import.meta.url);
const capture = (name: string): string => readFileSync(new URL(`${name}.jsonl`, LIVE), "utf8");
const request = {
  prompt: "-x starts with a dash",
  backendArgs: ["--allowedTools", "Bash"],
  promptTerminator: true,
};

describe("claude definition", () => {
  it("puts the prompt last, after --, even after a variadic backend flag", () => {
    const argv = argvOf(claude, { ...request, model: "sonnet" });
    expect(argv.slice(0, 6)).toEqual([
      "-p",
      "--output-format",
      "stream-json",
      "--verbose",
      "--include-partial-messages",
      "--forward-subagent-text",
    ]);
    expect(argv.slice(-4)).toEqual(["--allowedTools", "Bash", "--", "-x starts with a dash"]);
    expect(argv).toContain("sonnet");
  });

  it("--max-cost-usd is passed as its own --max-budget-usd (the same USD it reports); --max-turns never is", () => {
    const argv = argvOf(claude, { ...request, maxCostUsd: 0.5 });
    expect(argv.slice(argv.indexOf("--max-budget-usd"), argv.indexOf("--max-budget-usd") + 2)).toEqual([
      "--max-budget-usd",
      "0.5",
    ]);
    expect(argvOf(claude, request)).not.toContain("--max-budget-usd");
    expect(argv).not.toContain("--max-turns");
  });

  it("is detected from its first line, init or --bare's ui_invalidate", () => {
    expect(detectProtocolOwner({ type: "system", subtype: "init" })).toBe("claude");
    expect(detectProtocolOwner({ type: "system", subtype: "ui_invalidate" })).toBe("claude");
  });
});

describe("claude outcomes", () => {
  it("an aborted result after agentstream's SIGTERM is cancelled with 143, as without the result", () => {
    for (const name of ["slow", "slow-noresult"]) {
      const { outcome } = translate(capture(name), {
        from: "claude",
        end: { backendExit: { code: 0, signal: null } },
        interruption: { kind: "signal", signal: "SIGTERM" },
      });
      expect(outcome).toMatchObject({ status: "cancelled", exitCode: 143, resultText: null });
    }
  });

  it("the synthetic API Error text never becomes the answer, whatever subtype says", () => {
    const { events, outcome } = translate(capture("error400"), {
      from: "claude",
      end: { backendExit: { code: 1, signal: null } },
    });
    expect(outcome).toMatchObject({ status: "failed", resultText: null, error: { code: "provider" } });
    expect(events.filter((e) => e.type === "message.completed")).toEqual([]);
  });

  it("abandoned deltas of a broken stream get no message.completed; the answer comes once", () => {
    const { events } = translate(capture("cut"), { from: "claude", end: { backendExit: { code: 0, signal: null } } });
    const completed = events.filter((e) => e.type === "message.completed");
    expect(completed.map((e) => (e as { text: string }).text)).toEqual(["Hello from the fake model. All good."]);
  });

  it("a denied tool call is a pending approval: needs_input (exit 3) with a resume hint, not a silent success", () => {
    const { events, outcome } = translate(capture("denied"), {
      from: "claude",
      end: { backendExit: { code: 0, signal: null } },
    });
    const approval = { request_id: "toolu_call_fake_1_0", kind: "approval", tool_call_id: "toolu_call_fake_1_0" };
    expect(events.filter((e) => e.type === "input.requested")).toEqual([
      expect.objectContaining({
        ...approval,
        actions: [expect.objectContaining({ name: "Bash", args: { command: "touch made-by-tool.txt" } })],
      }),
    ]);
    // Paused, not done: what it said is in its messages, not a result.
    expect(outcome).toMatchObject({ status: "needs_input", exitCode: 3, resultText: null });
    const finished = events.at(-1) as { pending: unknown[]; resume: { session_id: string; hint: string } };
    expect(finished.pending).toEqual([expect.objectContaining(approval)]);
    expect(finished.resume.hint).toMatch(/^claude -p --resume \S+ --allowedTools Bash /);
  });

  it("a denial listed only in result.permission_denials still asks for its approval", () => {
    const lines = capture("denied")
      .split("\n")
      .filter((l) => !l.includes('"subtype":"permission_denied"'))
      .join("\n");
    const { events, outcome } = translate(lines, { from: "claude", end: { backendExit: { code: 0, signal: null } } });
    expect(events.filter((e) => e.type === "input.requested")).toEqual([
      expect.objectContaining({ tool_call_id: "toolu_call_fake_1_0", native: "result" }),
    ]);
    expect(outcome).toMatchObject({ status: "needs_input", exitCode: 3 });
  });

  // Issue 25: what a result says of its own failure, in whichever field, decides its code.
  it.each([
    [{ subtype: "error_during_execution", is_error: true, error: "Rate limit exceeded" }, "rate_limit", 75],
    [{ subtype: "error_during_execution", is_error: true, error: { message: "Overloaded" } }, "overloaded", 75],
    [{ subtype: "error_during_execution", errors: ["Permission denied: cannot write to /etc/x"] }, "tool", 1],
    [{ subtype: "error_max_turns", is_error: false, errors: ["Reached maximum number of turns (3)"] }, "budget", 1],
    // --json-schema: no StructuredOutput call matched the schema (issue 40).
    [{ subtype: "error_max_structured_output_retries", is_error: true }, "output_schema", 1],
  ])("a failed result %j is classified from its own text: %s, exit %i", (fields, code, exitCode) => {
    const lines = [
      '{"type":"system","subtype":"init","session_id":"s1","tools":[]}',
      JSON.stringify({ type: "result", session_id: "s1", ...fields }),
    ].join("\n");
    const { outcome } = translate(lines, { from: "claude", end: { backendExit: { code: 1, signal: null } } });
    expect(outcome).toMatchObject({ status: "failed", exitCode, error: { code } });
  });

  it("a result with neither subtype nor is_error is a success, its text the answer", () => {
    const lines = [
      '{"type":"system","subtype":"init","session_id":"s1","tools":[]}',
      '{"type":"result","result":"4","total_cost_usd":0.001,"session_id":"s1"}',
    ].join("\n");
    const { outcome } = translate(lines, { from: "claude", end: { backendExit: { code: 0, signal: null } } });
    expect(outcome).toMatchObject({ status: "succeeded", exitCode: 0, resultText: "4" });
  });

  it("--max-turns reached is failed with error.code budget, exit 1", () => {
    const { outcome } = translate(capture("maxturns"), {
      from: "claude",
      end: { backendExit: { code: 1, signal: null } },
    });
    expect(outcome).toMatchObject({
      status: "failed",
      exitCode: 1,
      error: { code: "budget", message: "Reached maximum number of turns (1)", retryable: false },
    });
  });

  it("a sub-agent's lines carry its agent, and its model call counts in the usage (modelUsage, not result.usage)", () => {
    const { events, outcome } = translate(capture("subagent"), {
      from: "claude",
      end: { backendExit: { code: 0, signal: null } },
    });
    const agent = { name: "general-purpose", instance_id: "toolu_call_fake_1_0" };
    const types = events.map((e) => e.type);
    expect(events.filter((e) => e.type === "subagent.started")).toEqual([
      expect.objectContaining({ ...agent, tool_call_id: "toolu_call_fake_1_0" }),
    ]);
    expect(types.indexOf("subagent.completed")).toBeGreaterThan(types.indexOf("subagent.started"));
    const nested = events.filter(
      (e) => (e as { agent?: { instance_id: string } }).agent?.instance_id === agent.instance_id,
    );
    expect(nested.map((e) => e.type)).toEqual(["backend.event", "message.completed"]);
    expect(nested.find((e) => e.type === "message.completed")).toMatchObject({
      agent,
      text: "Sub-agent here: the folder holds notes.txt and data.csv.",
    });
    expect(outcome).toMatchObject({
      status: "succeeded",
      resultText: "The sub-agent says the folder holds notes.txt and data.csv.",
    });
    // Three model calls of 40 in / 9 out: result.usage says 80/18 (the main agent's two).
    expect(events.at(-1)).toMatchObject({ usage: { input_tokens: 120, output_tokens: 27 } });
  });
});
