// Drives one real agent over the Agent Client Protocol (docs/protocols/acp.md) through one
// scenario, as a small client on @agentclientprotocol/sdk, and keeps exactly what the agent
// wrote on stdout (one JSON-RPC message a line, as written): the raw material of the ACP
// captures and of `normalize --from acp`.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { client, ndJsonStream, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { withScenarioHome } from "./backend-home.mjs";
import { MODEL_ID } from "./fake-model-server.mjs";
import { SCENARIOS } from "./scenarios.mjs";

/** How each agent is started in ACP mode (its argv minus the executable). */
const ACP_ARGS = {
  // Gemini CLI's default model ("auto") waits about 100 s before its first request here: name one.
  gemini: ["--acp", "--model", MODEL_ID],
  opencode: ["acp"],
  copilot: ["--acp", "--model", MODEL_ID, "--no-auto-update"],
  qwen: ["--acp", "--auth-type", "openai", "--model", MODEL_ID],
};

/**
 * The ACP scenarios: which fake-model scenario answers, how the client answers a permission
 * request (`allow`, `reject`, or `cancel`: session/cancel, then the request answered cancelled,
 * as a client with no rule for the call ends the turn), and whether the turn is cancelled once
 * the slow answer streams.
 */
export const ACP_SCENARIOS = {
  text: { model: "text", permission: "allow", description: "plain streamed text answer (with its usage)" },
  tool: {
    model: "tool",
    permission: "allow",
    description: "one tool call listing the working directory, allowed by the client, then a final answer",
  },
  denied: {
    model: "denied",
    permission: "reject",
    description: "one shell call (touch), rejected by the client (reject_once); the turn goes on",
  },
  norule: {
    model: "denied",
    permission: "cancel",
    description: "one shell call no rule allows: the client cancels the turn and answers the request cancelled",
  },
  error400: { model: "error400", permission: "allow", description: "provider answers HTTP 400 (not retryable)" },
  error503: {
    model: "error503",
    permission: "allow",
    description: "HTTP 503 on every attempt; retries run out",
  },
  slow: {
    model: "slow",
    permission: "allow",
    cancelWhenStreaming: true,
    description: "slow text stream, cancelled with session/cancel after its second tick",
  },
};

const TURN_LIMIT_MS = 4 * 60_000;
/** How long the client waits after the prompt's response for late messages before it closes stdin. */
const LINGER_MS = 1500;
const EXIT_GRACE_MS = 10_000;

/**
 * Run `target` (an installed agent) on an ACP scenario; resolves with what it wrote and how it ended.
 * `straceTo`: run it under `strace -f -e trace=connect` writing there (to check it stays on 127.0.0.1).
 */
export function runAcp(target, name, { straceTo } = {}) {
  const scenario = ACP_SCENARIOS[name];
  return withScenarioHome(target.backend, scenario.model, async (home, server) => {
    const args = ACP_ARGS[target.backend];
    const [file, argv] = straceTo
      ? ["strace", ["-f", "-e", "trace=connect", "-o", straceTo, target.executable, ...args]]
      : [target.executable, args];
    const child = spawn(file, argv, {
      cwd: home.cwd,
      env: home.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    const exited = new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
    let stdout = "";
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (text) => (stderr += text));
    // The agent's bytes are kept as written before the SDK reads them.
    const tee = new Readable({ read() {} });
    child.stdout.on("data", (chunk) => {
      stdout += chunk.toString("utf8");
      tee.push(chunk);
    });
    child.stdout.on("end", () => tee.push(null));
    child.stdin.on("error", () => {});
    const stream = ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(tee));
    const killer = setTimeout(() => process.kill(-child.pid, "SIGKILL"), TURN_LIMIT_MS);
    let turn;
    try {
      turn = await drive(stream, home.cwd, scenario);
    } catch (err) {
      turn = { error: String(err?.message ?? err) };
    }
    await new Promise((resolve) => setTimeout(resolve, LINGER_MS));
    child.stdin.end();
    const graceful = setTimeout(() => process.kill(-child.pid, "SIGTERM"), EXIT_GRACE_MS);
    const exit = await exited;
    clearTimeout(graceful);
    clearTimeout(killer);
    return { stdout, stderr, args, exit, turn, modelRequests: server.requests.length };
  });
}

/** initialize, session/new, session/prompt, answering permission requests as the scenario says. */
async function drive(stream, cwd, scenario) {
  let session;
  let context;
  const seen = [];
  let cancelled = false;
  let texts = "";
  const cancel = () => {
    if (cancelled || !session) return;
    cancelled = true;
    context.notify("session/cancel", { sessionId: session }).catch(() => {});
  };
  const app = client({ name: "agentstream-acp-capture" })
    .onRequest("session/request_permission", ({ params }) => {
      seen.push(params.options.map((o) => o.kind));
      if (scenario.permission === "cancel") {
        cancel();
        return { outcome: { outcome: "cancelled" } };
      }
      const kinds = scenario.permission === "allow" ? ["allow_once", "allow_always"] : ["reject_once", "reject_always"];
      const option = params.options.find((o) => kinds.includes(o.kind));
      return option
        ? { outcome: { outcome: "selected", optionId: option.optionId } }
        : { outcome: { outcome: "cancelled" } };
    })
    .onNotification("session/update", ({ params }) => {
      const update = params.update;
      if (!scenario.cancelWhenStreaming || update.sessionUpdate !== "agent_message_chunk") return;
      texts += update.content?.text ?? "";
      if (texts.includes("tick 2")) cancel();
    });
  return app.connectWith(stream, async (agent) => {
    context = agent;
    const init = await agent.request("initialize", {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      clientInfo: { name: "agentstream-acp-capture", version: "0" },
    });
    const created = await agent.request("session/new", { cwd, mcpServers: [] });
    session = created.sessionId;
    const prompt = SCENARIOS[scenario.model].prompt;
    try {
      const response = await agent.request("session/prompt", {
        sessionId: session,
        prompt: [{ type: "text", text: prompt }],
      });
      return { agent: init.agentInfo, stopReason: response.stopReason, permissions: seen, cancelled };
    } catch (err) {
      return { agent: init.agentInfo, error: { code: err.code, message: err.message }, permissions: seen, cancelled };
    }
  });
}
