import type { BackendDefinition } from "../definition.js";
import { GeminiTranslator } from "./translator.js";
import { GEMINI_CATALOG } from "./native-catalog.js";
import { denyPolicy } from "./policy.js";

/** Gemini CLI: `gemini --output-format stream-json --prompt=PROMPT` (docs/protocols/gemini.md). */
export const gemini: BackendDefinition<"gemini", "gemini"> = {
  name: "gemini",
  displayName: "Gemini CLI",
  protocol: "gemini",
  executableNames: ["gemini"],
  binEnvVar: "AGENTSTREAM_GEMINI_BIN",
  install: "npm install -g @google/gemini-cli",
  // It exits 0 on either signal without its result; SIGTERM to its process group stops the relaunched child too.
  stopSignal: "SIGTERM",
  terminalTypes: new Set(["result"]),
  nativeCatalog: GEMINI_CATALOG,
  // Its stream always opens with init, a type no other backend writes.
  nativeTypes: new Set(["init"]),
  // A stream cut short of its init still shows in its result's status (Claude Code's result has a subtype,
  // Copilot CLI's an exitCode) and its error's severity (EvoScientist's and Codex's have none).
  claims: (event) =>
    (event.type === "result" && (event.status === "success" || event.status === "error")) ||
    (event.type === "error" && (event.severity === "error" || event.severity === "warning")),
  flags: { model: "--model" },
  refusalHints: { provider: "Gemini CLI picks the API from its auth settings (~/.gemini/settings.json)" },
  // docs/protocols/gemini.md "Permissions and resume" (gemini --help, 0.61.0).
  permissions: {
    tools: {
      shell: "run_shell_command",
      read: "read_file",
      write: "write_file",
      edit: "replace",
      web_fetch: "web_fetch",
      web_search: "google_web_search",
    },
    // Deprecated in 0.61 for the policy engine, still honoured: these run without confirmation.
    allow: { native: "--allowed-tools NAME" },
    // Its policy engine: a user policy file agentstream writes for the run, one deny rule per tool.
    deny: { native: "--policy FILE (a rule with decision deny per tool, in a file agentstream writes)" },
    rulesFile: (asked) =>
      asked.denyTools.length > 0 ? { text: denyPolicy(asked.denyTools), extension: "toml" } : undefined,
    argumentPrefix: false,
    approvals: { auto: "--approval-mode yolo" },
    approvalsLack:
      "refuses a call that needs approval in headless mode: the run never stops for input, a refused call ends it needs_input (--approvals auto is its yolo mode)",
    resume: { native: "--resume SESSION" },
  },
  argv: (request) => [
    "--output-format",
    "stream-json",
    ...(request.model !== undefined ? ["--model", request.model] : []),
    ...(request.permissions?.resume !== undefined ? ["--resume", request.permissions.resume] : []),
    ...(request.permissions?.allowTools ?? []).flatMap((name) => ["--allowed-tools", name]),
    ...(request.permissions?.rulesFile !== undefined ? ["--policy", request.permissions.rulesFile] : []),
    ...(request.permissions?.approvals === "auto" ? ["--approval-mode", "yolo"] : []),
    ...request.backendArgs,
    // `-p VALUE` reads a VALUE starting with "-" as a flag; `--prompt=VALUE` keeps it whole.
    `--prompt=${request.prompt}`,
  ],
  promptTerminator: () => false,
  // `run --transport acp` (docs/protocols/acp.md).
  acpMode: { args: ["--acp"], model: "--model" },
  createTranslator: () => new GeminiTranslator(),
};
