// Which native lines the mapping lets produce no canonical event of their own
// (the contract's mapping tables). Every other event line must yield at least one
// event whose `native` is its type.
import type { ProtocolName } from "../../../src/backends/registry.js";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

// EvoSci: summary chunks are joined into compaction.completed at the next event; done becomes run.finished.
const EVOSCI_SILENT = new Set(["summarization", "done"]);
const EVOSCI_DELTAS = new Set(["text", "thinking", "subagent_text"]);

// Atomic: agent_start/end/settled are handled without an event of their own; message_start never
// needs one (message_end carries the message).
const ATOMIC_SILENT = new Set(["agent_start", "agent_end", "agent_settled", "message_start"]);
// message_update kinds that message_end or tool_execution_start carry; start/done/error are in
// the protocol's type but never on the wire.
const ABSORBED_UPDATES = new Set([
  "text_start",
  "text_end",
  "thinking_start",
  "thinking_end",
  "toolcall_start",
  "toolcall_delta",
  "toolcall_end",
  "start",
  "done",
  "error",
]);
const DELTA_UPDATES = new Set(["text_delta", "thinking_delta"]);

/** An assistant message with a text block whose text is not empty. */
function saysSomething(message: Record<string, unknown>): boolean {
  const content = Array.isArray(message.content) ? message.content : [];
  return content.some(
    (b) => isObject(b) && b.type === "text" && b.text !== "" && b.text !== undefined && b.text !== null,
  );
}

/** True when this native event may legitimately produce no canonical event with its type as `native`. */
export function mayBeSilent(protocol: ProtocolName, event: Record<string, unknown>, deltas: boolean): boolean {
  const type = event.type as string;
  if (protocol === "evosci") return EVOSCI_SILENT.has(type) || (!deltas && EVOSCI_DELTAS.has(type));
  if (ATOMIC_SILENT.has(type)) return true;
  // An assistant message without text (only tool calls, thinking, or a failure) has no message.completed.
  if (type === "message_end")
    return !isObject(event.message) || event.message.role !== "assistant" || !saysSomething(event.message);
  if (type === "tool_execution_update") return !deltas;
  if (type === "message_update") {
    const kind = isObject(event.assistantMessageEvent) ? event.assistantMessageEvent.type : undefined;
    return typeof kind === "string" && (ABSORBED_UPDATES.has(kind) || (!deltas && DELTA_UPDATES.has(kind)));
  }
  return false;
}
