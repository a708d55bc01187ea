import {
  classifyBy,
  STATUS_ROWS,
  WORD_ROWS,
  type ClassificationRow,
  type ClassifiedError,
  type ErrorClues,
} from "../core/classify.js";

export type { ClassificationRow, ClassifiedError } from "../core/classify.js";

/**
 * Whose words an error is in: a backend's own, read in its native stream and from its agent over ACP
 * (docs/protocols/acp.md "Errors"; the ACP translator knows the agent from `initialize`, acp/agents.ts).
 */
export type ErrorDialect = "claude" | "codex" | "gemini" | "opencode" | "copilot" | "atomic" | "evosci";

export interface BackendErrorClues extends ErrorClues {
  dialect?: ErrorDialect;
}

/**
 * The classification table, read in order: the first row that matches decides. A backend's named error types
 * first, then the HTTP status where there is one (a status always decides: the last status row takes any),
 * then a backend's own words, then everyone's, then Claude Code's broad error kinds. Every native translator
 * reads it in its backend's words, and the ACP translator in those of the agent that answered `initialize`
 * (acp/agents.ts). Each row's `example` goes through every reading of it in test/unit/backends/classification-table.test.ts.
 */
export const CLASSIFICATION: readonly ClassificationRow[] = [
  // Codex over ACP: codex-acp passes Codex's CodexErrorInfo on as `data.codex_error_info` (snake_case names).
  { of: "codex", type: "server_overloaded", code: "overloaded", example: "server_overloaded" },
  { of: "codex", type: "response_stream_disconnected", code: "network", example: "response_stream_disconnected" },
  {
    of: "codex",
    type: "response_stream_connection_failed",
    code: "network",
    example: "response_stream_connection_failed",
  },
  { of: "codex", type: "context_window_exceeded", code: "context_length", example: "context_window_exceeded" },
  { of: "codex", type: "usage_limit_exceeded", code: "provider", retryable: false, example: "usage_limit_exceeded" },
  { of: "codex", type: "unauthorized", code: "auth", example: "unauthorized" },
  // codex-acp 2.6.0 tells a provider's refusal as its body alone (no "unexpected status 400"): OpenAI's error type
  // for a request it will not take.
  { of: "codex", type: "invalid_request_error", code: "provider", retryable: false, example: "invalid_request_error" },
  // Gemini CLI: the result's `error.type`, its Fatal*Error class.
  { of: "gemini", type: "FatalAuthenticationError", code: "auth", example: "FatalAuthenticationError" },
  { of: "gemini", type: "FatalTurnLimitedError", code: "budget", example: "FatalTurnLimitedError" },
  // The user stopped it (docs/canonical-stream.md: the run ends cancelled).
  { of: "gemini", type: "FatalCancellationError", code: "aborted", example: "FatalCancellationError" },
  // OpenCode: its NamedError's `name` (over ACP, `data.errorName`).
  { of: "opencode", type: "ProviderAuthError", code: "auth", example: "ProviderAuthError" },
  { of: "opencode", type: "ContextOverflowError", code: "context_length", example: "ContextOverflowError" },
  { of: "opencode", type: "MessageAbortedError", code: "aborted", example: "MessageAbortedError" },

  ...STATUS_ROWS,
  // Gemini CLI's own turn limit (maxSessionTurns), as an error line.
  {
    of: "gemini",
    text: /^Maximum session turns exceeded/i,
    code: "budget",
    example: "Maximum session turns exceeded for this session. Increase the number in settings.json.",
  },
  // Codex: its words for an overload (in place of a 500's body; a model at capacity), and for the connection to the
  // model broken mid-answer (its retries ran out).
  {
    of: "codex",
    text: /^We[’']re currently experiencing high demand/,
    code: "overloaded",
    example: "We’re currently experiencing high demand, which may cause temporary errors.",
  },
  {
    of: "codex",
    text: /^Selected model is at capacity\b/,
    code: "overloaded",
    example: "Selected model is at capacity. Please try a different model.",
  },
  {
    of: "codex",
    text: /^stream (?:disconnected|closed) before (?:completion|response\.completed)/,
    code: "network",
    example:
      "stream disconnected before completion: error sending request for url (https://chatgpt.com/backend-api/codex/responses)",
  },

  ...WORD_ROWS,
  // Claude Code: the SDK's SDKAssistantMessageError kind (an assistant line's `error`, a result's `api_error_type`),
  // a broad one (server_error beside a 503): last, where neither a status nor the words said more.
  ...["authentication_failed", "oauth_org_not_allowed", "account_on_hold", "verification_required"].map(
    (type): ClassificationRow => ({ of: "claude", type, code: "auth", example: type }),
  ),
  { of: "claude", type: "cloud_credential_error", code: "auth", example: "cloud_credential_error" },
  { of: "claude", type: "rate_limit", code: "rate_limit", example: "rate_limit" },
  { of: "claude", type: "overloaded", code: "overloaded", example: "overloaded" },
  { of: "claude", type: "server_error", code: "provider", retryable: true, example: "server_error" },
];

/** A backend's error, classified by the table in its words (`unknown` where no row matches). */
export function classifyError(message: string, clues: BackendErrorClues = {}): ClassifiedError {
  return classifyBy(CLASSIFICATION, message, clues);
}
