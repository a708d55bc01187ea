import type { ClientCapabilities } from "@agentclientprotocol/sdk";

/**
 * What agentstream declares to an ACP agent in `initialize` (clientCapabilities), and how long a run waits for
 * `session/close`. docs/protocols/acp.md "What agentstream speaks" lists each capability and method against ACP's
 * v1 schema; test/unit/backends/acp-capabilities.test.ts holds this object to that table.
 */
export const CLIENT_CAPABILITIES: ClientCapabilities = {
  fs: { readTextFile: false, writeTextFile: false },
  terminal: false,
  // Each mapped (src/backends/acp/translator.ts): notices kept as data or read as a retry, compactions as compaction.*.
  session: { notices: {}, compaction: {} },
  // Only where the run offers questions (clientCapabilities): never URL elicitation (it would open a browser).
  elicitation: { form: {} },
};

/**
 * What one run declares: CLIENT_CAPABILITIES, less form elicitation where it offers no questions (no one can
 * answer one and --questions pending was not asked): an agent then does not ask (Claude's adapter removes its
 * AskUserQuestion tool), as before questions were answered.
 */
export function clientCapabilities(offersQuestions: boolean): ClientCapabilities {
  if (offersQuestions) return CLIENT_CAPABILITIES;
  const { elicitation: _none, ...rest } = CLIENT_CAPABILITIES;
  return rest;
}

/** An agent that never answers session/close is not waited for longer than this: the run ends as it would have. */
export const CLOSE_WAIT_MS = 2000;

/** Whether the agent's initialize response declares `session/close` (agentCapabilities.sessionCapabilities.close, `{}`). */
export function closesSessions(init: unknown): boolean {
  const caps = (init as { agentCapabilities?: { sessionCapabilities?: { close?: unknown } } } | null)
    ?.agentCapabilities;
  const close = caps?.sessionCapabilities?.close;
  return typeof close === "object" && close !== null && !Array.isArray(close);
}
