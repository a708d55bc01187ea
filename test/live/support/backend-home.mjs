// A throw-away home for one backend run: config pointing at the fake model
// server, a working directory, and the environment that makes the backend use
// them and nothing of the real user's.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { claudeEnv, claudeOptions } from "./capture-claude.mjs";
import { MODEL_ID, startFakeModelServer } from "./fake-model-server.mjs";
import { anthropicMessages } from "./wire/anthropic-messages.mjs";
import { gemini } from "./wire/gemini.mjs";
import { openaiChat } from "./wire/openai-chat.mjs";
import { openaiResponses } from "./wire/openai-responses.mjs";
import { TOOL_SCENARIO_FILES } from "./scenarios.mjs";
import { unpackCache } from "./install-backends.mjs";

const FAKE_PROVIDER = "fake";
const FAKE_API_KEY = "fake-key";

/**
 * Call `use(home, server)` with a fresh fake model server and a home set up
 * for `scenario`; both are gone afterwards.
 */
export async function withScenarioHome(backend, scenario, use) {
  const setup = SETUPS[backend];
  const server = await startFakeModelServer({ wire: setup.wire });
  const home = makeBackendHome(setup, backend, server, scenario, scenario === "tool" ? TOOL_SCENARIO_FILES : {});
  try {
    return await use(home, server);
  } finally {
    await server.close();
    home.remove();
  }
}

/**
 * One home and one fake model server for several backends that speak the same wire (pi and Qwen Code: OpenAI
 * chat), each one's settings in it: what a compare of them runs in (one environment for every cell).
 */
export async function withSharedHome(backends, scenario, use) {
  const [first, ...rest] = backends.map((backend) => SETUPS[backend]);
  if (rest.some((setup) => setup.wire !== first.wire)) throw new Error(`${backends.join(", ")} speak different wires`);
  const server = await startFakeModelServer({ wire: first.wire });
  const home = makeBackendHome(first, backends[0], server, scenario, scenario === "tool" ? TOOL_SCENARIO_FILES : {});
  for (const setup of rest) Object.assign(home.env, setup.env(home.root, home.home, server, scenario));
  try {
    return await use(home, server);
  } finally {
    await server.close();
    home.remove();
  }
}

/** Create the home; `files` are written into the working directory. */
function makeBackendHome(setup, backend, server, scenario, files = {}) {
  const root = mkdtempSync(join(tmpdir(), `agentstream-live-${backend}-`));
  const home = join(root, "home");
  const cwd = join(root, "work");
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(cwd, name), text);
  const env = setup.env(root, home, server, scenario);
  return {
    root,
    home,
    cwd,
    env: { ...baseEnv(home), ...env },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Only what a process needs: no keys or settings of the real user leak in. */
function baseEnv(home) {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    LANG: "C.UTF-8",
    NO_COLOR: "1",
    TERM: "dumb",
    // Loopback only: no proxy may be asked to carry the fake server's traffic.
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
  };
}

function piEnv(root, home, { baseUrl }) {
  const agentDir = join(root, "pi-agent");
  mkdirSync(agentDir, { recursive: true });
  const models = {
    providers: {
      [FAKE_PROVIDER]: {
        baseUrl,
        api: "openai-completions",
        apiKey: FAKE_API_KEY,
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [{ id: MODEL_ID, reasoning: true, contextWindow: 128000, maxTokens: 4096 }],
      },
    },
  };
  const settings = {
    defaultProvider: FAKE_PROVIDER,
    defaultModel: MODEL_ID,
    quietStartup: true,
    // Short backoff: the retry scenarios then take seconds, not half a minute.
    retry: { enabled: true, maxRetries: 2, baseDelayMs: 200 },
  };
  writeFileSync(join(agentDir, "models.json"), JSON.stringify(models, null, 2));
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify(settings, null, 2));
  return { PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1", XDG_CONFIG_HOME: join(home, ".config") };
}

function evosciEnv(root, home, { baseUrl }) {
  const configHome = join(home, ".config");
  const dataDir = join(root, "evosci-data");
  mkdirSync(join(configHome, "evoscientist"), { recursive: true });
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(configHome, "evoscientist", "config.yaml"), `provider: custom-openai\nmodel: ${MODEL_ID}\n`);
  return {
    XDG_CONFIG_HOME: configHome,
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    EVOSCIENTIST_DATA_DIR: dataDir,
    CUSTOM_OPENAI_BASE_URL: baseUrl,
    CUSTOM_OPENAI_API_KEY: FAKE_API_KEY,
    EVOSCIENTIST_USE_RESPONSES_API: "false",
    EVOSCIENTIST_ENABLE_ASYNC_SUBAGENTS: "false",
    EVOSCIENTIST_MEMORY_WORKERS_ENABLED: "false",
    EVOSCIENTIST_MEMORY_SKILL_SYNTHESIS_ENABLED: "false",
    EVOSCIENTIST_ENABLE_SCHEDULER: "false",
    // Unattended runs otherwise keep retrying a failing model call for 30 minutes.
    EVOSCIENTIST_AUTO_MODE_RETRY_WAIT_SECONDS: "4",
    PYTHONUNBUFFERED: "1",
    PYTHONIOENCODING: "utf-8",
  };
}

/** Gemini CLI: API-key auth chosen in its settings (with only a base URL it picks an auth type it then refuses). */
function geminiEnv(root, home, { origin }) {
  mkdirSync(join(home, ".gemini"), { recursive: true });
  const settings = {
    security: { auth: { selectedType: "gemini-api-key" } },
    // Two attempts, not ten with 5-30 s backoff: the 503 scenario then takes seconds.
    general: { maxAttempts: 2 },
    // Otherwise it resolves play.googleapis.com for usage statistics.
    privacy: { usageStatisticsEnabled: false },
  };
  writeFileSync(join(home, ".gemini", "settings.json"), JSON.stringify(settings, null, 2));
  const tmp = join(root, "tmp");
  mkdirSync(tmp, { recursive: true });
  // TMPDIR: its error reports go to os.tmpdir().
  return {
    GEMINI_API_KEY: FAKE_API_KEY,
    GOOGLE_GEMINI_BASE_URL: origin,
    GEMINI_CLI_TRUST_WORKSPACE: "true",
    TMPDIR: tmp,
  };
}

/** Claude Code: the capture's environment, its temp files and socket in the run's temp root. */
function claudeHomeEnv(root, home, { origin }) {
  const scratch = join(root, "tmp");
  mkdirSync(scratch, { recursive: true });
  return claudeEnv(home, scratch, origin);
}

/** The Claude Code options a scenario needs: Bash pre-approved except where a denial is the point, one turn for maxturns. */
function claudeRunArgs(scenario) {
  const options = claudeOptions({
    allowTools: scenario !== "denied",
    extraArgs: scenario === "maxturns" ? ["--max-turns", "1"] : [],
  });
  return ["--model", MODEL_ID, ...options.map((arg) => `--backend-arg=${arg}`)];
}

/**
 * Codex CLI: the fake provider defined in a throw-away CODEX_HOME's config.toml
 * (it must exist before the run); `-c model_provider="fake"` selects it.
 */
function codexEnv(_root, home, { baseUrl }) {
  const codexHome = join(home, ".codex");
  mkdirSync(codexHome, { recursive: true });
  const provider = {
    name: FAKE_PROVIDER,
    base_url: baseUrl,
    env_key: "FAKE_API_KEY",
    wire_api: "responses",
    // Two of each, not 4 x 5 with backoff: a persistent 503 then takes 9 requests and seconds, not 30 and 26 s.
    request_max_retries: 2,
    stream_max_retries: 2,
  };
  const lines = Object.entries(provider).map(([key, value]) => `${key} = ${JSON.stringify(value)}`);
  writeFileSync(join(codexHome, "config.toml"), `[model_providers.${FAKE_PROVIDER}]\n${lines.join("\n")}\n`);
  return { CODEX_HOME: codexHome, FAKE_API_KEY };
}

/** What codex exec needs beyond the provider: the model, and a sandbox that lets model commands write in the workdir. */
export const CODEX_EXEC_SETTINGS = { model: MODEL_ID, provider: FAKE_PROVIDER, sandbox: "workspace-write" };

/**
 * OpenCode: an opencode.json in the working directory names the fake provider (its built-in
 * OpenAI-compatible SDK) as model and small model and allows every tool (bash asks in the denied scenario); XDG dirs in the throw-away
 * home, and the switches that keep it from fetching models.dev, updates, LSP servers or sharing.
 */
function opencodeEnv(root, home, { baseUrl }, scenario) {
  const cwd = join(root, "work");
  const model = `${FAKE_PROVIDER}/${MODEL_ID}`;
  const config = {
    $schema: "https://opencode.ai/config.json",
    provider: {
      [FAKE_PROVIDER]: {
        npm: "@ai-sdk/openai-compatible",
        name: "Fake",
        options: { baseURL: baseUrl, apiKey: FAKE_API_KEY },
        models: { [MODEL_ID]: { name: MODEL_ID } },
      },
    },
    model,
    small_model: model,
    // The denied scenario's shell call needs a permission: "ask", which opencode run rejects (no one to ask); over
    // ACP, the client answers (the allowed scenario: a rule allows it).
    permission: {
      edit: "allow",
      bash: scenario === "denied" || scenario === "allowed" ? "ask" : "allow",
      webfetch: "allow",
      external_directory: "allow",
    },
    autoupdate: false,
    share: "disabled",
  };
  writeFileSync(join(cwd, "opencode.json"), JSON.stringify(config, null, 2));
  return {
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    TMPDIR: mkdtempSync(join(root, "tmp-")),
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_SHARE: "1",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
    // Otherwise it asks registry.npmjs.org for @opencode-ai/plugin, which it installs into its config dir.
    npm_config_offline: "true",
  };
}

/** A title of its own, so that OpenCode makes no title request (with the prompt in it) to the fake model. */
export const OPENCODE_TITLE_ARGS = ["--title", "agentstream live"];

/**
 * Copilot CLI: a custom provider (no GitHub login) from the environment, offline (no GitHub calls, no
 * telemetry), its state in a throw-away COPILOT_HOME; what it unpacks of itself in the shared cache.
 */
function copilotEnv(_root, home, { baseUrl }) {
  return {
    COPILOT_HOME: join(home, ".copilot"),
    XDG_CACHE_HOME: unpackCache("copilot"),
    COPILOT_OFFLINE: "true",
    COPILOT_PROVIDER_BASE_URL: baseUrl,
    COPILOT_PROVIDER_TYPE: "openai",
    COPILOT_PROVIDER_API_KEY: FAKE_API_KEY,
    COPILOT_MODEL: MODEL_ID,
  };
}

/**
 * Qwen Code (driven over ACP only, for now): OpenAI-compatible auth chosen in its settings, the fake API
 * from the environment; no usage statistics, telemetry or update checks (each would leave the loopback).
 */
function qwenEnv(root, home, { baseUrl }) {
  mkdirSync(join(home, ".qwen"), { recursive: true });
  const settings = {
    security: { auth: { selectedType: "openai" } },
    // Few, quick retries: its own backoff retries a persistent 5xx for longer than 4 minutes.
    model: { name: MODEL_ID, generationConfig: { maxRetries: 1, retryInitialDelayMs: 100, retryMaxDelayMs: 200 } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
  };
  writeFileSync(join(home, ".qwen", "settings.json"), JSON.stringify(settings, null, 2));
  const tmp = join(root, "tmp");
  mkdirSync(tmp, { recursive: true });
  return { OPENAI_API_KEY: FAKE_API_KEY, OPENAI_BASE_URL: baseUrl, OPENAI_MODEL: MODEL_ID, TMPDIR: tmp };
}

/**
 * Per backend: the wire format its fake model API speaks, the environment that
 * points it there, and the `agentstream run` options a scenario needs (optional).
 */
const SETUPS = {
  evosci: { wire: openaiChat, env: evosciEnv, runArgs: (_scenario, home) => ["--workdir", home.cwd] },
  pi: { wire: openaiChat, env: piEnv },
  // Gemini CLI's default model ("auto") waits about 100 s before its first request here: name one.
  gemini: { wire: gemini, env: geminiEnv, runArgs: () => ["--model", MODEL_ID] },
  codex: {
    wire: openaiResponses,
    env: codexEnv,
    runArgs: () => [
      "--model",
      CODEX_EXEC_SETTINGS.model,
      "--provider",
      CODEX_EXEC_SETTINGS.provider,
      // As config, not --sandbox: `codex exec resume` (run --resume) takes no --sandbox.
      "--backend-arg=-c",
      `--backend-arg=sandbox_mode=${JSON.stringify(CODEX_EXEC_SETTINGS.sandbox)}`,
    ],
  },
  claude: { wire: anthropicMessages, env: claudeHomeEnv, runArgs: claudeRunArgs },
  opencode: {
    wire: openaiChat,
    env: opencodeEnv,
    runArgs: () => OPENCODE_TITLE_ARGS.map((arg) => `--backend-arg=${arg}`),
  },
  copilot: { wire: openaiChat, env: copilotEnv, runArgs: () => ["--model", MODEL_ID] },
  qwen: { wire: openaiChat, env: qwenEnv },
};

/** The `agentstream run` options (before the prompt) the backend's setup asks for in `scenario`. */
export function runArgsFor(backend, scenario, home) {
  return SETUPS[backend].runArgs?.(scenario, home) ?? [];
}
