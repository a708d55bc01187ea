// Records what the real Codex CLI (`codex exec --json`) writes for each
// scenario, against the fake model server speaking the Responses wire:
// test/fixtures/live/<id>/<scenario>.jsonl + .stderr.txt + manifest.json.
//
//   node test/live/support/capture-codex.mjs [scenario ...]
//
// CODEX_CAPTURE_BIN overrides the executable (default: the live cache's
// install); CODEX_CAPTURE_DUMP=<dir> also writes every model request body there.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startFakeModelServer, MODEL_ID } from "./fake-model-server.mjs";
import { SCENARIOS, TOOL_SCENARIO_FILES } from "./scenarios.mjs";
import { spawnCollect } from "./spawn-collect.mjs";
import { spawn } from "node:child_process";
import { openaiResponses } from "./wire/openai-responses.mjs";

const ID = "codex-0.171.0";
const PACKAGE = "@openai/codex@0.171.0";
const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../../..");
const outDir = join(repo, "test/fixtures/live", ID);
const executable = process.env.CODEX_CAPTURE_BIN ?? resolve(repo, ".cache/live", ID, "node_modules/.bin/codex");
const dumpDir = process.env.CODEX_CAPTURE_DUMP;
const RUN_LIMIT_MS = 4 * 60_000;
/** The slow scenario streams a tick each 250 ms: stopped after about eight. */
const STREAMING_BEFORE_STOP_MS = 2_000;

const DESCRIPTIONS = {
  text: "plain streamed text answer",
  tool: "text, one shell call listing the working directory, then a final answer",
  thinking: "reasoning summary deltas then text",
  error400: "provider answers HTTP 400 (not retryable)",
  retry500: "HTTP 500 once, then success",
  error503: "HTTP 503 on every attempt; retries run out",
  slow: "slow text stream, stopped with SIGINT after its first text",
};

/** The provider config, all on the command line: nothing of ~/.codex/config.toml is needed. */
function providerArgs(baseUrl) {
  const set = (key, value) => ["-c", `${key}=${JSON.stringify(value)}`];
  return [
    ...set("model_provider", "fake"),
    ...set("model_providers.fake.name", "fake"),
    ...set("model_providers.fake.base_url", baseUrl),
    ...set("model_providers.fake.env_key", "FAKE_API_KEY"),
    ...set("model_providers.fake.wire_api", "responses"),
    // Small retry budgets: the error scenarios then end in seconds.
    "-c", "model_providers.fake.request_max_retries=2",
    "-c", "model_providers.fake.stream_max_retries=2",
  ];
}

function codexArgs(baseUrl, prompt) {
  return ["exec", "--json", "--skip-git-repo-check", "--model", MODEL_ID, "--sandbox", "workspace-write", ...providerArgs(baseUrl), prompt];
}

async function capture(scenario) {
  const server = await startFakeModelServer({ wire: openaiResponses });
  const root = mkdtempSync(join(tmpdir(), "agentstream-live-codex-"));
  const home = join(root, "home");
  const codexHome = join(home, ".codex");
  const cwd = join(root, "work");
  mkdirSync(codexHome, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  if (scenario === "tool") for (const [name, text] of Object.entries(TOOL_SCENARIO_FILES)) writeFileSync(join(cwd, name), text);
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    CODEX_HOME: codexHome,
    FAKE_API_KEY: "fake-key",
    LANG: "C.UTF-8",
    NO_COLOR: "1",
    TERM: "dumb",
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
  };
  const args = codexArgs(server.baseUrl, SCENARIOS[scenario].prompt);
  const stopSignal = scenario === "slow" ? (process.env.CODEX_CAPTURE_STOP ?? "SIGINT") : undefined;
  try {
    const result = await (stopSignal
      ? spawnStopped(executable, args, { cwd, env }, server, stopSignal)
      : spawnCollect(executable, args, { cwd, env, timeoutMs: RUN_LIMIT_MS }));
    if (dumpDir) {
      mkdirSync(dumpDir, { recursive: true });
      writeFileSync(join(dumpDir, `${scenario}.requests.json`), JSON.stringify(server.requests, null, 1));
      writeFileSync(join(dumpDir, `${scenario}.home.txt`), listTree(root).join("\n"));
    }
    return { scenario, args, result, modelRequests: server.requests.length, stopSignal };
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * codex exec --json writes no text deltas (an agent message comes whole, at
 * its end), so "the stream is under way" is read off the fake server: the
 * signal goes once the model request has streamed for a while.
 */
function spawnStopped(command, args, options, server, signal) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let firstSeenAt;
    const poll = setInterval(() => {
      if (firstSeenAt === undefined && server.requests.length > 0) firstSeenAt = Date.now();
      if (firstSeenAt !== undefined && Date.now() - firstSeenAt > STREAMING_BEFORE_STOP_MS) {
        clearInterval(poll);
        child.kill(signal);
      }
    }, 100);
    const limit = setTimeout(() => child.kill("SIGKILL"), RUN_LIMIT_MS);
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (exitCode, exitSignal) => {
      clearInterval(poll);
      clearTimeout(limit);
      resolvePromise({ stdout, stderr, exitCode, signal: exitSignal });
    });
  });
}

function listTree(dir, prefix = "") {
  const out = [];
  for (const entry of readdirSafe(dir)) {
    const path = join(dir, entry.name);
    out.push(prefix + entry.name + (entry.isDirectory() ? "/" : ""));
    if (entry.isDirectory()) out.push(...listTree(path, prefix + "  "));
  }
  return out;
}

function readdirSafe(dir) {
  try {
    return readdirSyncTyped(dir);
  } catch {
    return [];
  }
}

import { readdirSync } from "node:fs";
const readdirSyncTyped = (dir) => readdirSync(dir, { withFileTypes: true });

const requested = process.argv.slice(2);
const scenarios = requested.length ? requested : ["text", "tool", "thinking", "error400", "retry500", "error503", "slow"];
mkdirSync(outDir, { recursive: true });
const manifestPath = join(outDir, "manifest.json");
const manifest = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, "utf8")) : [];
for (const scenario of scenarios) {
  const started = Date.now();
  const { args, result, modelRequests, stopSignal } = await capture(scenario);
  writeFileSync(join(outDir, `${scenario}.jsonl`), result.stdout);
  writeFileSync(join(outDir, `${scenario}.stderr.txt`), result.stderr);
  const entry = {
    file: `${scenario}.jsonl`,
    scenario: DESCRIPTIONS[scenario],
    prompt: SCENARIOS[scenario].prompt,
    producer: `${PACKAGE} (node wrapper on node ${process.version})`,
    args: args.map((a) => a.replace(/127\.0\.0\.1:\d+/, "127.0.0.1:PORT")),
    exit_code: result.exitCode,
    signal: result.signal,
    ...(stopSignal ? { stopped_with: stopSignal } : {}),
    model_requests: modelRequests,
  };
  const at = manifest.findIndex((m) => m.file === entry.file);
  if (at >= 0) manifest[at] = entry;
  else manifest.push(entry);
  console.error(`${scenario}: exit ${result.exitCode} signal ${result.signal} requests ${modelRequests} in ${Date.now() - started} ms`);
}
const order = ["text", "tool", "thinking", "error400", "retry500", "error503", "slow"];
manifest.sort((a, b) => order.indexOf(a.file.replace(".jsonl", "")) - order.indexOf(b.file.replace(".jsonl", "")));
writeFileSync(manifestPath, JSON.stringify(manifest, null, 1) + "\n");
