import type { NativeCatalog } from "../definition.js";

/** Gemini CLI stream-json (docs/protocols/gemini.md): what GeminiTranslator reads of each line. */
export const GEMINI_CATALOG: NativeCatalog = {
  init: ["type", "timestamp", "session_id", "model"],
  message: ["type", "timestamp", "role", "content", "delta"],
  tool_use: ["type", "timestamp", "tool_id", "tool_name", "parameters"],
  tool_result: ["type", "timestamp", "tool_id", "status", "output", "error"],
  error: ["type", "timestamp", "severity", "message"],
  result: ["type", "timestamp", "status", "stats", "error"],
};
