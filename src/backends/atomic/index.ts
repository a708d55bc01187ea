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
