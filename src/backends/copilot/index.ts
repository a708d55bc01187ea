import { isObject } from "../../core/fields.js";
import type { BackendDefinition } from "../definition.js";
import { CopilotTranslator } from "./translator.js";
import { COPILOT_CATALOG } from "./native-catalog.js";

const READS_UNRULED =
  "asks no permission to read or search files, so no rule of its can name that tool (--backend-arg=--excluded-tools=TOOL hides a tool from the model)";

/**
 * GitHub Copilot CLI: `copilot --output-format json --allow-all-tools --no-ask-user --no-auto-update
 * [flags] --usage-output-file FILE -p PROMPT` (docs/protocols/copilot.md).
 */
export const copilot: BackendDefinition<"copilot", "copilot"> = {
  name: "copilot",
  displayName: "Copilot CLI",
  protocol: "copilot",
  executableNames: ["copilot"],
  binEnvVar: "AGENTSTREAM_COPILOT_BIN",
  install: "npm install -g @github/copilot",
  // SIGINT aborts the turn and exits 0 (often without its result line); agentstream says cancelled, 130.
  // It stops the running shell command too (it and its children are in the process group).
  stopSignal: "SIGINT",
  terminalTypes: new Set(["result"]),
  nativeCatalog: COPILOT_CATALOG,
  // Its session events' dotted types (session.*, assistant.*, tool.*, model.*, ...): no other backend writes
  // them (Codex's dotted types are thread.*, turn.* and item.*). A failed run may show only session.error.
  nativeTypes: new Set(Object.keys(COPILOT_CATALOG).filter((type) => type.includes("."))),
  // Its result line, the one without a session event's shape, is the only `result` with a numeric exitCode
  // (Claude Code's has a subtype, Gemini CLI's a status), and its abort a session event's data object: a
  // stream cut down to either is still Copilot CLI's.
  claims: (event) =>
    (event.type === "result" && typeof event.exitCode === "number") || (event.type === "abort" && isObject(event.data)),
  flags: { model: "--model", workdir: "-C" },
  refusalHints: {
    provider:
      "Copilot CLI takes its provider from the environment: COPILOT_PROVIDER_BASE_URL, COPILOT_PROVIDER_TYPE (openai, azure, anthropic) and COPILOT_PROVIDER_API_KEY (copilot help providers)",
    noAutoMode:
      "copilot -p runs without asking (agentstream passes --allow-all-tools --no-ask-user); narrow what it may do with --backend-arg=--deny-tool=TOOL or --backend-arg=--available-tools=TOOLS",
  },
  writesUsageFile: true,
  // docs/protocols/copilot.md "Permissions and resume" (copilot --help, copilot help permissions, 1.0.102).
  permissions: {
    // Reading needs no permission in Copilot CLI; write(...) covers its edit and create tools.
    tools: { shell: "shell", write: "write", edit: "write", web_fetch: "url" },
    // Its rules name kinds: "bash" alone is read as an MCP server's name and denies nothing (1.0.102, live).
    ruleKinds: {
      bash: { native: "shell" },
      create: { native: "write" },
      edit: { native: "write" },
      apply_patch: { native: "write" },
      str_replace_editor: { native: "write" },
      web_fetch: { native: "url" },
      ...Object.fromEntries(["view", "glob", "grep", "rg"].map((name) => [name, { lacks: READS_UNRULED }])),
    },
    allow: { native: "--allow-tool=NAME (then without --allow-all-tools)" },
    deny: { native: "--deny-tool=NAME (denial wins over --allow-all-tools)" },
    argumentPrefix: true,
    approvals: { auto: "--allow-all-tools (agentstream's default for it)" },
    approvalsLack:
      "cannot stop for input in -p mode (agentstream passes --no-ask-user): a call it may not make is refused and the run ends needs_input",
    resume: { native: "--resume=SESSION" },
  },
  argv: (request) => [
    "--output-format",
    "json",
    // Headless: no tool approval prompts (they would wait forever), no questions, no self-update.
    // An allow list means only what it names; without one (or with --approvals auto), every tool runs.
    ...(request.permissions?.allowTools.length && request.permissions.approvals !== "auto"
      ? []
      : ["--allow-all-tools"]),
    ...(request.permissions?.allowTools ?? []).map((rule) => `--allow-tool=${rule}`),
    ...(request.permissions?.denyTools ?? []).map((rule) => `--deny-tool=${rule}`),
    ...(request.permissions?.resume !== undefined ? [`--resume=${request.permissions.resume}`] : []),
    "--no-ask-user",
    "--no-auto-update",
    ...(request.model !== undefined ? ["--model", request.model] : []),
    // It changes into the directory before anything else.
    ...(request.workdir !== undefined ? ["-C", request.workdir] : []),
    ...(request.usageFile !== undefined ? ["--usage-output-file", request.usageFile] : []),
    ...request.backendArgs,
    // `-p VALUE` would read a VALUE starting with "-" as a flag; `--prompt=VALUE` keeps it whole.
    `--prompt=${request.prompt}`,
  ],
  promptTerminator: () => false,
  // `run --transport acp` (docs/protocols/acp.md).
  acpMode: { args: ["--acp"], model: "--model" },
  createTranslator: () => new CopilotTranslator(),
};
