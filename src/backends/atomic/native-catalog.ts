import type { NativeCatalog } from "../definition.js";

const TOOL = ["type", "toolCallId", "toolName"];
const RETRY = ["type", "attempt", "maxAttempts", "delayMs", "errorMessage"];
const RETRY_END = ["type", "attempt", "success", "finalError"];

/** Atomic and pi `--mode json` (the protocol reference): what AtomicTranslator reads of each line. */
export const ATOMIC_CATALOG: NativeCatalog = {
  session: ["type", "id", "version", "cwd", "timestamp"],
  agent_start: ["type"],
  agent_end: ["type", "willRetry"],
  agent_settled: ["type", "aborted"],
  turn_start: ["type"],
  turn_end: ["type", "message"],
  message_start: ["type", "message"],
  message_update: ["type", "assistantMessageEvent"],
  message_end: ["type", "message"],
  tool_execution_start: [...TOOL, "args"],
  tool_execution_update: [...TOOL, "partialResult"],
  tool_execution_end: [...TOOL, "result", "isError", "durationMs"],
  auto_retry_start: RETRY,
  auto_retry_end: RETRY_END,
  summarization_retry_scheduled: RETRY,
  summarization_retry_finished: RETRY_END,
  compaction_start: ["type", "reason"],
  compaction_end: ["type", "willRetry"],
  auto_compaction_start: ["type", "reason"],
  auto_compaction_end: ["type", "willRetry"],
  model_changed: ["type"],
  model_fallback_start: ["type", "from", "to"],
  model_fallback_end: ["type", "from", "to", "success", "finalError"],
  queue_update: ["type", "steering", "followUp"],
  session_info_changed: ["type", "name"],
  thinking_level_changed: ["type", "level"],
  agent_continue_error: ["type", "errorMessage"],
  // In the reference, kept whole as backend.event.
  summarization_retry_attempt_start: [],
  entry_appended: [],
  bash_execution_update: [],
};
