import { isObject } from "../../core/fields.js";
import type { Words } from "../../core/errors.js";
import type { BackendDefinition } from "../definition.js";
import { WATCHED, byDefault } from "../support.js";
import { CopilotTranslator } from "./translator.js";
import { COPILOT_CATALOG } from "./native-catalog.js";
import { SCHEMA_IN_PROMPT } from "../schema-in-prompt.js";

const ALLOW_ALL = "--allow-all-tools";

const USAGE_AT_EXIT = "reports its token usage only after it exited, so it cannot be stopped at a token or cost limit";

const READS_UNRULED: Words = (name) =>
  `asks no permission to read or search files, so no rule of its can name that tool (${name("backendArgs", ["--excluded-tools=TOOL"])} hides a tool from the model)`;

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
  // docs/protocols/copilot.md "Permissions and resume" (copilot --help, copilot help permissions, 1.0.102).
  supports: {
    // Headless: no tool approval prompts (they would wait forever). An allow list means only what it names;
    // without one (or with --approvals auto), every tool runs.
    allowTools: {
      via: "--allow-tool=NAME (then without --allow-all-tools)",
      reaches: (rules, { asked }) => ({
        args: [...(asked.approvals === "auto" ? [ALLOW_ALL] : []), ...rules.map((rule) => `--allow-tool=${rule}`)],
      }),
      otherwise: () => ({ args: [ALLOW_ALL] }),
    },
    denyTools: {
      via: "--deny-tool=NAME (denial wins over --allow-all-tools)",
      reaches: (rules) => ({ args: rules.map((rule) => `--deny-tool=${rule}`) }),
    },
    resume: { via: "--resume=SESSION", reaches: (session) => ({ args: [`--resume=${session}`] }) },
    model: { via: "--model", reaches: (model) => ({ args: ["--model", model] }) },
    // It changes into the directory before anything else.
    workdir: { via: "-C", reaches: (workdir) => ({ args: ["-C", workdir] }) },
    usageFile: { via: "--usage-output-file FILE", reaches: (path) => ({ args: ["--usage-output-file", path] }) },
    approvals: {
      // What allowTools passes without an allow list.
      auto: byDefault(`${ALLOW_ALL} (agentstream's default for it)`),
      never: {
        lacks:
          "cannot stop for input in -p mode (agentstream passes --no-ask-user): a call it may not make is refused and the run ends needs_input",
      },
    },
    provider: {
      lacks:
        "Copilot CLI takes its provider from the environment: COPILOT_PROVIDER_BASE_URL, COPILOT_PROVIDER_TYPE (openai, azure, anthropic) and COPILOT_PROVIDER_API_KEY (copilot help providers)",
    },
    autoMode: {
      lacks: (name) =>
        `copilot -p runs without asking (agentstream passes ${ALLOW_ALL} --no-ask-user); narrow what it may do with ${name("backendArgs", ["--deny-tool=TOOL"])} or ${name("backendArgs", ["--available-tools=TOOLS"])}`,
    },
    maxTurns: WATCHED,
    // No usage arrives while it runs, so nothing could stop it at the limit, and a limit checked only
    // afterwards would not keep the spending under it.
    maxTokens: { lacks: USAGE_AT_EXIT },
    maxCostUsd: { lacks: USAGE_AT_EXIT },
    // No native means: the schema goes in the prompt; the answer is checked either way.
    outputSchema: SCHEMA_IN_PROMPT,
  },
  toolNames: {
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
    argumentPrefix: true,
  },
  layout: (frame, placed) => [
    "--output-format",
    "json",
    ...placed.flags("allowTools", "denyTools", "resume"),
    // No questions, no self-update.
    "--no-ask-user",
    "--no-auto-update",
    ...placed.flags(),
    ...frame.backendArgs,
    // `-p VALUE` would read a VALUE starting with "-" as a flag; `--prompt=VALUE` keeps it whole.
    `--prompt=${frame.prompt}`,
  ],
  promptTerminator: () => false,
  // `run --transport acp` (docs/protocols/acp.md).
  acpMode: { args: ["--acp"], model: "--model" },
  createTranslator: () => new CopilotTranslator(),
};
