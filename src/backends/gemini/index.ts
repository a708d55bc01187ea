import type { BackendDefinition } from "../definition.js";
import { USAGE_IN_STREAM } from "../support.js";
import { GeminiTranslator } from "./translator.js";
import { GEMINI_CATALOG } from "./native-catalog.js";
import { denyPolicy } from "./policy.js";
import { SCHEMA_IN_PROMPT } from "../schema-in-prompt.js";

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
  // docs/protocols/gemini.md "Permissions and resume" (gemini --help, 0.61.0).
  supports: {
    model: { via: "--model", reaches: (model) => ({ args: ["--model", model] }) },
    resume: { via: "--resume SESSION", reaches: (session) => ({ args: ["--resume", session] }) },
    // Deprecated in 0.61 for the policy engine, still honoured: these run without confirmation.
    allowTools: {
      via: "--allowed-tools NAME",
      reaches: (rules) => ({ args: rules.flatMap((name) => ["--allowed-tools", name]) }),
    },
    // Its policy engine: a user policy file agentstream writes for the run, one deny rule per tool.
    denyTools: {
      via: "--policy FILE (a rule with decision deny per tool, in a file agentstream writes)",
      reaches: (rules) => ({
        file: { name: "rules.toml", text: denyPolicy(rules), args: (path) => ["--policy", path] },
      }),
    },
    approvals: {
      auto: { via: "--approval-mode yolo", reaches: () => ({ args: ["--approval-mode", "yolo"] }) },
      never: {
        lacks: (name) =>
          `refuses a call that needs approval in headless mode: the run never stops for input, a refused call ends it needs_input (${name("approvals")} auto is its yolo mode)`,
      },
    },
    provider: { lacks: "Gemini CLI picks the API from its auth settings (~/.gemini/settings.json)" },
    workdir: { lacks: (name) => `use ${name("cwd")} DIR to choose the directory Gemini CLI runs in` },
    autoMode: {
      lacks:
        "Gemini CLI in headless mode never stops for input: a call that needs approval is refused and the run ends needs_input",
    },
    ...USAGE_IN_STREAM,
    // No native means: the schema goes in the prompt; the answer is checked either way.
    outputSchema: SCHEMA_IN_PROMPT,
  },
  toolNames: {
    tools: {
      shell: "run_shell_command",
      read: "read_file",
      write: "write_file",
      edit: "replace",
      web_fetch: "web_fetch",
      web_search: "google_web_search",
    },
    argumentPrefix: false,
  },
  layout: (frame, placed) => [
    "--output-format",
    "stream-json",
    ...placed.flags(),
    ...frame.backendArgs,
    // `-p VALUE` reads a VALUE starting with "-" as a flag; `--prompt=VALUE` keeps it whole.
    `--prompt=${frame.prompt}`,
  ],
  promptTerminator: () => false,
  // `run --transport acp` (docs/protocols/acp.md).
  acpMode: { args: ["--acp"], model: "--model" },
  createTranslator: () => new GeminiTranslator(),
};
