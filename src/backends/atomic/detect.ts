import { isObject } from "../../core/fields.js";
import type { NativeEvent } from "../../core/translator.js";
import type { MemberDetector } from "../definition.js";

// Atomic and pi (its upstream) share one protocol and always open with the session header.
export const JSON_MODE_TYPES: ReadonlySet<string> = new Set([
  "session",
  "agent_start",
  "agent_end",
  "agent_settled",
  "turn_start",
  "turn_end",
  "message_start",
  "message_update",
  "message_end",
  "tool_execution_start",
  "tool_execution_update",
  "tool_execution_end",
  "auto_retry_start",
  "auto_retry_end",
  "compaction_start",
  "compaction_end",
  // Types only Atomic writes (pi has no model fallback).
  "model_changed",
  "model_fallback_start",
  "model_fallback_end",
  "agent_continue_error",
]);
const ATOMIC_ONLY_TYPES = new Set([
  "model_changed",
  "model_fallback_start",
  "model_fallback_end",
  "agent_continue_error",
]);

/**
 * pi or Atomic, from fields only one of them writes (the captures of pi
 * 0.73.1, 0.84.x, 1.6.0 and Atomic 0.9.15 in the shared samples and
 * test/fixtures/live).
 */
export class PiOrAtomic implements MemberDetector {
  private sawAgentEnd = false;
  private sawSettled = false;

  see(event: NativeEvent): string | undefined {
    const backend = piOrAtomic(event, this.sawAgentEnd);
    if (event.type === "agent_end") this.sawAgentEnd = true;
    if (event.type === "agent_settled") this.sawSettled = true;
    return backend;
  }

  /** A stream that ended after agent_end with no agent_settled is pi 0.73's shape (or a run cut short). */
  guess(ended: boolean): string {
    return ended && this.sawAgentEnd && !this.sawSettled ? "pi" : "atomic";
  }
}

function piOrAtomic(e: NativeEvent, sawAgentEnd: boolean): "pi" | "atomic" | undefined {
  if (ATOMIC_ONLY_TYPES.has(e.type)) return "atomic";
  switch (e.type) {
    case "message_update": {
      // pi 0.73 copies the whole message (and a `partial`) into every update; pi >= 0.84.4 names the call at toolcall_start.
      const update = isObject(e.assistantMessageEvent) ? e.assistantMessageEvent : undefined;
      if ("message" in e || (update && "partial" in update)) return "pi";
      if (update?.type === "toolcall_start" && ("id" in update || "toolName" in update)) return "pi";
      return undefined;
    }
    case "message_start":
    case "message_end":
    case "turn_end":
      return piMessage(isObject(e.message) ? e.message : undefined) ? "pi" : undefined;
    case "tool_execution_end":
      return "durationMs" in e ? "pi" : undefined; // pi 1.6
    case "agent_end":
      return "willRetry" in e ? "pi" : undefined; // pi >= 0.84; Atomic drops it
    case "agent_settled":
      // pi 1.6 says `aborted`; pi 0.84 would have said willRetry at agent_end; pi 0.73 has no agent_settled.
      if ("aborted" in e) return "pi";
      return sawAgentEnd ? "atomic" : undefined;
    case "compaction_end": {
      const result = isObject(e.result) ? e.result : undefined;
      if (result && "compactedText" in result) return "atomic";
      if (result && "summary" in result) return "pi";
      return undefined;
    }
    default:
      return undefined;
  }
}

/** pi 1.6 writes system messages and times its messages. */
function piMessage(message: Record<string, unknown> | undefined): boolean {
  if (!message) return false;
  return message.role === "system" || "durationMs" in message || "thinkingLevel" in message;
}
