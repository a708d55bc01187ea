// The classification table (src/core/classify.ts) is read by every native translator and by the ACP translator
// for each agent it knows: each row's example goes through every reading of its backend's words (everyone's, for a
// row of no backend) and must come out as the row's code, whichever way the backend said it.
import { describe, expect, it } from "vitest";
import type { CanonicalEvent } from "../../../src/canonical/events.js";
import { CLASSIFICATION, type ClassificationRow, type ErrorDialect } from "../../../src/backends/classification.js";
import { translate } from "../../helpers/translate.js";

/** One way an error reaches agentstream: a native stream, or an ACP agent's stdout. */
interface Reading {
  name: string;
  from: string;
  dialect?: ErrorDialect;
  /** Whether this reading has a place for the error's name or kind (rows with a `type` are fed only there). */
  carriesType: boolean;
  stream(text: string, type: string | undefined): unknown[];
}

const NEUTRAL = "the request could not be completed";

const native: Reading[] = [
  {
    name: "claude (result)",
    from: "claude",
    dialect: "claude",
    carriesType: true,
    stream: (text, type) => [
      { type: "system", subtype: "init", session_id: "s1", model: "m" },
      {
        type: "result",
        subtype: "success",
        is_error: true,
        result: text,
        session_id: "s1",
        ...(type ? { api_error_type: type } : {}),
      },
    ],
  },
  {
    name: "codex (turn.failed)",
    from: "codex",
    dialect: "codex",
    carriesType: false,
    stream: (text) => [
      { type: "thread.started", thread_id: "t1" },
      { type: "turn.started" },
      { type: "turn.failed", error: { message: text } },
    ],
  },
  {
    name: "gemini (result)",
    from: "gemini",
    dialect: "gemini",
    carriesType: true,
    stream: (text, type) => [
      { type: "init", session_id: "s1", model: "m" },
      { type: "result", status: "error", error: { ...(type ? { type } : {}), message: text }, stats: {} },
    ],
  },
  {
    name: "opencode (error)",
    from: "opencode",
    dialect: "opencode",
    carriesType: true,
    stream: (text, type) => [
      {
        type: "error",
        timestamp: 1,
        sessionID: "s1",
        error: { name: type ?? "UnknownError", data: { message: text } },
      },
    ],
  },
  {
    name: "copilot (session.error)",
    from: "copilot",
    dialect: "copilot",
    carriesType: false,
    stream: (text) => [
      { type: "session.error", data: { errorType: "query", message: text } },
      { type: "result", sessionId: "s1", exitCode: 1 },
    ],
  },
  {
    name: "atomic (message_end)",
    from: "atomic",
    dialect: "atomic",
    carriesType: false,
    stream: (text) => {
      const message = { role: "assistant", content: [], stopReason: "error", errorMessage: text };
      return [
        { type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" },
        { type: "agent_start" },
        { type: "turn_start" },
        { type: "message_start", message },
        { type: "message_end", message },
        { type: "turn_end", message },
        { type: "agent_end", messages: [message] },
        { type: "agent_settled" },
      ];
    },
  },
  {
    name: "evosci (error)",
    from: "evosci",
    dialect: "evosci",
    carriesType: false,
    stream: (text) => [{ type: "error", message: text }],
  },
];

/** An ACP agent's stdout: its initialize answer names it, its session starts, its prompt fails as it fails. */
function acp(name: string, failure: (text: string, type: string | undefined) => unknown[]) {
  return (text: string, type: string | undefined): unknown[] => [
    { jsonrpc: "2.0", id: 0, result: { protocolVersion: 1, agentInfo: { name, version: "1" } } },
    { jsonrpc: "2.0", id: 1, result: { sessionId: "s1" } },
    ...failure(text, type),
  ];
}

const rpcError = (error: Record<string, unknown>) => [{ jsonrpc: "2.0", id: 2, error }];

const overAcp: Reading[] = [
  {
    // codex-acp 0.9.5: Codex's ErrorEvent as the prompt's error, its CodexErrorInfo beside the message.
    name: "codex-acp",
    from: "acp",
    dialect: "codex",
    carriesType: true,
    stream: acp("codex-acp", (text, type) =>
      rpcError({ code: -32603, message: "Internal error", data: { message: text, codex_error_info: type ?? null } }),
    ),
  },
  {
    // codex-acp 2.6.0 (@agentclientprotocol): the thread's systemError, then Codex's words as message text (a
    // provider's error body where there is one, its type inside), the turn ended end_turn.
    name: "@agentclientprotocol/codex-acp",
    from: "acp",
    dialect: "codex",
    carriesType: true,
    stream: acp("@agentclientprotocol/codex-acp", (text, type) => {
      const update = (u: Record<string, unknown>) => ({
        jsonrpc: "2.0",
        method: "session/update",
        params: { sessionId: "s1", update: u },
      });
      const said = type === undefined ? text : JSON.stringify({ error: { message: text, type, code: null } });
      return [
        update({ sessionUpdate: "session_info_update", _meta: { codex: { threadStatus: { type: "systemError" } } } }),
        update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `${said}\n\n` } }),
        { jsonrpc: "2.0", id: 2, result: { stopReason: "end_turn" } },
      ];
    }),
  },
  {
    // The SDK's RequestError.internalError(undefined, message): "Internal error: <message>".
    name: "claude-agent-acp",
    from: "acp",
    dialect: "claude",
    carriesType: false,
    stream: acp("@agentclientprotocol/claude-agent-acp", (text) =>
      rpcError({ code: -32603, message: `Internal error: ${text}` }),
    ),
  },
  {
    name: "gemini-cli",
    from: "acp",
    dialect: "gemini",
    carriesType: false,
    stream: acp("gemini-cli", (text) => rpcError({ code: -32603, message: text })),
  },
  {
    // OpenCode 1.18: "Internal error: <message>", its NamedError's name in data.errorName.
    name: "OpenCode",
    from: "acp",
    dialect: "opencode",
    carriesType: true,
    stream: acp("OpenCode", (text, type) =>
      rpcError({
        code: -32603,
        message: `Internal error: ${text}`,
        data: { service: "session", errorName: type ?? "UnknownError" },
      }),
    ),
  },
  {
    // Copilot CLI 1.0.102: the error only as message text, the turn ended end_turn.
    name: "Copilot",
    from: "acp",
    dialect: "copilot",
    carriesType: false,
    stream: acp("Copilot", (text) => [
      {
        jsonrpc: "2.0",
        method: "session/update",
        params: {
          sessionId: "s1",
          update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `Error: ${text}` } },
        },
      },
      { jsonrpc: "2.0", id: 2, result: { stopReason: "end_turn" } },
    ]),
  },
  {
    // Qwen Code 0.24: -32603 "Internal error", the detail in data.details. No native reading: everyone's rows.
    name: "qwen-code",
    from: "acp",
    carriesType: false,
    stream: acp("qwen-code", (text) => rpcError({ code: -32603, message: "Internal error", data: { details: text } })),
  },
  {
    name: "pi-acp",
    from: "acp",
    dialect: "atomic",
    carriesType: false,
    stream: acp("pi-acp", (text) => rpcError({ code: -32603, message: `Internal error: ${text}` })),
  },
];

const READINGS = [...native, ...overAcp];

/** The readings a row applies to: its backend's (or everyone's), with a place for its type where it has one. */
function readingsOf(row: ClassificationRow): Reading[] {
  return READINGS.filter(
    (r) => (row.of === undefined || r.dialect === row.of) && (row.type === undefined || r.carriesType),
  );
}

function errorOf(reading: Reading, row: ClassificationRow): CanonicalEvent | undefined {
  const text = row.type !== undefined ? NEUTRAL : row.example;
  const lines = reading.stream(text, row.type);
  const { events } = translate(`${lines.map((l) => JSON.stringify(l)).join("\n")}\n`, {
    from: reading.from,
    end: { backendExit: { code: 1, signal: null }, stderrTail: [] },
  });
  return events.find((e) => e.type === "error");
}

const RETRYABLE_CODES = new Set(["rate_limit", "overloaded", "network"]);

describe("the classification table, through every reading", () => {
  const cases = CLASSIFICATION.flatMap((row, index) => readingsOf(row).map((reading) => ({ row, index, reading })));

  it.each(cases.map((c) => [`row ${c.index} (${c.row.of ?? "everyone"}: ${c.row.example}) via ${c.reading.name}`, c]))(
    "%s",
    (_title, { row, reading }) => {
      const error = errorOf(reading, row);
      expect(error, "an error event").toBeDefined();
      expect({
        code: (error as { code: string }).code,
        retryable: (error as { retryable: boolean }).retryable,
      }).toEqual({
        code: row.code,
        retryable: row.retryable ?? RETRYABLE_CODES.has(row.code),
      });
    },
  );

  it("only a backend's named error type gives `aborted` (a run it ends is cancelled): never its words or a status", () => {
    const aborted = CLASSIFICATION.filter((row) => row.code === "aborted");
    expect(aborted.length).toBeGreaterThan(0);
    for (const row of aborted) expect(row, row.example).toMatchObject({ type: expect.any(String) });
    for (const row of aborted) expect([row.text, row.status], row.example).toEqual([undefined, undefined]);
  });

  it("every row of a backend reaches a reading of it, native and over ACP where its agent carries it", () => {
    for (const row of CLASSIFICATION) expect(readingsOf(row).length, row.example).toBeGreaterThan(0);
    // Every known agent's reading of a backend's words is exercised beside that backend's native one.
    const dialects = new Set(overAcp.map((r) => r.dialect).filter((d) => d !== undefined));
    for (const d of dialects)
      expect(
        native.some((r) => r.dialect === d),
        d,
      ).toBe(true);
  });
});
