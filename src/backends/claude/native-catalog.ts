import type { NativeCatalog } from "../definition.js";

/**
 * Claude Code stream-json (docs/protocols/claude.md): what ClaudeTranslator reads
 * of each line, over all of a type's subtypes (`system/init`, `system/api_retry`, …).
 * Not read on purpose: `written_at` (`system` and `result`, since 2.1.335), the time
 * Claude wrote the line; other lines carry none, and agentstream stamps its own `ts`.
 */
export const CLAUDE_CATALOG: NativeCatalog = {
  system: [
    "type",
    "subtype",
    "session_id",
    "cwd",
    "tools",
    "status",
    "compact_metadata",
    "attempt",
    "max_retries",
    "retry_delay_ms",
    "error",
    "error_status",
    "tool_use_id",
    "tool_name",
    "message",
    "parent_tool_use_id",
  ],
  stream_event: ["type", "event", "api_message_id", "abandoned_blocks", "parent_tool_use_id"],
  assistant: ["type", "message", "aborted", "is_api_error_message", "error", "api_error_status", "parent_tool_use_id"],
  user: ["type", "message", "isSynthetic", "tool_use_result", "parent_tool_use_id"],
  result: [
    "type",
    "subtype",
    "is_error",
    "result",
    "errors",
    "permission_denials",
    "terminal_reason",
    "usage",
    "modelUsage",
    "total_cost_usd",
    "subagent_stats",
  ],
  // Documented, kept whole as backend.event.
  tool_progress: [],
  tool_use_summary: [],
  rate_limit_event: [],
  auth_status: [],
  prompt_suggestion: [],
};
