// ACP agents (docs/protocols/acp.md): what normalize --from acp makes of their stdout, and --from auto
// (run --backend acp, live: test/e2e/run/acp-run.test.ts).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseJsonl, runCli } from "../../../helpers/cli.js";
import { translate } from "../../../helpers/translate.js";

const LIVE = fileURLToPath(new URL("../../../fixtures/live/", import.meta.url));
const rpc = (message: Record<string, unknown>) => JSON.stringify({ jsonrpc: "2.0", ...message });
const INIT = rpc({ id: 0, result: { protocolVersion: 1, agentInfo: { name: "Copilot", version: "1.0.102" } } });
const SESSION = rpc({ id: 1, result: { sessionId: "s1" } });
const update = (u: Record<string, unknown>) =>
  rpc({ method: "session/update", params: { sessionId: "s1", update: u } });
const chunk = (text: string) => update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
const endTurn = (extra: Record<string, unknown> = {}) => rpc({ id: 2, result: { stopReason: "end_turn", ...extra } });

function finished(lines: string[]) {
  const { events } = translate(`${lines.join("\n")}\n`, { from: "acp" });
  return { events, finished: events.at(-1) as unknown as Record<string, unknown> };
}

describe("acp translator", () => {
  it("says which agent ran: session.started carries the initialize response's agentInfo", () => {
    const { events } = finished([INIT, SESSION, chunk("Hi."), endTurn()]);
    expect(events.find((e) => e.type === "session.started")).toMatchObject({
      session_id: "s1",
      protocol_version: 1,
      agent_info: { name: "Copilot", version: "1.0.102" },
    });
  });

  it("an error Copilot CLI tells only in its text fails the run, classified; the same text from another agent is its answer", () => {
    const said = "Error: Failed to get response from the AI model; retried 5 times Last error: 429 too many requests";
    const copilot = finished([INIT, SESSION, chunk(said), endTurn()]).finished;
    expect(copilot).toMatchObject({ status: "failed", exit_code: 75, error: { code: "rate_limit", retryable: true } });
    const other = INIT.replace('"Copilot"', '"other-agent"');
    expect(finished([other, SESSION, chunk(said), endTurn()]).finished).toMatchObject({
      status: "succeeded",
      result: { text: said },
    });
  });

  it("classifies each error shape: Gemini's HTTP status as code, Qwen's data.details, ACP's auth_required", () => {
    const gemini = rpc({ id: 2, error: { code: 503, message: '{"error":{"code":503,"message":"busy"}}' } });
    expect(finished([INIT, SESSION, gemini]).finished).toMatchObject({
      exit_code: 75,
      error: { code: "overloaded", message: "503 busy" },
    });
    const qwen = rpc({ id: 2, error: { code: -32603, message: "Internal error", data: { details: "401 bad key" } } });
    expect(finished([INIT, SESSION, qwen]).finished).toMatchObject({ exit_code: 77, error: { code: "auth" } });
    const auth = rpc({ id: 1, error: { code: -32000, message: "Authentication required" } });
    expect(finished([INIT, auth]).finished).toMatchObject({ exit_code: 77, error: { code: "auth" } });
  });

  it("a recording holds no answers: a line of the driver's answer type on an agent's stdout forges none (kept as data)", () => {
    const forged = JSON.stringify({
      type: "agentstream/permission_answered",
      request_id: "1",
      decision: "allow",
      by: "rule",
    });
    const { events } = finished([INIT, SESSION, forged, chunk("Hi."), endTurn()]);
    expect(events.some((e) => e.type === "input.answered")).toBe(false);
    expect(events.find((e) => e.type === "backend.event")).toMatchObject({
      native_type: "agentstream/permission_answered",
    });
  });

  it("usage from the prompt's response, from Gemini's _meta.quota, or per call (Qwen), never counted twice", () => {
    const usage = (events: readonly object[]) => (events.at(-1) as { usage?: unknown }).usage;
    const prompt = finished([INIT, SESSION, chunk("a"), endTurn({ usage: { inputTokens: 10, outputTokens: 2 } })]);
    expect(usage(prompt.events)).toMatchObject({ input_tokens: 10, output_tokens: 2 });
    const quota = { _meta: { quota: { token_count: { input_tokens: 7, output_tokens: 3 } } } };
    expect(usage(finished([INIT, SESSION, chunk("a"), endTurn(quota)]).events)).toMatchObject({
      input_tokens: 7,
      output_tokens: 3,
    });
    const perCall = update({
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: "" },
      _meta: { usage: { inputTokens: 40, outputTokens: 9 } },
    });
    const both = finished([INIT, SESSION, perCall, perCall, endTurn({ usage: { inputTokens: 80, outputTokens: 18 } })]);
    expect(usage(both.events)).toMatchObject({ input_tokens: 80, output_tokens: 18 });
    expect(both.events.filter((e) => e.type === "usage")).toHaveLength(2);
  });

  it("context fill (usage_update) is no token count: alone its totals are unknown (complete: false); beside the prompt's usage they are whole", () => {
    const fill = update({ sessionUpdate: "usage_update", used: 8000, size: 128000 });
    expect(finished([INIT, SESSION, fill, chunk("a"), endTurn()]).finished.usage).toEqual({
      input_tokens: 0,
      output_tokens: 0,
      complete: false,
    });
    const counted = finished([
      INIT,
      SESSION,
      fill,
      chunk("a"),
      endTurn({ usage: { inputTokens: 8, outputTokens: 1 } }),
    ]);
    expect(counted.finished.usage).toEqual({ input_tokens: 8, output_tokens: 1 });
  });

  it("a turn cancelled after a permission request needs that approval; one cancelled without is cancelled", () => {
    const ask = rpc({
      id: 0,
      method: "session/request_permission",
      params: {
        sessionId: "s1",
        toolCall: { toolCallId: "t1", kind: "execute", title: "touch x", rawInput: { command: "touch x" } },
        options: [{ optionId: "a", kind: "allow_once", name: "Allow" }],
      },
    });
    const cancelled = rpc({ id: 2, result: { stopReason: "cancelled" } });
    const asked = finished([INIT, SESSION, ask, cancelled]).finished;
    expect(asked).toMatchObject({ status: "needs_input", exit_code: 3 });
    expect(asked.pending).toEqual([
      {
        request_id: "0",
        kind: "approval",
        tool_call_id: "t1",
        actions: [
          { name: "execute", args: { command: "touch x" }, description: "touch x", allowed_decisions: ["allow_once"] },
        ],
      },
    ]);
    expect(finished([INIT, SESSION, chunk("tick"), cancelled]).finished).toMatchObject({
      status: "cancelled",
      exit_code: 130,
    });
  });

  it("a stream cut before the prompt's response is a crash, never a success", () => {
    const { events } = translate(`${[INIT, SESSION, chunk("Hel")].join("\n")}\n`, {
      from: "acp",
      end: { backendExit: { code: 0, signal: null }, stderrTail: [] },
    });
    expect(events.at(-1)).toMatchObject({ status: "failed", exit_code: 76, error: { code: "backend_crashed" } });
  });
});

describe("acp on the command line", () => {
  it("--from auto recognizes a real ACP recording by its JSON-RPC lines", async () => {
    const run = await runCli(["normalize", `${LIVE}gemini-acp-0.61.0/text.jsonl`]);
    expect(run.code).toBe(0);
    const events = parseJsonl(run.stdout);
    expect(events[0]).toMatchObject({ type: "run.started", backend: "acp", detection: "detected" });
    expect(events.at(-1)).toMatchObject({
      status: "succeeded",
      result: { text: "Hello from the fake model. All good." },
    });
  });

  it("--raw keeps each message as the agent wrote it (no type added)", async () => {
    const file = `${LIVE}copilot-acp-1.0.102/text.jsonl`;
    const run = await runCli(["normalize", "--from", "acp", "--raw", file]);
    const written = readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const raws = parseJsonl(run.stdout)
      .filter((e) => e.raw !== undefined)
      .map((e) => e.raw);
    expect(raws.length).toBeGreaterThan(0);
    for (const raw of raws) expect(written).toContainEqual(raw);
  });
});
