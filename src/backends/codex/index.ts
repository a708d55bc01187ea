import { OptionError, UsageError } from "../../core/errors.js";
import { tomlString } from "../../core/toml-string.js";
import type { BackendDefinition } from "../definition.js";
import { USAGE_IN_STREAM, type NativeInput, type RunContext } from "../support.js";
import { CodexTranslator } from "./translator.js";
import { CODEX_CATALOG } from "./native-catalog.js";
import { codexSessionModel } from "./session-model.js";
import { mergedJsonEnv } from "../json-env.js";

const APPROVALS_LACK =
  "never stops for approvals in codex exec: its approval_policy is never, and what its sandbox forbids fails and the model is told";

/** Codex CLI: `codex exec --json --skip-git-repo-check [flags] -- PROMPT` (docs/protocols/codex.md). */
export const codex: BackendDefinition<"codex", "codex"> = {
  name: "codex",
  displayName: "Codex",
  protocol: "codex",
  executableNames: ["codex"],
  binEnvVar: "AGENTSTREAM_CODEX_BIN",
  install: "npm install -g @openai/codex",
  // SIGINT before the turn has started is swallowed, and disables SIGINT for the rest of the run;
  // mid-turn it ends the turn with no final event either. SIGTERM stops it at once (the Node
  // launcher forwards it), and reaches the native binary too as it is sent to the process group.
  stopSignal: "SIGTERM",
  terminalTypes: new Set(["turn.completed", "turn.failed"]),
  nativeCatalog: CODEX_CATALOG,
  // Its stream opens with thread.started; these dotted types are its alone.
  nativeTypes: new Set([
    "thread.started",
    "turn.started",
    "turn.completed",
    "turn.failed",
    "item.started",
    "item.updated",
    "item.completed",
  ]),
  // docs/protocols/codex.md "Permissions and resume" (codex exec --help, codex features list, 0.171.0).
  supports: {
    // `exec resume [flags] -- SESSION PROMPT`.
    resume: {
      via: "exec resume SESSION",
      reaches: (session) => ({ subcommand: ["resume"], operands: [session] }),
    },
    model: { via: "--model", reaches: (model) => ({ args: ["--model", model] }) },
    provider: {
      via: "-c model_provider=NAME",
      reaches: (provider) => ({ args: ["-c", `model_provider=${tomlString(provider)}`] }),
    },
    workdir: { via: "--cd", reaches: workdirArgs },
    denyTools: {
      via: '--disable shell_tool --disable unified_exec (shell), -c web_search="disabled"',
      reaches: codexDenyArgs,
    },
    autoMode: {
      lacks: (name) =>
        `codex exec never stops for approvals (it forces approval_policy = never); limit what it may do with ${name("backendArgs", ["--sandbox", "read-only"])}`,
    },
    allowTools: {
      lacks: (name) =>
        `has no per-tool allow list: every tool it has runs within its sandbox (${name("backendArgs", ["--sandbox", "MODE"])})`,
    },
    approvals: {
      never: { lacks: APPROVALS_LACK },
      auto: { lacks: APPROVALS_LACK },
    },
    ...USAGE_IN_STREAM,
    // A file in the run's folder (exec and exec resume take it); it sends the schema as the Responses request's
    // text.format (json_schema, strict) and writes the answer as its last agent_message's text, which agentstream checks.
    outputSchema: {
      via: "--output-schema FILE (written for the run)",
      reaches: (value) => ({
        file: { name: "output-schema.json", text: value.text, args: (path) => ["--output-schema", path] },
      }),
    },
  },
  toolNames: {
    tools: { shell: "command_execution", web_search: "web_search" },
    deniable: ["command_execution", "web_search"],
    argumentPrefix: false,
  },
  layout: (frame, placed) => [
    "exec",
    ...placed.subcommand,
    "--json",
    "--skip-git-repo-check",
    ...placed.flags(),
    ...frame.backendArgs,
    ...(frame.promptTerminator ? ["--"] : []),
    ...placed.operands,
    frame.prompt,
  ],
  promptTerminator: (_executable, prompt) => {
    // "-" as the prompt means "read it from stdin", which agentstream leaves empty.
    if (prompt === "-")
      throw new UsageError(
        'codex exec reads a prompt of "-" from stdin, which agentstream does not pass on',
        "give the prompt itself",
      );
    // After `--` a prompt starting with "-" stays a prompt.
    return true;
  },
  // `run --transport acp` (docs/protocols/codex.md "Over ACP"): its ACP adapter, which starts the Codex of its own
  // dependency as an app server (CODEX_PATH another). No flags: the model goes in CODEX_CONFIG (merged into every
  // session's config), the provider in MODEL_PROVIDER.
  acpMode: {
    args: [],
    adapter: {
      executableNames: ["codex-acp"],
      binEnvVar: "AGENTSTREAM_CODEX_ACP_BIN",
      install: "npm install -g @agentclientprotocol/codex-acp",
    },
    model: {
      via: 'CODEX_CONFIG={"model":"MODEL"}',
      reaches: (model, { env }) => ({ env: { CODEX_CONFIG: mergedJsonEnv(env, "CODEX_CONFIG", { model }) } }),
    },
    provider: { via: "MODEL_PROVIDER=NAME", reaches: (provider) => ({ env: { MODEL_PROVIDER: provider } }) },
  },
  createTranslator: () => new CodexTranslator(),
  // Its stream names no model: the one asked for, else the one its session record names.
  usageModel: ({ model, env, sessionId }) => model ?? codexSessionModel(env, sessionId),
};

function workdirArgs(workdir: string, { asked }: RunContext): NativeInput {
  if (asked.resume !== undefined)
    throw new OptionError(
      (name) => `${name("workdir")}: codex exec resume has no --cd (a resumed session keeps its own working root)`,
      (name) => `leave ${name("workdir")} out when resuming`,
    );
  return { args: ["--cd", workdir] };
}

function codexDenyArgs(rules: readonly string[]): NativeInput {
  const denied = new Set(rules);
  return {
    args: [
      // Its shell tools, each behind a feature: the classic one and unified exec, exec_command.
      ...(denied.has("command_execution") ? ["--disable", "shell_tool", "--disable", "unified_exec"] : []),
      ...(denied.has("web_search") ? ["-c", 'web_search="disabled"'] : []),
    ],
  };
}
