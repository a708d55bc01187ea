import type { NativeCatalog } from "../definition.js";

const TOOL_CALL = ["type", "id", "name", "args"];
const TOOL_RESULT = ["type", "id", "name", "content", "success"];
const SUBAGENT = ["subagent", "instance_id", "name"];
const PANEL = ["type", "eval_id", "id", "subagent_type", "description", "duration_ms", "error"];

/** EvoScientist stream-json (docs/protocols/evosci.md): what EvosciTranslator reads of each line. */
export const EVOSCI_CATALOG: NativeCatalog = {
  text: ["type", "content"],
  thinking: ["type", "content"],
  tool_call: TOOL_CALL,
  tool_result: TOOL_RESULT,
  subagent_start: ["type", "name", "description", "instance_id", "tool_call_id", "subagent"],
  subagent_text: ["type", "content", ...SUBAGENT],
  subagent_tool_call: [...TOOL_CALL, ...SUBAGENT],
  subagent_tool_result: [...TOOL_RESULT, ...SUBAGENT],
  subagent_end: ["type", "paused", ...SUBAGENT],
  panel_dispatch_start: PANEL,
  panel_dispatch_complete: PANEL,
  panel_dispatch_error: PANEL,
  model_retry: ["type", "attempt", "reason", "wait_seconds", "discarded", ...SUBAGENT],
  usage_stats: ["type", "input_tokens", "output_tokens"],
  tool_selection: ["type", "tools"],
  summarization_start: ["type"],
  summarization: ["type", "content"],
  interrupt: ["type", "interrupt_id", "action_requests", "review_configs"],
  ask_user: ["type", "interrupt_id", "questions", "tool_call_id"],
  error: ["type", "message"],
  rubric_evaluation_start: ["type"],
  rubric_evaluation_deferred: ["type"],
  rubric_evaluation: ["type", "result", "explanation"],
  done: ["type", "content", "response", "last_pass_response"],
  // Seen from 0.3.8, kept whole as backend.event.
  model_output_discarded: [],
  goal_state: [],
  memory_flush: [],
};
