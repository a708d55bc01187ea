import type { Backend } from "../canonical/events.js";
import { AtomicTranslator } from "./atomic.js";
import { isAtomicFamily } from "./detect.js";
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

/**
 * The protocol family of a stream, judged from its first JSON event: "atomic"
 * stands for Atomic and pi alike (BackendDetector tells them apart by content).
 */
export function detectBackend(first: NativeEvent): Backend {
  return isAtomicFamily(first.type) ? "atomic" : "evosci";
}
