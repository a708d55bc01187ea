// ACP usage (issue 39 item 4): the model each agent names, so that tokens are priced; what normalize --from acp
// makes of each place an agent puts its usage is in test/unit/backends/acp/acp-backend.test.ts.
import { describe, expect, it } from "vitest";
import { translate } from "../../../helpers/translate.js";

const rpc = (message: Record<string, unknown>) => JSON.stringify({ jsonrpc: "2.0", ...message });
const INIT = rpc({ id: 0, result: { protocolVersion: 1, agentInfo: { name: "opencode", version: "1.18.34" } } });
const modelOption = (value: string) => [
  { id: "mode", category: "mode", type: "select", currentValue: "build", options: [] },
  { id: "model", name: "Model", category: "model", type: "select", currentValue: value, options: [] },
];
const update = (u: Record<string, unknown>) =>
  rpc({ method: "session/update", params: { sessionId: "s1", update: u } });
const chunk = (text: string) => update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
const END = rpc({ id: 2, result: { stopReason: "end_turn", usage: { inputTokens: 1000, outputTokens: 100 } } });

function usageOf(lines: string[]) {
  const { events } = translate(`${lines.join("\n")}\n`, { from: "acp" });
  return {
    usage: events.find((e) => e.type === "usage"),
    finished: events.at(-1) as unknown as Record<string, unknown>,
  };
}

describe("acp usage: the model it is priced by", () => {
  it("OpenCode names its model only as the session's config option of category model: priced from it", () => {
    const session = rpc({ id: 1, result: { sessionId: "s1", configOptions: modelOption("openai/gpt-4o") } });
    const { usage, finished } = usageOf([INIT, session, chunk("Hi."), END]);
    expect(usage).toMatchObject({ model: "gpt-4o", cost_source: "estimated", cost_usd: expect.any(Number) });
    expect(finished.usage).toMatchObject({ cost_source: "estimated" });
  });

  it("a config_option_update choosing another model prices what follows by it", () => {
    const session = rpc({ id: 1, result: { sessionId: "s1", configOptions: modelOption("fake/fake-model") } });
    const switched = update({
      sessionUpdate: "config_option_update",
      configOptions: modelOption("openai/gpt-4o-mini"),
    });
    const { usage } = usageOf([INIT, session, switched, chunk("Hi."), END]);
    expect(usage).toMatchObject({ model: "gpt-4o-mini", cost_source: "estimated" });
  });

  it("Claude's adapter states its cost and model in usage_update (cost in USD, _meta model): reported, not estimated", () => {
    const session = rpc({ id: 1, result: { sessionId: "s1", configOptions: modelOption("openai/gpt-4o") } });
    const cost = update({
      sessionUpdate: "usage_update",
      used: 9000,
      size: 200000,
      cost: { amount: 0.25, currency: "USD" },
      _meta: { "_claude/model": "claude-sonnet-4-5" },
    });
    const { usage } = usageOf([INIT, session, chunk("Hi."), cost, END]);
    expect(usage).toMatchObject({ model: "claude-sonnet-4-5", cost_usd: 0.25, cost_source: "reported" });
  });
});

describe("acp usage: complete or not", () => {
  const init = (name: string) => rpc({ id: 0, result: { protocolVersion: 1, agentInfo: { name, version: "1" } } });
  const session = rpc({ id: 1, result: { sessionId: "s1" } });
  const toolCall = [
    update({ sessionUpdate: "tool_call", toolCallId: "t1", kind: "execute", title: "ls", status: "in_progress" }),
    update({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed", rawOutput: "a.txt" }),
  ];

  it("OpenCode counts only its last model call: a turn of two calls has its totals marked incomplete", () => {
    const two = usageOf([init("OpenCode"), session, chunk("Let me look."), ...toolCall, chunk("a.txt."), END]);
    expect(two.finished.usage).toEqual({ input_tokens: 1000, output_tokens: 100, complete: false });
    const one = usageOf([init("OpenCode"), session, chunk("Hi."), END]);
    expect(one.finished.usage).toEqual({ input_tokens: 1000, output_tokens: 100 });
  });

  it("an agent whose response counts the whole turn (Copilot CLI) keeps its totals complete", () => {
    const two = usageOf([init("Copilot"), session, chunk("Let me look."), ...toolCall, chunk("a.txt."), END]);
    expect(two.finished.usage).toEqual({ input_tokens: 1000, output_tokens: 100 });
  });
});

describe("acp usage: Codex's adapter", () => {
  const init = rpc({ id: 0, result: { protocolVersion: 1, agentInfo: { name: "@agentclientprotocol/codex-acp" } } });
  const session = (model: string) => rpc({ id: 1, result: { sessionId: "s1", models: { currentModelId: model } } });
  const end = (usage: Record<string, number>) => rpc({ id: 2, result: { stopReason: "end_turn", usage } });

  it("names its model with the reasoning effort in brackets (gpt-4o[medium]): priced by the model", () => {
    const { usage } = usageOf([init, session("gpt-4o[medium]"), chunk("Hi."), END]);
    expect(usage).toMatchObject({ model: "gpt-4o", cost_source: "estimated", cost_usd: expect.any(Number) });
  });

  // Observed (codex-acp 2.6.0 against the live suite's fake server): 40 input, 16 of them cached, 9 output.
  it.each([
    [
      "the cache left out of the input, as its total says",
      { inputTokens: 24, cachedReadTokens: 16, outputTokens: 9, totalTokens: 49 },
      40,
    ],
    [
      "the thoughts in the total too",
      { inputTokens: 24, cachedReadTokens: 16, outputTokens: 9, thoughtTokens: 3, totalTokens: 52 },
      40,
    ],
    [
      "the cache within the input (the total says so)",
      { inputTokens: 40, cachedReadTokens: 16, outputTokens: 9, totalTokens: 49 },
      40,
    ],
    ["no total: the input as told", { inputTokens: 40, cachedReadTokens: 16, outputTokens: 9 }, 40],
    ["no cache: the input as told", { inputTokens: 40, outputTokens: 9, totalTokens: 49 }, 40],
  ])("input_tokens counts the cache once: %s", (_case, counts, input) => {
    const { finished } = usageOf([init, session("fake-model[medium]"), chunk("Hi."), end(counts)]);
    expect(finished.usage).toMatchObject({ input_tokens: input, output_tokens: 9 });
  });
});
