import type { NativeCatalog } from "../definition.js";

const PART = ["type", "timestamp", "part", "sessionID"];

/** OpenCode `run --format json` (docs/protocols/opencode.md): what OpenCodeTranslator reads of each line. */
export const OPENCODE_CATALOG: NativeCatalog = {
  step_start: PART,
  text: PART,
  reasoning: PART,
  tool_use: PART,
  step_finish: PART,
  error: ["type", "timestamp", "error", "sessionID"],
  // Newer releases' last line, kept whole as backend.event.
  done: [],
};
