import type { BackendDefinition, BackendRequest } from "../definition.js";
import { JSON_MODE_TYPES, PiOrAtomic } from "./detect.js";
import { AtomicTranslator } from "./translator.js";
import { ATOMIC_CATALOG } from "./native-catalog.js";

/** `--mode json` argv, shared by Atomic and pi (Atomic is a fork of pi). */
export function jsonModeArgv(request: BackendRequest): string[] {
  return [
    "--mode",
    "json",
    ...(request.provider !== undefined ? ["--provider", request.provider] : []),
    ...(request.model !== undefined ? ["--model", request.model] : []),
    ...(request.permissions?.resume !== undefined ? ["--session", request.permissions.resume] : []),
    ...(request.permissions?.denyTools.length ? ["--exclude-tools", request.permissions.denyTools.join(",")] : []),
    ...request.backendArgs,
    ...(request.promptTerminator ? ["--"] : []),
    request.prompt,
  ];
}

/** The parts of the definition Atomic and pi share: their protocol and its flags. */
export const JSON_MODE_PROTOCOL = {
  protocol: "atomic",
  // Atomic and pi die on SIGINT without cleanup but handle SIGTERM.
  stopSignal: "SIGTERM",
  flags: { model: "--model", provider: "--provider" },
  refusalHints: { workdir: "use --cwd DIR to choose the directory the backend runs in" },
  // README "Permissions and continuing a run" (pi --help of 0.73.1, 0.84.4 and 1.6.0).
  permissions: {
    tools: { shell: "bash", read: "read", write: "write", edit: "edit" },
    allow: {
      lacks:
        "asks for no approvals: every tool it has runs (--deny-tool keeps one from the model; --tools lists them all)",
    },
    // Since pi 0.84 (Atomic's base); pi 0.73 has no --exclude-tools.
    deny: { native: "--exclude-tools NAME,... (pi 0.84 or later)" },
    argumentPrefix: false,
    approvals: { auto: "its only mode (it asks for no approvals)" },
    approvalsLack: "asks for no approvals: every call it makes runs (--approvals auto is all it has)",
    resume: { native: "--session SESSION" },
  },
  argv: jsonModeArgv,
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
