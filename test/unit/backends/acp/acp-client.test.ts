// The ACP client pieces (src/backends/acp/client.ts, permission-policy.ts) against a fake agent on the
// SDK's agent side (test/fixtures/acp/fake-agent.mjs), its stdout read by the same translator as a recording.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { AcpClientRun, type TurnEnd } from "../../../../src/backends/acp/client.js";
import { acpPolicy, answerPermission } from "../../../../src/policy/permission-policy.js";
import { LineSplitter } from "../../../../src/core/line-splitter.js";
import { parseNativeLine } from "../../../../src/core/native-line.js";
import { translate } from "../../../helpers/translate.js";

const FAKE_AGENT = fileURLToPath(new URL("../../../fixtures/acp/fake-agent.mjs", import.meta.url));

const request = (kind: string, rawInput: Record<string, unknown>, options = ["allow_once", "reject_once"]) => ({
  sessionId: "s",
  toolCall: { toolCallId: "t", kind, rawInput },
  options: options.map((k) => ({ optionId: `id-${k}`, kind: k, name: k })),
});

describe("ACP permission policy", () => {
  it("maps the portable names to ACP kinds; write and edit both mean edit", () => {
    const policy = acpPolicy(["write"], []);
    expect(answerPermission(policy, request("edit", { path: "a.txt" })).decision).toBe("allow");
    expect(answerPermission(acpPolicy(["edit"], []), request("edit", { path: "a.txt" })).decision).toBe("allow");
    expect(answerPermission(acpPolicy(["web_fetch"], []), request("fetch", { url: "https://x" })).decision).toBe(
      "allow",
    );
  });

  it("refuses web_search (ACP's search is a file search) and unknown names, exit 2", () => {
    expect(() => acpPolicy(["web_search"], [])).toThrow(expect.objectContaining({ exitCode: 2 }));
    expect(() => acpPolicy([], ["browser"])).toThrow(/not a portable tool name/);
  });

  it("NAME(PATTERN) matches the command or the path; deny beats allow", () => {
    const policy = acpPolicy(["shell(git *)", "read"], ["shell(git push)"]);
    expect(answerPermission(policy, request("execute", { command: "git status" }))).toMatchObject({
      decision: "allow",
      by: "rule",
      rule: "shell(git *)",
      response: { outcome: { outcome: "selected", optionId: "id-allow_once" } },
    });
    expect(answerPermission(policy, request("execute", { command: "git push origin" }))).toMatchObject({
      decision: "reject",
      by: "rule",
      rule: "shell(git push)",
      needsInput: false,
      response: { outcome: { outcome: "selected", optionId: "id-reject_once" } },
    });
    expect(
      answerPermission(acpPolicy(["read(src/)"], [], "never", "/w"), request("read", { path: "etc/passwd" })).decision,
    ).toBe("reject");
  });

  it("a call no rule names: rejected and needs input by default, allowed with --approvals auto unless denied", () => {
    expect(answerPermission(acpPolicy([], []), request("delete", { path: "x" }))).toMatchObject({
      decision: "reject",
      by: "default",
      needsInput: true,
    });
    expect(answerPermission(acpPolicy([], [], "auto"), request("move", { path: "x" }))).toMatchObject({
      decision: "allow",
      by: "approvals",
    });
    expect(answerPermission(acpPolicy([], ["shell"], "auto"), request("execute", { command: "ls" })).decision).toBe(
      "reject",
    );
  });

  it("NAME(PATTERN) matches each recorded agent's request: rawInput's command (Copilot, OpenCode, Qwen), the title where there is no input (Gemini)", () => {
    for (const agent of ["copilot-acp-1.0.102", "gemini-acp-0.61.0", "opencode-acp-1.18.34", "qwen-acp-0.24.4"]) {
      const recorded = readFileSync(new URL(`../../../fixtures/live/${agent}/norule.jsonl`, import.meta.url), "utf8");
      const line = recorded.split("\n").find((l) => l.includes('"session/request_permission"'))!;
      const { params } = JSON.parse(line) as { params: unknown };
      expect(answerPermission(acpPolicy(["shell(touch made-by-*)"], []), params), agent).toMatchObject({
        decision: "allow",
        by: "rule",
      });
      expect(answerPermission(acpPolicy(["shell(rm *)"], []), params), agent).toMatchObject({ by: "default" });
    }
  });

  it("NAME(PATTERN) matches a path from rawInput (path, file_path) or, with none, the first location; never another kind's title", () => {
    const policy = acpPolicy(["read(src/)", "edit(src/)"], [], "never", "/w");
    const call = (toolCall: Record<string, unknown>) => ({ sessionId: "s", toolCall, options: [] });
    expect(answerPermission(policy, call({ kind: "read", rawInput: { file_path: "src/a.ts" } })).decision).toBe(
      "allow",
    );
    expect(answerPermission(policy, call({ kind: "edit", locations: [{ path: "src/b.ts" }] })).decision).toBe("allow");
    expect(answerPermission(policy, call({ kind: "read", title: "src/c.ts" })).by).toBe("default");
    expect(answerPermission(policy, call({ kind: "read", locations: [{ path: "etc/passwd" }] })).by).toBe("default");
  });

  it("answers cancelled where the agent offers no option of the decision's kind", () => {
    const answer = answerPermission(acpPolicy(["shell"], []), request("execute", { command: "ls" }, ["reject_once"]));
    expect(answer.response).toEqual({ outcome: { outcome: "cancelled" } });
  });
});

/** Run the fake agent on a prompt with a policy; `cancelWhen` sees its stdout so far. */
async function drive(prompt: string, policy = acpPolicy([], []), cancelWhen?: (out: string) => boolean) {
  const agent = spawn(process.execPath, [FAKE_AGENT], { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise<number | null>((resolve) => agent.on("close", (code) => resolve(code)));
  const chunks: Buffer[] = [];
  const run: AcpClientRun = new AcpClientRun({
    toAgent: agent.stdin,
    cwd: process.cwd(),
    prompt,
    answerPermission: (params) => {
      const answer = answerPermission(policy, params);
      // No rule for the call: the turn ends here, needing that approval (the answer is then cancelled).
      if (answer.needsInput) run.cancel();
      return answer.response;
    },
  });
  // The client reads no stdout of its own: each line parsed here, as the run's reading does, is handed to it.
  const lines = new LineSplitter((line) => {
    const parsed = "text" in line ? parseNativeLine(line.text) : undefined;
    if (parsed?.ok) run.read(parsed.event);
  });
  agent.stdout.on("data", (chunk: Buffer) => {
    chunks.push(chunk);
    lines.push(chunk);
    if (cancelWhen?.(Buffer.concat(chunks).toString("utf8"))) run.cancel();
  });
  agent.stdout.on("end", () => {
    lines.end();
    run.inputEnded();
  });
  const end: TurnEnd = await run.run();
  agent.stdin.end();
  const code = await exited;
  const stdout = Buffer.concat(chunks);
  const { events } = translate(stdout, { from: "acp", end: { backendExit: { code, signal: null }, stderrTail: [] } });
  return { end, events, finished: events.at(-1) as unknown as Record<string, unknown>, stdout: stdout.toString() };
}

describe("ACP client against a fake agent", () => {
  it("drives a text turn; what the agent wrote, stray line and all, becomes the canonical run", async () => {
    const { end, events, finished } = await drive("text");
    expect(end).toEqual({ stopReason: "end_turn" });
    expect(events.find((e) => e.type === "backend.unparsed")).toMatchObject({
      line: "fake agent: starting (not JSON)",
    });
    expect(events.find((e) => e.type === "session.started")).toMatchObject({
      agent_info: { name: "fake-agent", version: "1.0.0" },
    });
    expect(finished).toMatchObject({
      status: "succeeded",
      exit_code: 0,
      result: { text: "Hello from the fake agent." },
      usage: { input_tokens: 12, output_tokens: 4 },
    });
  });

  it("answers fs/* with an error (never a hang) and a permission by the rules: allowed, the call runs", async () => {
    const { finished, events } = await drive("ask", acpPolicy(["shell(touch *)"], []));
    expect(events.find((e) => e.type === "message.completed")).toMatchObject({ text: "fs: refused -32601. " });
    expect(events.find((e) => e.type === "tool.completed")).toMatchObject({ status: "succeeded", output: "done" });
    expect(finished).toMatchObject({ status: "succeeded", result: { text: "Made x." } });
  });

  it("a denied call is rejected and the turn goes on", async () => {
    const { finished, events } = await drive("ask", acpPolicy(["shell"], ["shell(touch *)"]));
    expect(events.find((e) => e.type === "tool.completed")).toMatchObject({
      status: "failed",
      output: "not run (no)",
    });
    expect(finished).toMatchObject({ status: "succeeded", result: { text: "I was not allowed." } });
  });

  it("no rule: the request is answered cancelled, the turn cancelled, the run needs input with the call pending", async () => {
    const { end, finished } = await drive("ask");
    expect(end).toEqual({ stopReason: "cancelled" });
    expect(finished).toMatchObject({ status: "needs_input", exit_code: 3 });
    expect(finished.pending).toMatchObject([{ tool_call_id: "t1", actions: [{ args: { command: "touch x" } }] }]);
  });

  it("cancel during a slow answer ends the turn cancelled", async () => {
    const { end, finished } = await drive("slow", undefined, (out) => out.includes("tick 3."));
    expect(end).toEqual({ stopReason: "cancelled" });
    expect(finished).toMatchObject({ status: "cancelled", exit_code: 130 });
  });
});
