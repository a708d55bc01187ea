import type { NativeCatalog } from "../definition.js";

const EVENT = ["type", "timestamp", "data"];

/** Copilot CLI `--output-format json` (docs/protocols/copilot.md): what CopilotTranslator reads of each line. */
export const COPILOT_CATALOG: NativeCatalog = {
  "session.start": EVENT,
  "assistant.turn_start": EVENT,
  "assistant.turn_end": EVENT,
  "model.call_start": EVENT,
  "assistant.message_delta": EVENT,
  "assistant.reasoning_delta": EVENT,
  "assistant.reasoning": EVENT,
  "assistant.message": EVENT,
  "tool.execution_start": EVENT,
  "tool.execution_complete": EVENT,
  "tool.shell_output": EVENT,
  "model.call_failure": EVENT,
  "session.info": EVENT,
  "assistant.turn_retry": EVENT,
  "model.call_finished": EVENT,
  "assistant.usage": EVENT,
  "session.error": EVENT,
  abort: EVENT,
  result: ["type", "timestamp", "exitCode", "sessionId", "usage"],
  // Dropped as noise (the translator's DROPPED): nothing of them is lost that another line does not say.
  "user.message": [],
  "session.background_tasks_changed": [],
  "assistant.tool_call_delta": [],
  "tool.execution_partial_result": [],
  "assistant.message_start": [],
  // Start-up notices and bookkeeping, kept whole as backend.event.
  "session.skills_loaded": [],
  "session.mcp_servers_loaded": [],
  "session.tools_updated": [],
  "model.call_final_result": [],
  "assistant.idle": [],
  "system.notification": [],
  "agent.interrupted": [],
};
