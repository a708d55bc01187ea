import type { BackendDefinition } from "../definition.js";
import type { Words } from "../../core/errors.js";
import { USAGE_IN_STREAM, byDefault } from "../support.js";
import { EvosciTranslator } from "./translator.js";
import { EVOSCI_CATALOG } from "./native-catalog.js";
import { evosciConfigModel } from "./config-model.js";
import { SCHEMA_IN_PROMPT } from "../schema-in-prompt.js";

const CONFIG_HINT =
  "set `provider` and `model` in $XDG_CONFIG_HOME/evoscientist/config.yaml (or ~/.config/evoscientist/config.yaml)";

const NO_AUTO_MODE = "--no-auto-mode";

const NO_TOOL_RULES: Words = (name) =>
  `has no per-tool permissions: in auto mode every tool runs, with ${name("approvals")} never each call asks`;

/** EvoScientist: `EvoSci -p PROMPT --output-format stream-json`. */
export const evosci: BackendDefinition<"evosci", "evosci"> = {
  name: "evosci",
  displayName: "EvoScientist",
  protocol: "evosci",
  executableNames: ["EvoSci", "evosci", "EvoScientist", "evoscientist"],
  binEnvVar: "AGENTSTREAM_EVOSCI_BIN",
  install: "pip install EvoScientist",
  // EvoSci handles SIGINT (exit 130) and cleans up.
  stopSignal: "SIGINT",
  terminalTypes: new Set(["done", "error"]),
  nativeCatalog: EVOSCI_CATALOG,
  nativeTypes: new Set([
    "thinking",
    "text",
    "tool_call",
    "tool_result",
    "subagent_start",
    "subagent_text",
    "subagent_tool_call",
    "subagent_tool_result",
    "subagent_end",
    "model_retry",
    "usage_stats",
    "tool_selection",
    "summarization_start",
    "summarization",
    "interrupt",
    "ask_user",
    "error",
    "done",
    "panel_dispatch_start",
    "panel_dispatch_complete",
    "panel_dispatch_error",
  ]),
  // Names other formats use too: a Codex stream can open with the same {"type":"error","message"} line,
  // an unknown format can write "text" or "done". EvoSci's own fields make them its own; its error has none.
  sharedTypes: new Set(["text", "thinking", "error", "done", "tool_call", "tool_result"]),
  ownShape: (e) => {
    switch (e.type) {
      case "text":
      case "thinking":
        return typeof e.content === "string";
      case "done":
        return typeof e.response === "string" || typeof e.content === "string";
      case "tool_call":
        return typeof e.name === "string" && typeof e.args === "object" && e.args !== null;
      case "tool_result":
        return typeof e.success === "boolean";
      default:
        return false;
    }
  },
  // README "Permissions and continuing a run" (its stderr's resume hint "EvoSci --resume ID"; --no-auto-mode).
  supports: {
    autoMode: { via: NO_AUTO_MODE, reaches: () => ({ args: [NO_AUTO_MODE] }) },
    approvals: {
      // The same flag: given once.
      never: {
        via: NO_AUTO_MODE,
        reaches: (_never, { asked }) => (asked.autoMode === false ? {} : { args: [NO_AUTO_MODE] }),
      },
      auto: byDefault("auto mode (its default)"),
    },
    resume: { via: "--resume SESSION", reaches: (session) => ({ args: ["--resume", session] }) },
    workdir: { via: "--workdir (absolute)", reaches: (workdir) => ({ args: ["--workdir", workdir] }) },
    allowTools: { lacks: NO_TOOL_RULES },
    denyTools: { lacks: NO_TOOL_RULES },
    model: { lacks: CONFIG_HINT },
    provider: { lacks: CONFIG_HINT },
    ...USAGE_IN_STREAM,
    // No native means: the schema goes in the prompt; the answer is checked either way.
    outputSchema: SCHEMA_IN_PROMPT,
  },
  toolNames: { tools: {}, argumentPrefix: false },
  layout: (frame, placed) => [
    "-p",
    frame.prompt,
    "--output-format",
    "stream-json",
    ...placed.flags(),
    ...frame.backendArgs,
  ],
  // The prompt is the value of -p: it cannot be read as a flag.
  promptTerminator: () => false,
  createTranslator: () => new EvosciTranslator(),
  // Its stream names no model, and it takes none on its command line: its config's.
  usageModel: ({ env, cwd }) => evosciConfigModel(env, cwd),
};
