// ACP outcomes an agent does not state (issue 39 item 3): recognized from the agentInfo of its initialize response,
// so that a recording is read as the live run was. Recorded error shapes: test/fixtures/golden/acp/*error*.
import { describe, expect, it } from "vitest";
import { translate } from "../../../helpers/translate.js";

const rpc = (message: Record<string, unknown>) => JSON.stringify({ jsonrpc: "2.0", ...message });
const init = (name: string) => rpc({ id: 0, result: { protocolVersion: 1, agentInfo: { name, version: "0.0.34" } } });
const SESSION = rpc({ id: 1, result: { sessionId: "s1" } });
const END = rpc({ id: 2, result: { stopReason: "end_turn" } });
const chunk = (text: string) =>
  rpc({
    method: "session/update",
    params: { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } },
  });

const finished = (lines: string[]) =>
  translate(`${lines.join("\n")}\n`, { from: "acp" }).events.at(-1) as unknown as Record<string, unknown>;

describe("acp: a failure told by silence", () => {
  it("pi-acp's end_turn without a word or a call (its answer to a provider's 400) fails the run (exit 1)", () => {
    expect(finished([init("pi-acp"), SESSION, END])).toMatchObject({
      status: "failed",
      exit_code: 1,
      error: { code: "unknown", message: expect.stringContaining("pi-acp ended the turn without a word") },
    });
  });

  it("pi-acp's answered turn succeeds; another agent's silent end_turn is its (empty) success", () => {
    expect(finished([init("pi-acp"), SESSION, chunk("Hi."), END])).toMatchObject({
      status: "succeeded",
      result: { text: "Hi." },
    });
    expect(finished([init("other-agent"), SESSION, END])).toMatchObject({ status: "succeeded", result: null });
  });
});

describe("acp: codex-acp's warning is not the answer", () => {
  const CODEX = "@agentclientprotocol/codex-acp";
  const WARNING = "Warning: Model metadata for `gpt-4o` not found. Defaulting to fallback metadata.\n\n";
  const said = (text: string) =>
    rpc({
      method: "session/update",
      params: {
        sessionId: "s1",
        update: { sessionUpdate: "agent_message_chunk", messageId: "msg_1", content: { type: "text", text } },
      },
    });

  // Recorded: test/fixtures/golden/acp-live/codex-acp-text.native.jsonl (codex-acp 2.6.0).
  it("a chunk with no messageId saying Warning: is kept as backend.event; the model's words are the result", () => {
    const { events } = translate(`${[init(CODEX), SESSION, chunk(WARNING), said("Hello."), END].join("\n")}\n`, {
      from: "acp",
    });
    expect(events.at(-1)).toMatchObject({ status: "succeeded", result: { text: "Hello." } });
    expect(events.filter((e) => e.type === "backend.event")).toHaveLength(1);
  });

  it.each([
    ["another agent's", init("other-agent"), chunk(WARNING)],
    ["codex-acp's words of the model (a messageId)", init(CODEX), said(WARNING)],
  ])("%s Warning: chunk stays in the answer", (_case, agent, line) => {
    expect(finished([agent, SESSION, line, said("Hello."), END])).toMatchObject({
      result: { text: `${WARNING}Hello.` },
    });
  });
});
