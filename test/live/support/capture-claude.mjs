#!/usr/bin/env node
// Records what the real Claude Code binary writes in each scenario, against the
// loopback fake model server speaking the Anthropic Messages API, into
// test/fixtures/live/claude-<version>/ (native stdout, stderr, manifest.json).
//
//   node test/live/support/capture-claude.mjs [scenario ...]
//
// (`npm run capture` runs every scenario through captureClaude.) The
// executable is the live target's, installed into .cache/live/ by the live
// installer; CLAUDE_BIN overrides it. CLAUDE_CAPTURE_DIR overrides the
// fixture folder; CLAUDE_CAPTURE_REQUESTS=DIR also writes each scenario's
// request bodies there; CLAUDE_CAPTURE_KEEP_HOME=1 keeps the temp home. Every
// request the server gets is listed on stderr. Entries added to manifest.json
// by hand stay. claudeEnv/claudeOptions can be imported: capturing only starts
// when this file is run.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { MODEL_ID, startFakeModelServer } from "./fake-model-server.mjs";
import { installBackends } from "./install-backends.mjs";
import { LIVE_TARGETS } from "../../helpers/live/live-targets.mjs";
import { DENIED_COMMAND, SCENARIOS, TOOL_SCENARIO_FILES } from "./scenarios.mjs";
import { spawnCollect } from "../../helpers/live/spawn-collect.mjs";
import { anthropicMessages } from "./wire/anthropic-messages.mjs";

const FAKE_API_KEY = "fake-key";
const RUN_LIMIT_MS = 5 * 60_000;

const DESCRIPTIONS = {
  text: "plain streamed text answer",
  tool: "text, one Bash tool call listing the working directory, then a final answer",
  thinking: "thinking deltas (thinking blocks) then text",
  error400: "provider answers HTTP 400 (not retryable)",
  retry500: "HTTP 500 once, then success",
  error503: "HTTP 503 on every attempt; retries run out (CLAUDE_CODE_MAX_RETRIES=2)",
  slow: "slow text stream, stopped with SIGINT after its first text",
  maxturns: "the tool scenario with --max-turns 1: the tool runs, the second model call is never made",
  denied: "the tool scenario without --allowedTools, the Bash call writing a file: denied in -p mode",
  sigterm: "slow text stream, stopped with SIGTERM after its first text",
  error429:
    "the text scenario answered HTTP 429 (rate_limit_error) on every attempt; retries run out (CLAUDE_CODE_MAX_RETRIES=2)",
  error401: "the text scenario answered HTTP 401 (authentication_error)",
  nokey: "the text scenario with no ANTHROPIC_API_KEY (nor any other credential) in the environment",
  error503default: "HTTP 503 on every attempt with the default retry policy (no CLAUDE_CODE_MAX_RETRIES)",
  sigintTool:
    "the tool scenario with the Bash call `ls && sleep 20`, stopped with SIGINT while the tool runs (on its task_started)",
  error529: "the text scenario answered HTTP 529 (overloaded_error) on every attempt (CLAUDE_CODE_MAX_RETRIES=2)",
  retryAfter: "the text scenario answered HTTP 429 with `retry-after: 2` on every attempt (CLAUDE_CODE_MAX_RETRIES=1)",
  cut: "the text scenario's stream cut by the server after two deltas (no message_stop), on every attempt (CLAUDE_CODE_MAX_RETRIES=2)",
  nopartial: "the tool scenario without --include-partial-messages",
  sigintRetry: "HTTP 503 on every attempt (default retries), stopped with SIGINT during the first retry wait",
  sighup: "slow text stream, stopped with SIGHUP after its first text",
  twoTools:
    "the tool scenario with a second Bash call (`echo two`) in the same reply: two tool_use blocks, then the final answer",
  tooLong:
    "the text scenario answered HTTP 400 `prompt is too long: 250000 tokens > 200000 maximum` on every streamed attempt",
  maxTokens: "the text scenario's reply ends with stop_reason max_tokens, every time",
  toolFails: "the tool scenario with a Bash call that fails (`ls /nonexistent`, exit 2)",
  error403: "the text scenario answered HTTP 403 (permission_error) on every streamed attempt",
  error404:
    "the text scenario answered HTTP 404 (not_found_error) on the streamed request; the non-streaming retry is answered normally",
  error422: "the text scenario answered HTTP 422 on every streamed attempt",
  retry429: "HTTP 429 once, then success",
  retry529: "HTTP 529 (overloaded_error) once, then success",
  subagent:
    "an Agent (sub-agent) call in the foreground: the sub-agent's own model call answers, its text is forwarded (--forward-subagent-text), then the final answer",
  sseError:
    "the text scenario's stream ends with an SSE `error` event (overloaded_error) after two deltas, on every attempt (CLAUDE_CODE_MAX_RETRIES=2)",
};

/** Extra scenarios: a built-in scenario run with other flags. */
const VARIANTS = {
  maxturns: { scenario: "tool", extraArgs: ["--max-turns", "1"] },
  // `ls` is read-only, so Claude Code runs it unasked; a write needs permission.
  denied: { scenario: "tool", allowTools: false, toolCommand: DENIED_COMMAND },
  sigterm: { scenario: "slow", stopSignal: "SIGTERM" },
  error429: { scenario: "text", failWith: 429 },
  error401: { scenario: "text", failWith: 401 },
  nokey: { scenario: "text", env: { ANTHROPIC_API_KEY: undefined } },
  error503default: { scenario: "error503", env: { CLAUDE_CODE_MAX_RETRIES: undefined } },
  // A lone `sleep` is refused by the Bash tool; `task_started` shows the command is running.
  sigintTool: {
    scenario: "tool",
    toolCommand: "ls && sleep 20",
    stopSignal: "SIGINT",
    stopOn: '"subtype":"task_started"',
  },
  error529: { scenario: "text", failWith: 529 },
  retryAfter: {
    scenario: "text",
    failWith: 429,
    failHeaders: { "retry-after": "2" },
    env: { CLAUDE_CODE_MAX_RETRIES: "1" },
  },
  cut: { scenario: "text", cutAfter: 2 },
  nopartial: { scenario: "tool", partial: false },
  sigintRetry: {
    scenario: "error503",
    stopSignal: "SIGINT",
    stopOn: '"subtype":"api_retry"',
    env: { CLAUDE_CODE_MAX_RETRIES: undefined },
  },
  sighup: { scenario: "slow", stopSignal: "SIGHUP" },
  twoTools: { scenario: "tool", secondCommand: "echo two" },
  tooLong: { scenario: "text", failWith: 400, failMessage: "prompt is too long: 250000 tokens > 200000 maximum" },
  maxTokens: { scenario: "text", finish: "max_tokens" },
  toolFails: { scenario: "tool", toolCommand: "ls /nonexistent" },
  error403: { scenario: "text", failWith: 403 },
  error404: { scenario: "text", failWith: 404 },
  error422: { scenario: "text", failWith: 422 },
  sseError: {
    scenario: "text",
    cutAfter: 2,
    cutWith: { type: "overloaded_error", message: "variant sseError: Overloaded" },
  },
};

/**
 * The environment that points Claude Code at the fake server and nothing else;
 * its temp files and messaging socket go under `scratch`, not /tmp.
 */
export function claudeEnv(home, scratch, origin) {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    TMPDIR: scratch,
    CLAUDE_CODE_TMPDIR: scratch,
    XDG_RUNTIME_DIR: scratch,
    LANG: "C.UTF-8",
    NO_COLOR: "1",
    TERM: "dumb",
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
    ANTHROPIC_BASE_URL: origin,
    ANTHROPIC_API_KEY: FAKE_API_KEY,
    // No calls to other hosts: telemetry, error reports, update checks, feature flags.
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    DISABLE_AUTOUPDATER: "1",
    // Two retries instead of ten: the 5xx scenarios end in seconds, not minutes.
    CLAUDE_CODE_MAX_RETRIES: "2",
  };
}

/** The options a run adds to Claude Code's usual argv (agentstream passes them as --backend-arg). */
export function claudeOptions({ allowTools = true, extraArgs = [] } = {}) {
  return [...(allowTools ? ["--allowedTools", "Bash"] : []), ...extraArgs];
}

/** The argv for one run, minus the executable: agentstream's (captures before retry429 lack --forward-subagent-text). */
function claudeArgs(prompt, { partial = true, ...options } = {}) {
  const partialArgs = partial ? ["--include-partial-messages", "--forward-subagent-text"] : [];
  return [
    "-p",
    prompt,
    "--output-format",
    "stream-json",
    "--verbose",
    ...partialArgs,
    "--model",
    MODEL_ID,
    ...claudeOptions(options),
  ];
}

async function runScenario(executable, name) {
  const variant = VARIANTS[name] ?? { scenario: name };
  const scenario = variant.scenario;
  const server = await startFakeModelServer({ wire: loggingWire(name, variant) });
  const root = mkdtempSync(join(tmpdir(), "agentstream-live-claude-"));
  const home = join(root, "home");
  const cwd = join(root, "work");
  const scratch = join(root, "tmp");
  for (const dir of [home, cwd, scratch]) mkdirSync(dir, { recursive: true });
  if (scenario === "tool")
    for (const [file, text] of Object.entries(TOOL_SCENARIO_FILES)) writeFileSync(join(cwd, file), text);
  const args = claudeArgs(SCENARIOS[scenario].prompt, variant);
  const stopSignal = scenario === "slow" ? (variant.stopSignal ?? "SIGINT") : variant.stopSignal;
  // "tick" is the slow scenario's text.
  const stopOn = variant.stopOn ?? "tick 2";
  const started = Date.now();
  try {
    const result = await spawnCollect(executable, args, {
      cwd,
      env: withoutUndefined({ ...claudeEnv(home, scratch, server.origin), ...variant.env }),
      timeoutMs: RUN_LIMIT_MS,
      stopWhen: stopSignal ? (stdout) => stdout.includes(stopOn) : undefined,
      stopSignal,
    });
    const homeFiles = listFiles(home);
    if (process.env.CLAUDE_CAPTURE_REQUESTS)
      writeFileSync(
        join(process.env.CLAUDE_CAPTURE_REQUESTS, `${name}.requests.json`),
        JSON.stringify(server.requests, null, 1),
      );
    return {
      ...result,
      args,
      stopSignal,
      modelRequests: server.requests.length,
      requests: server.requests,
      seconds: (Date.now() - started) / 1000,
      homeFiles,
    };
  } finally {
    await server.close();
    if (!process.env.CLAUDE_CAPTURE_KEEP_HOME) rmSync(root, { recursive: true, force: true });
    else process.stderr.write(`capture: kept ${root}\n`);
  }
}

/**
 * The adapter, with every route it is asked for listed on stderr. A variant's
 * `toolCommand` replaces the scenario's Bash command; `failWith` answers every
 * streamed model call with that HTTP status instead (statuses scenarios.mjs
 * has not; a non-streaming call is answered normally),
 * with `failHeaders` and `failMessage`; `cutAfter` drops the connection after that many deltas,
 * or with `cutWith` ends the stream there with an SSE `error` event;
 * `secondCommand` adds a second Bash call after the scenario's one; `finish`
 * replaces the stop reason.
 */
function loggingWire(
  label,
  { toolCommand, failWith, failHeaders, failMessage, cutAfter, cutWith, secondCommand, finish },
) {
  return {
    ...anthropicMessages,
    stream(res, reply, chunks, usage) {
      if (failWith) {
        for (const [header, value] of Object.entries(failHeaders ?? {})) res.setHeader(header, value);
        return anthropicMessages.error(res, failWith, { message: failMessage ?? `variant ${label}: HTTP ${failWith}` });
      }
      if (cutAfter !== undefined) chunks = cutStream(res, chunks, cutAfter, cutWith);
      let toolCalls = toolCommand
        ? reply.toolCalls.map((call) => ({ ...call, arguments: { command: toolCommand } }))
        : reply.toolCalls;
      if (secondCommand && toolCalls.length) {
        toolCalls = [
          ...toolCalls,
          { ...toolCalls[0], id: `${toolCalls[0].id}_b`, arguments: { command: secondCommand } },
        ];
        chunks = withSecondCall(chunks);
      }
      return anthropicMessages.stream(res, { ...reply, toolCalls, finish: finish ?? reply.finish }, chunks, usage);
    },
    route(method, path) {
      const route = anthropicMessages.route(method, path);
      process.stderr.write(
        `  [${label}] ${method} ${path} -> ${route === "call" ? "model call" : route ? route.status : 404}\n`,
      );
      return route;
    },
  };
}

/** The chunks with one more tool call after the first. */
async function* withSecondCall(chunks) {
  let added = false;
  for await (const chunk of chunks) {
    yield chunk;
    if (chunk.tool_call && !added) {
      added = true;
      yield { tool_call: chunk.tool_call };
    }
  }
}

/**
 * The chunks until `count` of them were sent; then the connection is destroyed
 * mid-stream, or with `error` closed after an SSE `error` event, as the real API
 * reports an overload in the middle of a stream.
 */
async function* cutStream(res, chunks, count, error) {
  let sent = 0;
  for await (const chunk of chunks) {
    if (sent++ === count) {
      if (error) res.end(`event: error\ndata: ${JSON.stringify({ type: "error", error })}\n\n`);
      // Let the deltas already written reach the client first.
      await new Promise((resolve) => setTimeout(resolve, 50));
      res.destroy();
      // Stop the adapter too: it must not write the closing events.
      throw new Error(`variant cut: connection dropped after ${count} deltas`);
    }
    yield chunk;
  }
}

function withoutUndefined(env) {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined));
}

function listFiles(dir) {
  try {
    return execFileSync("find", [dir, "-type", "f"], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map((f) => f.slice(dir.length + 1))
      .sort();
  } catch {
    return [];
  }
}

const ALL = [
  "text",
  "tool",
  "thinking",
  "error400",
  "retry500",
  "error503",
  "slow",
  "sigterm",
  "maxturns",
  "denied",
  "error429",
  "error401",
  "nokey",
  "error503default",
  "sigintTool",
  "error529",
  "retryAfter",
  "cut",
  "nopartial",
  "sigintRetry",
  "sighup",
  "sseError",
  "error403",
  "error404",
  "error422",
  "twoTools",
  "tooLong",
  "maxTokens",
  "toolFails",
  "retry429",
  "retry529",
  "subagent",
];
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const live = LIVE_TARGETS.find((t) => t.backend === "claude");
  const [target] = process.env.CLAUDE_BIN
    ? [{ ...live, executable: process.env.CLAUDE_BIN, runtime: "native binary" }]
    : await installBackends([live]);
  await captureClaude(target, process.argv.slice(2));
}

/**
 * Record `wanted` (default: every scenario) with `target` (an installed live
 * target) into test/fixtures/live/<target id>/ (or CLAUDE_CAPTURE_DIR).
 */
export async function captureClaude(target, wanted = []) {
  const names = wanted.length ? wanted : ALL;
  const fixtures =
    process.env.CLAUDE_CAPTURE_DIR ?? fileURLToPath(new URL(`../../fixtures/live/${target.id}/`, import.meta.url));
  mkdirSync(fixtures, { recursive: true });
  const manifestPath = join(fixtures, "manifest.json");
  const manifest = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, "utf8")) : [];
  for (const name of names) {
    const run = await runScenario(target.executable, name);
    writeFileSync(join(fixtures, `${name}.jsonl`), run.stdout);
    writeFileSync(join(fixtures, `${name}.stderr.txt`), run.stderr);
    const entry = {
      file: `${name}.jsonl`,
      scenario: DESCRIPTIONS[name],
      prompt: SCENARIOS[(VARIANTS[name] ?? { scenario: name }).scenario].prompt,
      producer: `${target.package}@${target.version} (native binary)`,
      args: run.args,
      exit_code: run.exitCode,
      signal: run.signal,
      ...(run.stopSignal ? { stopped_with: run.stopSignal } : {}),
      model_requests: run.modelRequests,
    };
    const at = manifest.findIndex((e) => e.file === entry.file);
    if (at >= 0) manifest[at] = entry;
    else manifest.push(entry);
    process.stderr.write(
      `capture: ${name}: exit ${run.exitCode ?? run.signal}, ${run.stdout.split("\n").length - 1} lines, ${run.modelRequests} model requests (${run.requests.map((r) => `${r.scenario}#${r.attempt}:${r.reply.status}`).join(" ")}), ${run.seconds}s\n`,
    );
    process.stderr.write(`capture: ${name}: HOME files: ${run.homeFiles.join(" ")}\n`);
  }
  // Entries added by hand (a rare outcome kept from a repeat run) go last.
  const rank = (entry) => {
    const at = ALL.indexOf(entry.file.replace(/\.jsonl$/, ""));
    return at < 0 ? ALL.length : at;
  };
  manifest.sort((a, b) => rank(a) - rank(b));
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 1)}\n`);
}
