// Records what the real Codex CLI (`codex exec --json`) writes for each
// scenario, against the fake model server speaking the Responses wire:
// test/fixtures/live/<id>/<scenario>.jsonl + .stderr.txt + manifest.json.
//
//   node test/live/support/capture-codex.mjs [scenario ...]
//
// CODEX_CAPTURE_BIN overrides the executable (default: the live cache's
// install under the repo); CODEX_CAPTURE_STOP the slow scenario's signal
// (default SIGINT); CODEX_CAPTURE_DUMP=<dir> also writes each scenario's model
// requests there (not part of the fixtures: they hold the whole system prompt).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { MODEL_ID, startFakeModelServer } from "./fake-model-server.mjs";
import { SCENARIOS, TOOL_SCENARIO_FILES } from "./scenarios.mjs";
import { spawnCollect } from "./spawn-collect.mjs";
import { openaiResponses } from "./wire/openai-responses.mjs";

const ID = "codex-0.171.0";
const PACKAGE = "@openai/codex@0.171.0";
const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const outDir = join(repo, "test/fixtures/live", ID);
const executable = process.env.CODEX_CAPTURE_BIN ?? join(repo, ".cache/live", ID, "node_modules/.bin/codex");
const dumpDir = process.env.CODEX_CAPTURE_DUMP;
const RUN_LIMIT_MS = 4 * 60_000;
/** The slow scenario streams a tick each 250 ms: stopped after about eight. */
const STREAMING_BEFORE_STOP_MS = 2_000;
const ORDER = ["text", "tool", "thinking", "error400", "retry500", "error503", "slow"];

const DESCRIPTIONS = {
  text: "plain streamed text answer",
  tool: "text, one shell call listing the working directory, then a final answer",
  thinking: "reasoning summary deltas then text",
  error400: "provider answers HTTP 400 (not retryable)",
  retry500: "HTTP 500 once, then success",
  error503: "HTTP 503 on every attempt; retries run out",
  slow: "slow text stream, stopped with a signal about 2 s after the model request began",
};

/** The provider, all on the command line: no config.toml is needed. */
function providerArgs(baseUrl) {
  const set = (key, value) => ["-c", `${key}=${JSON.stringify(value)}`];
  return [
    ...set("model_provider", "fake"),
    ...set("model_providers.fake.name", "fake"),
    ...set("model_providers.fake.base_url", baseUrl),
    ...set("model_providers.fake.env_key", "FAKE_API_KEY"),
    ...set("model_providers.fake.wire_api", "responses"),
    // Small retry budgets: the error scenarios then end in seconds, not 26 s.
    ...set("model_providers.fake.request_max_retries", 2),
    ...set("model_providers.fake.stream_max_retries", 2),
  ];
}

function codexArgs(baseUrl, prompt) {
  return ["exec", "--json", "--skip-git-repo-check", "--model", MODEL_ID, "--sandbox", "workspace-write", ...providerArgs(baseUrl), "--", prompt];
}

function codexEnv(home) {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    CODEX_HOME: join(home, ".codex"),
    FAKE_API_KEY: "fake-key",
    LANG: "C.UTF-8",
    NO_COLOR: "1",
    TERM: "dumb",
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
  };
}

async function capture(scenario) {
  const server = await startFakeModelServer({ wire: openaiResponses });
  const root = mkdtempSync(join(tmpdir(), "agentstream-live-codex-"));
  const home = join(root, "home");
  const cwd = join(root, "work");
  mkdirSync(join(home, ".codex"), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  if (scenario === "tool") for (const [name, text] of Object.entries(TOOL_SCENARIO_FILES)) writeFileSync(join(cwd, name), text);
  const args = codexArgs(server.baseUrl, SCENARIOS[scenario].prompt);
  const options = { cwd, env: codexEnv(home), timeoutMs: RUN_LIMIT_MS };
  const stopSignal = scenario === "slow" ? (process.env.CODEX_CAPTURE_STOP ?? "SIGINT") : undefined;
  try {
    const result = await (stopSignal ? spawnStopped(executable, args, options, server, stopSignal) : spawnCollect(executable, args, options));
    if (dumpDir) {
      mkdirSync(dumpDir, { recursive: true });
      writeFileSync(join(dumpDir, `${scenario}.requests.json`), JSON.stringify(server.requests, null, 1));
    }
    return { args, result, modelRequests: server.requests.length, stopSignal };
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * `codex exec --json` writes no text deltas (an agent message comes whole, at
 * its end), so "the stream is under way" is read off the fake server: the
 * signal goes once the model request has streamed for a while.
 */
function spawnStopped(command, args, { cwd, env, timeoutMs }, server, signal) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
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
    const limit = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
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

function manifestEntry(scenario, { args, result, modelRequests, stopSignal }) {
  return {
    file: `${scenario}.jsonl`,
    scenario: DESCRIPTIONS[scenario],
    prompt: SCENARIOS[scenario].prompt,
    producer: `${PACKAGE} (node launcher on node ${process.version})`,
    args: args.map((a) => a.replace(/127\.0\.0\.1:\d+/, "127.0.0.1:PORT")),
    exit_code: result.exitCode,
    signal: result.signal,
    ...(stopSignal ? { stopped_with: stopSignal } : {}),
    model_requests: modelRequests,
  };
}

const scenarios = process.argv.length > 2 ? process.argv.slice(2) : ORDER;
mkdirSync(outDir, { recursive: true });
const manifestPath = join(outDir, "manifest.json");
const manifest = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, "utf8")) : [];
for (const scenario of scenarios) {
  const started = Date.now();
  const run = await capture(scenario);
  writeFileSync(join(outDir, `${scenario}.jsonl`), run.result.stdout);
  writeFileSync(join(outDir, `${scenario}.stderr.txt`), run.result.stderr);
  const entry = manifestEntry(scenario, run);
  const at = manifest.findIndex((m) => m.file === entry.file);
  if (at >= 0) manifest[at] = entry;
  else manifest.push(entry);
  console.error(`${scenario}: exit ${run.result.exitCode} signal ${run.result.signal} requests ${run.modelRequests} in ${Date.now() - started} ms`);
}
manifest.sort((a, b) => ORDER.indexOf(a.file.replace(/\.jsonl$/, "")) - ORDER.indexOf(b.file.replace(/\.jsonl$/, "")));
writeFileSync(manifestPath, JSON.stringify(manifest, null, 1) + "\n");
