// Claude Code can write two sessions into one stream (a second system/init
// after a result). The stream is one run: run.finished says how many sessions
// it held and takes the outcome, answer and usage from the last one; stderr
// says so in one line. The golden fixture claude/two-sessions holds the whole stream.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { CanonicalEvent, EventOf } from "../../../../src/canonical/events.js";
import { runCli } from "../../../helpers/cli.js";
import { translate } from "../../../helpers/translate.js";

const TWO_SESSIONS = fileURLToPath(
  new URL("../../../fixtures/golden/claude/two-sessions.native.jsonl", import.meta.url),
);
const STAND_IN = fileURLToPath(new URL("../../../fixtures/backends/stand-in.mjs", import.meta.url));

/** One session in Claude Code's stream-json: init, one answer, a successful result with its usage. */
function session(id: string, answer: string, input: number, output: number, cost: number): string[] {
  return [
    { type: "system", subtype: "init", cwd: "/work", session_id: id, tools: ["Bash"], model: "claude-sonnet-4-5" },
    {
      type: "assistant",
      message: {
        id: `msg_${id}`,
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5",
        content: [{ type: "text", text: answer }],
        usage: { input_tokens: input, output_tokens: output },
      },
      parent_tool_use_id: null,
      session_id: id,
    },
    {
      type: "result",
      subtype: "success",
      is_error: false,
      result: answer,
      num_turns: 1,
      total_cost_usd: cost,
      usage: { input_tokens: input, output_tokens: output },
      session_id: id,
    },
  ].map((line) => JSON.stringify(line));
}

const finishedOf = (events: CanonicalEvent[]) => events.at(-1) as EventOf<"run.finished">;
const claude = (lines: string[]) =>
  translate(`${lines.join("\n")}\n`, { from: "claude", end: { backendExit: { code: 0, signal: null } } });

describe("Claude Code: two sessions in one stream", () => {
  it("run.finished takes the answer and usage of the last session and counts the sessions", () => {
    const { events } = claude([...session("s-1", "First.", 100, 10, 0.5), ...session("s-2", "Second.", 7, 3, 0.25)]);
    const finished = finishedOf(events);
    expect(finished.status).toBe("succeeded");
    expect(finished.result).toEqual({ text: "Second." });
    expect(finished.usage).toEqual({ input_tokens: 7, output_tokens: 3, cost_usd: 0.25, cost_source: "reported" });
    expect(finished.sessions).toBe(2);
    // Both sessions' usage events stay in the stream; the envelope keeps the first session's id.
    expect(events.filter((e) => e.type === "usage")).toHaveLength(2);
    expect(new Set(events.map((e) => e.session_id).filter(Boolean))).toEqual(new Set(["s-1"]));
  });

  it("a stream of one session has no sessions field, whatever its init lines repeat", () => {
    const one = session("s-1", "Only.", 5, 1, 0.1);
    const finished = finishedOf(claude([one[0]!, ...one]).events);
    expect(finished.sessions).toBeUndefined();
    expect(finished.usage?.input_tokens).toBe(5);
  });

  it("only a translator that knows a new session began restarts the totals: another protocol's second header is data", () => {
    const message = (input: number) => ({
      type: "message_end",
      message: {
        role: "assistant",
        content: [{ type: "text", text: "hi" }],
        usage: { input, output: 1, totalTokens: input + 1 },
        stopReason: "stop",
      },
    });
    const atomic = [
      { type: "session", id: "s-1", version: 3, cwd: "/work" },
      message(5),
      { type: "session", id: "s-2", version: 3, cwd: "/work" },
      message(7),
    ].map((line) => JSON.stringify(line));
    const finished = finishedOf(
      translate(`${atomic.join("\n")}\n`, { from: "atomic", end: { backendExit: { code: 0, signal: null } } }).events,
    );
    expect(finished.usage).toMatchObject({ input_tokens: 12, output_tokens: 2 });
    expect(finished.sessions).toBeUndefined();
  });

  it("normalize says on stderr, in one line, that the outcome is the last session's", async () => {
    const result = await runCli(["normalize", "--from", "claude", "--backend-exit", "1", TWO_SESSIONS]);
    expect(result.code).toBe(75);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /· ✖ failed \(time unknown: the recording does not time its events\): rate limited, worth retrying · rate_limit: API Error: 429 Rate limit exceeded · exit 75$/,
    );
    expect(lines[1]).toBe(
      "agentstream: the stream held 2 backend sessions: status, answer and usage are the last one's",
    );
    // The protocol notes quote the line, the traps (docs/backends.md) and the contract name the field.
    const notes = readFileSync(new URL("../../../../docs/protocols/claude.md", import.meta.url), "utf8").replace(
      /\s+/g,
      " ",
    );
    expect(notes).toContain(lines[1]!.replace(/^agentstream: /, ""));
    const traps = readFileSync(new URL("../../../../docs/backends.md", import.meta.url), "utf8");
    expect(traps).toContain("**One file can hold two sessions**");
    const contract = readFileSync(new URL("../../../../docs/canonical-stream.md", import.meta.url), "utf8");
    expect(contract).toContain("`run.finished.sessions`");
  });

  it("run says it too, after its summary", async () => {
    const result = await runCli(["run", "--backend", "claude", "--bin", STAND_IN, "--", "hi"], {
      env: { STANDIN_TRANSCRIPT: TWO_SESSIONS, STANDIN_END: "exit:1" },
    });
    expect(result.code).toBe(75);
    expect(result.stderr.trimEnd().split("\n").at(-1)).toBe(
      "agentstream: the stream held 2 backend sessions: status, answer and usage are the last one's",
    );
  });
});
