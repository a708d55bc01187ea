import type { BackendDefinition } from "../definition.js";
import { CLAUDE_PATTERNS } from "./bash-rules.js";
import { WATCHED } from "../support.js";
import { ClaudeTranslator } from "./translator.js";
import { CLAUDE_CATALOG } from "./native-catalog.js";
import { SCHEMA_IN_PROMPT } from "../schema-in-prompt.js";
import { claudeJsonSchema, claudeTakesSchema } from "./json-schema-arg.js";

/** Claude Code: `claude -p --output-format stream-json --verbose --include-partial-messages --forward-subagent-text [--model M] -- PROMPT` (docs/protocols/claude.md). */
export const claude: BackendDefinition<"claude", "claude"> = {
  name: "claude",
  displayName: "Claude Code",
  protocol: "claude",
  executableNames: ["claude"],
  binEnvVar: "AGENTSTREAM_CLAUDE_BIN",
  install: "npm install -g @anthropic-ai/claude-code",
  // SIGINT cancels the turn and (usually) writes its result; SIGTERM and SIGHUP end it with no result at all.
  stopSignal: "SIGINT",
  terminalTypes: new Set(["result"]),
  nativeCatalog: CLAUDE_CATALOG,
  // Its stream opens with system/init (system/ui_invalidate with --bare); no other backend writes these types.
  nativeTypes: new Set(["system", "stream_event", "assistant", "user"]),
  // Its result alone (a stream cut down to its last line) has a subtype ("success", "error_max_turns", ...) and
  // is_error: Gemini CLI's result has a status, Copilot CLI's an exitCode.
  claims: (event) =>
    event.type === "result" && typeof event.subtype === "string" && typeof event.is_error === "boolean",
  // docs/protocols/claude.md "Permissions and resume" (claude --help, 2.1.332).
  supports: {
    model: { via: "--model", reaches: (model) => ({ args: ["--model", model] }) },
    // Its own budget counts the cost it reports, as agentstream does: it stops itself cleanly, never earlier.
    maxCostUsd: {
      via: "--max-budget-usd USD, and watched on its events",
      reaches: (usd) => ({ args: ["--max-budget-usd", String(usd)] }),
    },
    resume: { via: "--resume SESSION", reaches: (session) => ({ args: ["--resume", session] }) },
    allowTools: {
      via: "--allowedTools NAME",
      reaches: (rules) => ({ args: rules.flatMap((rule) => ["--allowedTools", rule]) }),
    },
    denyTools: {
      via: "--disallowedTools NAME",
      reaches: (rules) => ({ args: rules.flatMap((rule) => ["--disallowedTools", rule]) }),
    },
    approvals: {
      // In -p mode a call it may not make is denied and listed in result.permission_denials: the run ends needs_input.
      never: { via: "--permission-prompts none", reaches: () => ({ args: ["--permission-prompts", "none"] }) },
      auto: { via: "--permission-mode auto", reaches: () => ({ args: ["--permission-mode", "auto"] }) },
    },
    provider: {
      lacks:
        "Claude Code picks the API from its environment (ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY, CLAUDE_CODE_USE_BEDROCK, CLAUDE_CODE_USE_VERTEX)",
    },
    workdir: { lacks: (name) => `use ${name("cwd")} DIR to choose the directory Claude Code runs in` },
    autoMode: {
      lacks: (name) =>
        `Claude Code in -p mode cannot stop for input: it denies what it may not do (${name("backendArgs", ["--permission-mode", "MODE"])} sets the policy)`,
    },
    // Its --max-turns counts differently: agentstream's count governs.
    maxTurns: WATCHED,
    maxTokens: WATCHED,
    usageFile: { lacks: "writes its usage in its stream" },
    // The model answers by calling its StructuredOutput tool (which ends the turn); result.structured_output holds it.
    // A schema its own validator (draft-07, strict) refuses would stop it at start: that one goes in the prompt.
    outputSchema: {
      via: "--json-schema JSON (without $schema; a schema its draft-07 validator refuses: in the prompt)",
      reaches: (value) =>
        claudeTakesSchema(value)
          ? { args: ["--json-schema", JSON.stringify(claudeJsonSchema(value.schema))] }
          : SCHEMA_IN_PROMPT.reaches(value),
    },
  },
  toolNames: {
    tools: {
      shell: "Bash",
      read: "Read",
      write: "Write",
      edit: "Edit",
      web_fetch: "WebFetch",
      web_search: "WebSearch",
    },
    argumentPrefix: true,
    patterns: CLAUDE_PATTERNS,
  },
  layout: (frame, placed) => [
    "-p",
    "--output-format",
    "stream-json",
    // stream-json in -p mode is refused without --verbose.
    "--verbose",
    "--include-partial-messages",
    // A sub-agent's (Agent/Task) text and thinking, marked with parent_tool_use_id; without it only its prompt shows.
    "--forward-subagent-text",
    ...placed.flags(),
    ...frame.backendArgs,
    // Always: a prompt starting with "-" is an option otherwise, and a variadic flag
    // in backendArgs (--allowedTools Bash) would take the prompt as one more value.
    "--",
    frame.prompt,
  ],
  promptTerminator: () => true,
  // `run --transport acp` (docs/protocols/claude.md "Over ACP"): its ACP adapter, which runs the Claude Agent SDK's
  // own Claude Code and answers from ANTHROPIC_API_KEY (or a login) as Claude Code does. It has no model flag:
  // Claude Code reads ANTHROPIC_MODEL.
  acpMode: {
    args: [],
    adapter: {
      executableNames: ["claude-agent-acp"],
      binEnvVar: "AGENTSTREAM_CLAUDE_ACP_BIN",
      install: "npm install -g @agentclientprotocol/claude-agent-acp",
    },
    model: { via: "ANTHROPIC_MODEL=MODEL", reaches: (model) => ({ env: { ANTHROPIC_MODEL: model } }) },
  },
  createTranslator: () => new ClaudeTranslator(),
};
