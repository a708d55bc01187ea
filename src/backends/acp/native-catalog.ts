import { JSON_RPC_ERROR, JSON_RPC_RESULT } from "../../core/native-line.js";
import type { NativeCatalog } from "../definition.js";

/**
 * An ACP agent's stdout (docs/protocols/acp.md): what AcpTranslator reads of each JSON-RPC message,
 * by the type it is read as (a request or notification by its method, a response as a result or an error).
 */
export const ACP_CATALOG: NativeCatalog = {
  [JSON_RPC_RESULT]: ["jsonrpc", "id", "result"],
  [JSON_RPC_ERROR]: ["jsonrpc", "id", "error"],
  "session/update": ["jsonrpc", "method", "params"],
  "session/request_permission": ["jsonrpc", "id", "method", "params"],
  // A question (form elicitation), where the client declared it: input.requested of kind question.
  "elicitation/create": ["jsonrpc", "id", "method", "params"],
  // Qwen Code's own request (it goes on after "method not found"), kept whole.
  "craft/drainMidTurnQueue": [],
  // Claude Code's adapter (claude-agent-acp) tells its login state in a notification of its own, kept whole.
  "_auth/status_update": [],
  // The SDK's own notification withdrawing a request the agent sent (Claude's adapter, once the turn is cancelled,
  // withdraws its permission request): kept whole.
  "$/cancel_request": [],
};
