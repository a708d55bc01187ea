import type { BackendDefinition, PermissionRequest } from "../definition.js";
import { ClaudeTranslator } from "./translator.js";
import { CLAUDE_CATALOG } from "./native-catalog.js";
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
  flags: { model: "--model" },
  refusalHints: {
    provider:
      "Claude Code picks the API from its environment (ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY, CLAUDE_CODE_USE_BEDROCK, CLAUDE_CODE_USE_VERTEX)",
    workdir: "use --cwd DIR to choose the directory Claude Code runs in",
    noAutoMode:
      "Claude Code in -p mode cannot stop for input: it denies what it may not do (--backend-arg=--permission-mode --backend-arg=MODE sets the policy)",
  },
  // docs/protocols/claude.md "Permissions and resume" (claude --help, 2.1.332).
  permissions: {
    tools: {
      shell: "Bash",
      read: "Read",
      write: "Write",
      edit: "Edit",
      web_fetch: "WebFetch",
      web_search: "WebSearch",
    },
    allow: { native: "--allowedTools NAME" },
    deny: { native: "--disallowedTools NAME" },
    argumentPrefix: true,
    // In -p mode a call it may not make is denied and listed in result.permission_denials: the run ends needs_input.
    approvals: { never: "--permission-prompts none", auto: "--permission-mode auto" },
    resume: { native: "--resume SESSION" },
  },
  // The model answers by calling its StructuredOutput tool (which ends the turn); result.structured_output holds it.
  outputSchema: { native: "--json-schema JSON", takes: claudeTakesSchema },
  argv: (request) => [
    "-p",
    "--output-format",
    "stream-json",
    // stream-json in -p mode is refused without --verbose.
    "--verbose",
    "--include-partial-messages",
    // A sub-agent's (Agent/Task) text and thinking, marked with parent_tool_use_id; without it only its prompt shows.
    "--forward-subagent-text",
    ...(request.model !== undefined ? ["--model", request.model] : []),
    // Its own budget counts the cost it reports, as agentstream does: it stops itself cleanly, never earlier.
    // (Its --max-turns counts differently: agentstream's count governs.)
    ...(request.maxCostUsd !== undefined ? ["--max-budget-usd", String(request.maxCostUsd)] : []),
    ...claudePermissionArgs(request.permissions),
    ...(request.outputSchema ? ["--json-schema", JSON.stringify(claudeJsonSchema(request.outputSchema.schema))] : []),
    ...request.backendArgs,
    // Always: a prompt starting with "-" is an option otherwise, and a variadic flag
    // in backendArgs (--allowedTools Bash) would take the prompt as one more value.
    "--",
    request.prompt,
  ],
  promptTerminator: () => true,
  createTranslator: () => new ClaudeTranslator(),
};

function claudePermissionArgs(asked: PermissionRequest | undefined): string[] {
  if (!asked) return [];
  return [
    ...(asked.resume !== undefined ? ["--resume", asked.resume] : []),
    ...asked.allowTools.flatMap((rule) => ["--allowedTools", rule]),
    ...asked.denyTools.flatMap((rule) => ["--disallowedTools", rule]),
    ...(asked.approvals === "never" ? ["--permission-prompts", "none"] : []),
    ...(asked.approvals === "auto" ? ["--permission-mode", "auto"] : []),
  ];
}
