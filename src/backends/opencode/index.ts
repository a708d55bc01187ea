import type { BackendDefinition } from "../definition.js";
import { OpencodeTranslator } from "./translator.js";
import { OPENCODE_CATALOG } from "./native-catalog.js";

/** OpenCode: `opencode run --format json [flags] -- WORDS...` (docs/protocols/opencode.md). */
export const opencode: BackendDefinition<"opencode"> = {
  name: "opencode",
  displayName: "OpenCode",
  protocol: "opencode",
  executableNames: ["opencode"],
  binEnvVar: "AGENTSTREAM_OPENCODE_BIN",
  install: "npm install -g opencode-ai",
  // Either signal ends it at once, with no line for the step under way. Its shell tool's commands have
  // process groups of their own: the signal to its group does not reach them (docs/protocols/opencode.md).
  stopSignal: "SIGTERM",
  // 1.18 writes no final line; newer releases end with done.
  terminalTypes: new Set(["done"]),
  nativeCatalog: OPENCODE_CATALOG,
  // Its part types, in snake case, are its alone.
  nativeTypes: new Set(["step_start", "step_finish", "tool_use"]),
  // Every line carries the session id (ses_...) and its time in epoch milliseconds: a stream of one error line is OpenCode's, not EvoScientist's.
  claims: (event) =>
    typeof event.sessionID === "string" && event.sessionID.startsWith("ses_") && typeof event.timestamp === "number",
  flags: { model: "--model (PROVIDER/MODEL, as OpenCode names models)", workdir: "--dir" },
  refusalHints: {
    provider: "OpenCode names the provider in the model: --model PROVIDER/MODEL",
    noAutoMode:
      "opencode run never stops for approvals: a permission set to ask is rejected and the model goes on; set what it may not do to deny in opencode.json",
  },
  argv: (request) => [
    "run",
    "--format",
    "json",
    ...(request.model !== undefined ? ["--model", request.model] : []),
    ...(request.workdir !== undefined ? ["--dir", request.workdir] : []),
    ...request.backendArgs,
    // It quotes every message word that holds a space ("a b" reaches the model as "\"a b\"") and
    // joins the words with spaces: split on spaces, the prompt arrives as it was. After `--`, words
    // starting with "-" stay words.
    "--",
    ...request.prompt.split(" "),
  ],
  promptTerminator: () => true,
  createTranslator: () => new OpencodeTranslator(),
  // Its stream names no model: the one asked for, without the provider before its first "/".
  usageModel: ({ model }) => (model === undefined ? undefined : model.slice(model.indexOf("/") + 1) || undefined),
};
