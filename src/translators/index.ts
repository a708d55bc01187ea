import type { Backend } from "../canonical/events.js";
import { AtomicTranslator } from "./atomic.js";
import { EvosciTranslator } from "./evosci.js";
import type { NativeEvent, Translator } from "./translator.js";

export type Protocol = "evosci" | "atomic";
export type Source = Backend | "auto";

export function protocolOf(backend: Backend): Protocol {
  return backend === "evosci" ? "evosci" : "atomic";
}

export function createTranslator(backend: Backend): Translator {
  return protocolOf(backend) === "evosci" ? new EvosciTranslator() : new AtomicTranslator();
}

// Atomic and pi always open with the session header; these types are theirs alone.
const ATOMIC_TYPES = new Set(["session", "agent_start", "agent_end", "agent_settled", "turn_start", "turn_end", "message_start", "message_update", "message_end", "tool_execution_start", "tool_execution_end"]);

/** Which backend wrote this event, judged from the first JSON event of a stream. */
export function detectBackend(first: NativeEvent): Backend {
  return ATOMIC_TYPES.has(first.type) ? "atomic" : "evosci";
}
