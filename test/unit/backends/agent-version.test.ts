// session.started.agent_info from native streams that name their release (issue 48): ATIF's agent.version.
import { describe, expect, it } from "vitest";
import { translate } from "../../helpers/translate.js";

const jsonl = (...lines: object[]) => Buffer.from(lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
const CLAUDE_INIT = { type: "system", subtype: "init", session_id: "s-1", cwd: "/w", tools: [] };
const COPILOT_START = { type: "session.start", data: { sessionId: "s-1", version: 1, producer: "copilot-agent" } };

describe("agent_info from a native stream's own header", () => {
  it.each([
    ["claude", { ...CLAUDE_INIT, claude_code_version: "2.1.332" }, { name: "claude-code", version: "2.1.332" }],
    ["claude", CLAUDE_INIT, undefined],
    ["claude", { ...CLAUDE_INIT, claude_code_version: "" }, undefined],
    [
      "copilot",
      { ...COPILOT_START, data: { ...COPILOT_START.data, copilotVersion: "1.0.102" } },
      { name: "copilot-cli", version: "1.0.102" },
    ],
    ["copilot", COPILOT_START, undefined],
    ["copilot", { ...COPILOT_START, data: { ...COPILOT_START.data, copilotVersion: 7 } }, undefined],
  ] as const)("%s %j: agent_info %j", (from, header, info) => {
    const started = translate(jsonl(header), { from }).events.find((e) => e.type === "session.started");
    expect(started).toBeDefined();
    expect((started as { agent_info?: unknown }).agent_info).toEqual(info);
  });
});
