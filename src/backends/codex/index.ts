import { UsageError } from "../../core/errors.js";
import type { BackendDefinition } from "../definition.js";
import { CodexTranslator } from "./translator.js";
import { CODEX_CATALOG } from "./native-catalog.js";
import { codexSessionModel } from "./session-model.js";

/** Codex CLI: `codex exec --json --skip-git-repo-check [flags] -- PROMPT` (docs/protocols/codex.md). */
export const codex: BackendDefinition<"codex"> = {
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
  flags: { model: "--model", provider: "-c model_provider=NAME", workdir: "--cd" },
  refusalHints: {
    noAutoMode:
      "codex exec never stops for approvals (it forces approval_policy = never); limit what it may do with --backend-arg=--sandbox --backend-arg=read-only",
  },
  argv: (request) => [
    "exec",
    "--json",
    // Outside a git work tree codex exec refuses to run without it.
    "--skip-git-repo-check",
    ...(request.model !== undefined ? ["--model", request.model] : []),
    // A TOML string, as -c parses its value.
    ...(request.provider !== undefined ? ["-c", `model_provider=${JSON.stringify(request.provider)}`] : []),
    ...(request.workdir !== undefined ? ["--cd", request.workdir] : []),
    ...request.backendArgs,
    ...(request.promptTerminator ? ["--"] : []),
    request.prompt,
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
  createTranslator: () => new CodexTranslator(),
  // Its stream names no model: the one asked for, else the one its session record names.
  usageModel: ({ model, env, sessionId }) => model ?? codexSessionModel(env, sessionId),
};
