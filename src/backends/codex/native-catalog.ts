import type { NativeCatalog } from "../definition.js";

/** Codex `exec --json` (docs/protocols/codex.md): what CodexTranslator reads of each line (an item's own fields are its kind's). */
export const CODEX_CATALOG: NativeCatalog = {
  "thread.started": ["type", "thread_id"],
  "turn.started": ["type"],
  "turn.completed": ["type", "usage"],
  "turn.failed": ["type", "error"],
  "item.started": ["type", "item"],
  "item.updated": ["type", "item"],
  "item.completed": ["type", "item"],
  error: ["type", "message"],
  // Defined by its source, kept whole as backend.event.
  "item.plan.delta": [],
  request_user_input: [],
};
