import type { BackendDefinition } from "../definition.js";
import type { Words } from "../../core/errors.js";
import { USAGE_IN_STREAM, byDefault } from "../support.js";
import { JSON_MODE_TYPES, PiOrAtomic } from "./detect.js";
import { AtomicTranslator } from "./translator.js";
import { ATOMIC_CATALOG } from "./native-catalog.js";
import { SCHEMA_IN_PROMPT } from "../schema-in-prompt.js";

const NO_APPROVALS: Words = (name) =>
  `asks for no approvals: every call it makes runs (${name("approvals")} auto is all it has)`;

/** The parts of the definition Atomic and pi share: their protocol and its flags. */
export const JSON_MODE_PROTOCOL = {
  protocol: "atomic",
  // Atomic and pi die on SIGINT without cleanup but handle SIGTERM.
  stopSignal: "SIGTERM",
  // README "Permissions and continuing a run" (pi --help of 0.73.1, 0.84.4 and 1.6.0).
  supports: {
    provider: { via: "--provider", reaches: (provider) => ({ args: ["--provider", provider] }) },
    model: { via: "--model", reaches: (model) => ({ args: ["--model", model] }) },
    resume: { via: "--session SESSION", reaches: (session) => ({ args: ["--session", session] }) },
    // Since pi 0.84 (Atomic's base); pi 0.73 has no --exclude-tools.
    denyTools: {
      via: "--exclude-tools NAME,... (pi 0.84 or later)",
      reaches: (rules) => ({ args: ["--exclude-tools", rules.join(",")] }),
    },
    approvals: {
      auto: byDefault("its only mode (it asks for no approvals)"),
      never: { lacks: NO_APPROVALS },
    },
    allowTools: {
      lacks: (name) =>
        `asks for no approvals: every tool it has runs (${name("denyTools")} keeps one from the model; --tools lists them all)`,
    },
    workdir: { lacks: (name) => `use ${name("cwd")} DIR to choose the directory the backend runs in` },
    autoMode: { lacks: "it asks for no approvals and no questions: every call it makes runs" },
    ...USAGE_IN_STREAM,
    // No native means: the schema goes in the prompt; the answer is checked either way.
    outputSchema: SCHEMA_IN_PROMPT,
  },
  toolNames: { tools: { shell: "bash", read: "read", write: "write", edit: "edit" }, argumentPrefix: false },
  layout: (frame, placed) => [
    "--mode",
    "json",
    ...placed.flags(),
    ...frame.backendArgs,
    ...(frame.promptTerminator ? ["--"] : []),
    frame.prompt,
  ],
  createTranslator: () => new AtomicTranslator(),
  nativeTypes: JSON_MODE_TYPES,
  tellApart: () => new PiOrAtomic(),
} satisfies Partial<BackendDefinition<string, "atomic">>;

/** Atomic: `atomic --mode json [--] PROMPT`. */
export const atomic: BackendDefinition<"atomic", "atomic"> = {
  ...JSON_MODE_PROTOCOL,
  name: "atomic",
  displayName: "Atomic",
  executableNames: ["atomic"],
  binEnvVar: "AGENTSTREAM_ATOMIC_BIN",
  install: "npm install -g @bastani/atomic",
  terminalTypes: new Set(["agent_settled"]),
  nativeCatalog: ATOMIC_CATALOG,
  promptTerminator: () => true,
};
