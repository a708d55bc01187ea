import type { ErrorDialect } from "../classification.js";
import { nonEmpty, objectOrEmpty } from "../../core/fields.js";
import { ownTable } from "../../core/own-table.js";

/** Who answered `initialize`: its `agentInfo` (name, title, version), as ACP agents state it. */
export interface AgentInfo {
  name: string;
  title?: string;
  version?: string;
}

/** What one agent does differently from the protocol, as observed (docs/protocols/acp.md "Each agent"). */
export interface AgentQuirks {
  /**
   * It tells a failed model call only in its message text, and ends the turn `end_turn`: a whole
   * chunk "Error: ..." is the run's error, "Info: ... Retrying..." a retry, another "Info: ..." a notice
   * (Copilot CLI 1.0.102).
   */
  errorsInText: boolean;
  /**
   * The prompt response's `usage` counts its last model call only (OpenCode 1.18.34: 40 in, 9 out after a
   * turn of two calls of 40 and 9 each): a turn of more calls has more tokens than it says.
   */
  lastCallUsage: boolean;
  /**
   * Whether it asks before a tool call: always; never (pi-acp 0.0.34 asks only for pi extensions'
   * dialogs, never for its tools); or only once the client set a mode (Claude's adapter 0.101.0
   * starts a session in "auto" where its catalog offers it, and asks in "default"; Codex's adapter 2.6.0
   * starts in "agent", and asks in "read-only").
   */
  asks: "always" | "never" | { inMode: string };
  /**
   * It ends a turn whose model call failed `end_turn` without a word (pi-acp 0.0.34 drops pi's error
   * message and answers `end_turn`, per its source): a turn with no words and no tool call failed.
   */
  silentFailures: boolean;
  /**
   * It passes its model's automatic retries on as message text (pi-acp 0.0.34 writes pi's auto_retry_start
   * as "Retrying (attempt 1/2, waiting 1s)..." and auto_retry_end as "Retry finished, resuming.").
   */
  retryNotices: boolean;
  /**
   * It tells a turn's failure as Codex's thread status (a session_info_update whose `_meta.codex.threadStatus.type`
   * is "systemError"), then the error's words as the next message chunk, and a retry as `_meta.codex.error` with
   * `willRetry` (codex-acp 2.6.0, to a client without its typed-failure extension); the turn ends `end_turn`.
   */
  codexThreadErrors?: boolean;
  /**
   * It tells a warning as a one-off message chunk with no messageId, "Warning: …" (codex-acp 2.6.0, to a client
   * that does not declare its `notices` capability), while the model's text always has one: a notice, not the answer.
   */
  warningChunks?: boolean;
  /**
   * Its errors are its native backend's words (codex-acp passes Codex's on, the Claude adapter Claude Code's):
   * they are classified as that backend's native stream's are (classify.ts), none where it has no native reading.
   */
  dialect?: ErrorDialect;
}

const NONE: AgentQuirks = {
  errorsInText: false,
  lastCallUsage: false,
  silentFailures: false,
  retryNotices: false,
  asks: "always",
};

/** Agents known by the `agentInfo.name` they state (any text: an agent named "constructor" is unknown). */
const KNOWN = ownTable<AgentQuirks>({
  Copilot: { ...NONE, errorsInText: true, dialect: "copilot" },
  OpenCode: { ...NONE, lastCallUsage: true, dialect: "opencode" },
  "pi-acp": { ...NONE, silentFailures: true, retryNotices: true, asks: "never", dialect: "atomic" },
  "@agentclientprotocol/claude-agent-acp": { ...NONE, asks: { inMode: "default" }, dialect: "claude" },
  "codex-acp": { ...NONE, dialect: "codex" },
  // codex-acp 2.6.0 starts a session in "agent" (workspace-write, its own reviewer model decides what to ask):
  // in "read-only" (approval on-request, the user reviews) a command leaving the sandbox asks the client.
  "@agentclientprotocol/codex-acp": {
    ...NONE,
    asks: { inMode: "read-only" },
    codexThreadErrors: true,
    warningChunks: true,
    dialect: "codex",
  },
  "gemini-cli": { ...NONE, dialect: "gemini" },
});

export function agentInfoOf(initializeResult: Record<string, unknown>): AgentInfo | undefined {
  const info = objectOrEmpty(initializeResult.agentInfo);
  const name = nonEmpty(info.name);
  if (name === undefined) return undefined;
  const title = nonEmpty(info.title);
  const version = nonEmpty(info.version);
  return { name, ...(title !== undefined ? { title } : {}), ...(version !== undefined ? { version } : {}) };
}

export function quirksOf(agent: AgentInfo | undefined): AgentQuirks {
  return (agent && KNOWN[agent.name]) ?? NONE;
}

/** Copilot CLI's words for a failed model call it retries, and for one it gave up on. */
export const TEXT_RETRY = /^Info: .*Retrying\.\.\.\s*$/s;
export const TEXT_ERROR = /^Error: /;
export const TEXT_NOTICE = /^Info: /;

/** codex-acp's words for a warning of Codex's ("Warning: Model metadata for `m` not found. …"). */
export const WARNING_CHUNK = /^Warning: /;

/** pi-acp's words for a retry pi starts (with its attempt, limit and delay where pi gave them) and ends. */
export const RETRY_NOTICE = /^Retrying(?: \(attempt (\d+)\/(\d+), waiting (\d+)s\))?\.\.\.$/;
export const RETRY_END_NOTICE = /^Retry finished, resuming\.$/;
