import { UsageError } from "../../core/errors.js";
import type { BackendDefinition } from "../definition.js";
import { ACP_CATALOG } from "./native-catalog.js";
import { AcpTranslator } from "./translator.js";

/** Why `run --backend acp` is refused for now: its client (the driver over stdin/stdout) is not wired in yet. */
const NOT_YET =
  "ACP agents are read from a recording with `agentstream normalize --from acp FILE` until the live ACP driver lands (docs/protocols/acp.md says how to record a run)";
/** The same, where a table shows it beside the other backends' means. */
const NOT_YET_SHORT = "not yet: recordings only (normalize --from acp)";

/**
 * Any agent that speaks the Agent Client Protocol (JSON-RPC 2.0 over stdio; docs/protocols/acp.md):
 * Gemini CLI `--acp`, OpenCode `acp`, Copilot CLI `--acp`, Qwen Code `--acp`, and adapters. Its stdout
 * as written (responses, notifications, the agent's requests) is read by `normalize --from acp`.
 */
export const acp: BackendDefinition<"acp", "acp"> = {
  name: "acp",
  displayName: "ACP agent",
  protocol: "acp",
  executableNames: [],
  binEnvVar: "AGENTSTREAM_ACP_BIN",
  install: "any agent that speaks ACP (gemini --acp, opencode acp, copilot --acp, qwen --acp)",
  // ACP ends a turn with session/cancel; the process ends when its stdin closes.
  stopSignal: "SIGTERM",
  // The prompt's response (a result with a stopReason, or an error) ends the run: a result or an error.
  terminalTypes: new Set(),
  nativeCatalog: ACP_CATALOG,
  // Every line is a JSON-RPC 2.0 message: no other protocol agentstream reads writes `"jsonrpc":"2.0"`.
  claims: (event) => event.jsonrpc === "2.0",
  flags: {},
  refusalHints: { model: NOT_YET, provider: NOT_YET, workdir: NOT_YET, noAutoMode: NOT_YET },
  permissions: {
    tools: {},
    allow: { lacks: NOT_YET_SHORT },
    deny: { lacks: NOT_YET_SHORT },
    argumentPrefix: false,
    approvals: {},
    approvalsLack: NOT_YET_SHORT,
    resume: { lacks: NOT_YET_SHORT },
  },
  argv: () => {
    throw new UsageError("run --backend acp: not yet", NOT_YET);
  },
  promptTerminator: () => false,
  createTranslator: () => new AcpTranslator(),
};
