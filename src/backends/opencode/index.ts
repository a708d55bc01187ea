import type { NativeEvent } from "../../core/translator.js";
import type { BackendDefinition } from "../definition.js";
import { USAGE_IN_STREAM, type NativeInput, type RunContext } from "../support.js";
import { isObject } from "../../core/fields.js";
import { OpencodeTranslator } from "./translator.js";
import { OPENCODE_CATALOG } from "./native-catalog.js";
import { SCHEMA_IN_PROMPT } from "../schema-in-prompt.js";
import { mergedJsonEnv } from "../json-env.js";

const APPROVALS_LACK =
  "never stops for approvals in opencode run: a permission set to ask is rejected and the run ends needs_input";

/** OpenCode: `opencode run --format json [flags] -- WORDS...` (docs/protocols/opencode.md). */
export const opencode: BackendDefinition<"opencode", "opencode"> = {
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
  claims: opencodeLine,
  // docs/protocols/opencode.md "Permissions and resume" (opencode run --help, its config loader; 1.18.33).
  supports: {
    resume: { via: "run --session SESSION", reaches: (session) => ({ args: ["--session", session] }) },
    model: {
      via: "--model (PROVIDER/MODEL, as OpenCode names models)",
      reaches: (model) => ({ args: ["--model", model] }),
    },
    workdir: { via: "--dir", reaches: (workdir) => ({ args: ["--dir", workdir] }) },
    // Both lists go in one variable.
    allowTools: { via: 'OPENCODE_PERMISSION={"NAME":"allow"}', reaches: (_rules, run) => opencodePermissionEnv(run) },
    denyTools: { via: 'OPENCODE_PERMISSION={"NAME":"deny"}', reaches: (_rules, run) => opencodePermissionEnv(run) },
    provider: { lacks: (name) => `OpenCode names the provider in the model: ${name("model")} PROVIDER/MODEL` },
    autoMode: {
      lacks:
        "opencode run never stops for approvals: a permission set to ask is rejected and the run ends needs_input; set what it may not do to deny in opencode.json",
    },
    approvals: {
      never: { lacks: APPROVALS_LACK },
      auto: { lacks: APPROVALS_LACK },
    },
    ...USAGE_IN_STREAM,
    // No native means: the schema goes in the prompt; the answer is checked either way.
    outputSchema: SCHEMA_IN_PROMPT,
  },
  toolNames: {
    // Its permission keys (write, edit and patch are all "edit").
    tools: { shell: "bash", read: "read", write: "edit", edit: "edit", web_fetch: "webfetch", web_search: "websearch" },
    argumentPrefix: false,
  },
  layout: (frame, placed) => [
    "run",
    "--format",
    "json",
    ...placed.flags(),
    ...frame.backendArgs,
    // It quotes every message word that holds a space ("a b" reaches the model as "\"a b\"") and
    // joins the words with spaces: split on spaces, the prompt arrives as it was. After `--`, words
    // starting with "-" stay words.
    "--",
    ...frame.prompt.split(" "),
  ],
  promptTerminator: () => true,
  // `run --transport acp` (docs/protocols/acp.md). `opencode acp` has no model flag: its sessions start on the
  // config's `model`, which OPENCODE_CONFIG_CONTENT sets over every config file (docs/protocols/opencode.md).
  acpMode: {
    args: ["acp"],
    model: {
      via: 'OPENCODE_CONFIG_CONTENT={"model":"PROVIDER/MODEL"}',
      reaches: (model, { env }) => ({
        env: { OPENCODE_CONFIG_CONTENT: mergedJsonEnv(env, "OPENCODE_CONFIG_CONTENT", { model }) },
      }),
    },
  },
  createTranslator: () => new OpencodeTranslator(),
  // Its stream names no model: the one asked for, without the provider before its first "/".
  usageModel: ({ model }) => (model === undefined ? undefined : model.slice(model.indexOf("/") + 1) || undefined),
};

/**
 * OPENCODE_PERMISSION: JSON merged over every config's `permission` (its last word). Rules already in
 * the caller's variable stay, under these.
 */
function opencodePermissionEnv({ asked, env }: RunContext): NativeInput {
  const rules = Object.fromEntries([
    ...(asked.allowTools ?? []).map((name) => [name, "allow"]),
    ...(asked.denyTools ?? []).map((name) => [name, "deny"]),
  ]);
  return { env: { OPENCODE_PERMISSION: mergedJsonEnv(env, "OPENCODE_PERMISSION", rules) } };
}

/**
 * Every OpenCode line carries the session id (ses_...) and its time in epoch milliseconds: a stream of one error
 * line is OpenCode's, not EvoScientist's. Stripped of those, its error line still holds an error object
 * (EvoScientist's, Codex's and Gemini CLI's hold a message), and its done line a reason (EvoScientist's done
 * carries its response and content).
 */
function opencodeLine(event: NativeEvent): boolean {
  if (typeof event.sessionID === "string" && event.sessionID.startsWith("ses_") && typeof event.timestamp === "number")
    return true;
  if (event.type === "error") return isObject(event.error);
  if (event.type === "done")
    return typeof event.reason === "string" && event.response === undefined && event.content === undefined;
  return false;
}
