import type { Backend, Detection } from "../canonical/events.js";
import type { NativeEvent } from "./translator.js";

/** Which backend wrote a stream, and how sure we are (run.started.detection). */
export interface Verdict {
  backend: Backend;
  detection: Detection;
}

// Atomic and pi (its upstream) share one protocol and always open with the session header.
const ATOMIC_FAMILY_TYPES = new Set(["session", "agent_start", "agent_end", "agent_settled", "turn_start", "turn_end", "message_start", "message_update", "message_end", "tool_execution_start", "tool_execution_update", "tool_execution_end", "auto_retry_start", "auto_retry_end", "compaction_start", "compaction_end"]);
const EVOSCI_TYPES = new Set(["thinking", "text", "tool_call", "tool_result", "subagent_start", "subagent_text", "subagent_tool_call", "subagent_tool_result", "subagent_end", "model_retry", "usage_stats", "tool_selection", "summarization_start", "summarization", "interrupt", "ask_user", "error", "done", "panel_dispatch_start", "panel_dispatch_complete", "panel_dispatch_error"]);
// Types only Atomic writes (pi has no model fallback).
const ATOMIC_ONLY_TYPES = new Set(["model_changed", "model_fallback_start", "model_fallback_end", "agent_continue_error"]);

export function isAtomicFamily(type: string): boolean {
  return ATOMIC_FAMILY_TYPES.has(type) || ATOMIC_ONLY_TYPES.has(type);
}

/**
 * Tells the backend from what a stream carries, one event at a time. The
 * protocol family shows in the first known event; pi and Atomic then differ
 * only in fields one of them adds (the captures of pi 0.73.1, 0.84.x, 1.6.0
 * and Atomic 0.9.15 in the shared samples and test/fixtures/live).
 */
export class BackendDetector {
  private family: "evosci" | "atomic" | undefined;
  private verdict: Verdict | undefined;
  private sawAgentEnd = false;
  private sawSettled = false;
  /** Events with the canonical envelope seen before the backend showed: agentstream's own output, not a native stream. */
  canonicalEvents = 0;

  /** The verdict, once the content decided it. */
  get decided(): Verdict | undefined {
    return this.verdict;
  }

  /** Whether any event had a native type of a backend we know. */
  get showedNative(): boolean {
    return this.family !== undefined || this.verdict !== undefined;
  }

  /** The family the content showed, if any (without deciding pi or Atomic). */
  get protocolFamily(): "evosci" | "atomic" | undefined {
    return this.family;
  }

  /** Look at one event; returns the verdict once the content decides it. */
  see(event: NativeEvent): Verdict | undefined {
    if (this.verdict) return this.verdict;
    if (this.family === undefined) {
      // agentstream's own output shares type names ("error") with EvoSci: it decides nothing.
      if (isCanonical(event)) {
        this.canonicalEvents++;
        return undefined;
      }
      if (EVOSCI_TYPES.has(event.type)) {
        this.family = "evosci";
        return (this.verdict = { backend: "evosci", detection: "detected" });
      }
      if (isAtomicFamily(event.type)) this.family = "atomic";
      else return undefined;
    }
    const backend = piOrAtomic(event, this.sawAgentEnd);
    if (event.type === "agent_end") this.sawAgentEnd = true;
    if (event.type === "agent_settled") this.sawSettled = true;
    return backend ? (this.verdict = { backend, detection: "detected" }) : undefined;
  }

  /**
   * The content did not decide (the stream ended, or what detection may hold
   * is spent): the best guess, the protocol family. A stream that ended after
   * agent_end with no agent_settled is pi 0.73's shape (or a run cut short).
   */
  guess(ended: boolean): Verdict {
    if (this.verdict) return this.verdict;
    if (this.family !== "atomic") return { backend: "evosci", detection: "guessed" };
    return { backend: ended && this.sawAgentEnd && !this.sawSettled ? "pi" : "atomic", detection: "guessed" };
  }
}

/** pi or Atomic, when this event of their shared protocol shows it. */
function piOrAtomic(e: NativeEvent, sawAgentEnd: boolean): "pi" | "atomic" | undefined {
  if (ATOMIC_ONLY_TYPES.has(e.type)) return "atomic";
  switch (e.type) {
    case "message_update": {
      // pi 0.73 copies the whole message (and a `partial`) into every update; pi >= 0.84.4 names the call at toolcall_start.
      const update = record(e.assistantMessageEvent);
      if ("message" in e || (update && "partial" in update)) return "pi";
      if (update?.type === "toolcall_start" && ("id" in update || "toolName" in update)) return "pi";
      return undefined;
    }
    case "message_start":
    case "message_end":
    case "turn_end":
      return piMessage(record(e.message)) ? "pi" : undefined;
    case "tool_execution_end":
      return "durationMs" in e ? "pi" : undefined; // pi 1.6
    case "agent_end":
      return "willRetry" in e ? "pi" : undefined; // pi >= 0.84; Atomic drops it
    case "agent_settled":
      // pi 1.6 says `aborted`; pi 0.84 would have said willRetry at agent_end; pi 0.73 has no agent_settled.
      if ("aborted" in e) return "pi";
      return sawAgentEnd ? "atomic" : undefined;
    case "compaction_end": {
      const result = record(e.result);
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

function isCanonical(e: NativeEvent): boolean {
  return e.v === 1 && typeof e.seq === "number" && typeof e.run_id === "string";
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
