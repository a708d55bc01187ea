import type { BackendDefinition } from "../definition.js";
import { GeminiTranslator } from "./translator.js";
import { GEMINI_CATALOG } from "./native-catalog.js";

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
  flags: { model: "--model" },
  refusalHints: { provider: "Gemini CLI picks the API from its auth settings (~/.gemini/settings.json)" },
  argv: (request) => [
    "--output-format",
    "stream-json",
    ...(request.model !== undefined ? ["--model", request.model] : []),
    ...request.backendArgs,
    // `-p VALUE` reads a VALUE starting with "-" as a flag; `--prompt=VALUE` keeps it whole.
    `--prompt=${request.prompt}`,
  ],
  promptTerminator: () => false,
  createTranslator: () => new GeminiTranslator(),
};
