import type { BackendDefinition } from "../definition.js";
import type { Words } from "../../core/errors.js";
import { USAGE_IN_STREAM, byDefault } from "../support.js";
import { acpDriver } from "./driver.js";
import { ACP_KINDS } from "../../policy/permission-policy.js";
import { ACP_CATALOG } from "./native-catalog.js";
import { AcpTranslator } from "./translator.js";
import { SCHEMA_IN_PROMPT } from "../schema-in-prompt.js";

/** ACP has no flag for it: the agent's own arguments (--backend-arg) choose it, where it has one. */
const NO_FLAG: Words = (name) => `ACP has no such setting: give the agent's own flag with ${name("backendArgs")}`;

const ANSWERED_LIVE = "answered live (session/request_permission)";

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
  // What the driver does with the rules (answers each session/request_permission); the rest it lacks.
  supports: {
    allowTools: byDefault(ANSWERED_LIVE),
    denyTools: byDefault(ANSWERED_LIVE),
    approvals: {
      never: byDefault("a request no rule allows ends the run needs_input"),
      auto: byDefault("allowed unless a rule denies"),
      ask: byDefault("a person at the terminal answers what no rule decides"),
    },
    approveWith: byDefault("the command answers what no rule decides"),
    questions: byDefault("form elicitation (elicitation/create), answered live"),
    // Refused after initialize (exit 2) where the agent cannot load sessions (agentCapabilities.loadSession).
    resume: byDefault("session/load SESSION"),
    model: { lacks: NO_FLAG },
    provider: { lacks: NO_FLAG },
    workdir: { lacks: (name) => `the session runs in ${name("cwd")} (session/new)` },
    autoMode: { lacks: "a request no rule allows already ends the run needs_input" },
    ...USAGE_IN_STREAM,
    usageFile: { lacks: "tells its usage over the protocol" },
    // No native means: the schema goes in the prompt; the answer is checked either way.
    outputSchema: SCHEMA_IN_PROMPT,
  },
  toolNames: {
    // Each portable name as the ACP tool kind it is matched against in a permission request.
    tools: Object.fromEntries([...ACP_KINDS].filter(([, kind]) => kind !== undefined)),
    argumentPrefix: true,
    // Answered live by agentstream's own reading of the pattern (src/policy/tool-rules.ts).
    patterns: {
      tools: ["shell", "read", "write", "edit", "web_fetch"],
      rules: (kind, pattern) => [`${kind}(${pattern})`],
    },
  },
  // The agent's own arguments only: the prompt goes over ACP (session/prompt).
  layout: (frame) => [...frame.backendArgs],
  driver: acpDriver,
  promptTerminator: () => false,
  createTranslator: () => new AcpTranslator(),
};
