// An OpenAI-compatible Chat Completions server for driving real backends
// offline. Loopback only, on a random port; it serves a bounded number of
// requests and closes itself after a period without any.
import { createServer } from "node:http";
import { replyFor, scenarioOf, USAGE_PER_CALL } from "./scenarios.mjs";

export const MODEL_ID = "fake-model";
const MAX_REQUESTS = 200;
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const DEFAULT_IDLE_CLOSE_MS = 5 * 60_000;
/** The slow scenario's pace and length: long enough to be stopped, never endless. */
const SLOW_CHUNK_MS = 250;
const SLOW_MAX_CHUNKS = 480;

/**
 * Start the server. `requests` records every chat request (scenario, attempt,
 * the body); `usage` adds up the tokens reported by completed streams.
 */
export async function startFakeModelServer({ idleCloseMs = DEFAULT_IDLE_CLOSE_MS } = {}) {
  const state = { requests: [], usage: { input_tokens: 0, output_tokens: 0 }, attempts: new Map(), served: 0, replies: 0 };
  const sockets = new Set();
  let idleTimer;
  const server = createServer((req, res) => {
    armIdleTimer();
    state.served++;
    if (state.served > MAX_REQUESTS) return sendJson(res, 429, { error: { message: "fake server: request limit reached", type: "rate_limit" } });
    handle(req, res, state).catch((err) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `fake server: ${err.message}`, type: "server_error" } });
      else res.destroy();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });

  function armIdleTimer() {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(close, idleCloseMs);
    idleTimer.unref();
  }
  function close() {
    clearTimeout(idleTimer);
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(() => resolve()));
  }
  armIdleTimer();

  const { port } = server.address();
  return {
    port,
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests: state.requests,
    usage: state.usage,
    /** Chat requests made for one scenario. */
    requestsFor: (scenario) => state.requests.filter((r) => r.scenario === scenario),
    close,
  };
}

async function handle(req, res, state) {
  const path = new URL(req.url ?? "/", "http://localhost").pathname.replace(/\/+$/, "");
  if (req.method === "GET" && path.endsWith("/models")) {
    return sendJson(res, 200, { object: "list", data: [{ id: MODEL_ID, object: "model", created: 0, owned_by: "fake" }] });
  }
  if (req.method !== "POST" || !path.endsWith("/chat/completions")) {
    return sendJson(res, 404, { error: { message: `fake server: no route ${req.method} ${path}`, type: "not_found" } });
  }
  const body = JSON.parse(await readBody(req));
  const scenario = scenarioOf(body) ?? "unscripted";
  const attempt = (state.attempts.get(scenario) ?? 0) + 1;
  state.attempts.set(scenario, attempt);
  const reply = withIds(replyFor(scenario, body, attempt), state);
  state.requests.push({ scenario, attempt, body, reply: { status: reply.status ?? 200, toolCalls: reply.toolCalls } });

  if (reply.status) return sendJson(res, reply.status, reply.body);
  const chunks = reply.slow ? slowChunks() : reply.chunks;
  if (body.stream) return streamReply(res, reply, chunks, state);
  return sendJson(res, 200, completion(reply, await collect(chunks), state));
}

/** Give the reply its response id, and each tool call an id the backend will echo. */
function withIds(reply, state) {
  const n = ++state.replies;
  const id = `chatcmpl-fake-${n}`;
  const toolCalls = (reply.chunks ?? []).filter((c) => c.tool_call).map((c, i) => ({ id: `call_fake_${n}_${i}`, ...c.tool_call }));
  return { ...reply, id, toolCalls };
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    let size = 0;
    const parts = [];
    req.on("data", (part) => {
      size += part.length;
      if (size > MAX_BODY_BYTES) req.destroy(new Error("request body too large"));
      else parts.push(part);
    });
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

function sendJson(res, status, value) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

async function* slowChunks() {
  for (let i = 1; i <= SLOW_MAX_CHUNKS; i++) {
    await new Promise((resolve) => setTimeout(resolve, SLOW_CHUNK_MS));
    yield { content: `tick ${i}. ` };
  }
}

async function collect(chunks) {
  const out = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

async function streamReply(res, reply, chunks, state) {
  const frame = (choices, extra = {}) => ({ id: reply.id, object: "chat.completion.chunk", created: nowSeconds(), model: MODEL_ID, choices, ...extra });
  const send = (value) => res.write(`data: ${JSON.stringify(value)}\n\n`);
  let closed = false;
  res.on("close", () => (closed = true));
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  send(frame([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]));
  let toolIndex = 0;
  for await (const chunk of chunks) {
    // The client went away (a cancelled run): stop producing.
    if (closed) return;
    if (chunk.tool_call) {
      // Name first, then the arguments in two fragments, as real providers do.
      const call = reply.toolCalls[toolIndex];
      const args = JSON.stringify(call.arguments);
      const half = Math.floor(args.length / 2);
      const delta = (fn, head = {}) => ({ tool_calls: [{ index: toolIndex, ...head, function: fn }] });
      send(frame([{ index: 0, delta: delta({ name: call.name, arguments: "" }, { id: call.id, type: "function" }), finish_reason: null }]));
      send(frame([{ index: 0, delta: delta({ arguments: args.slice(0, half) }), finish_reason: null }]));
      send(frame([{ index: 0, delta: delta({ arguments: args.slice(half) }), finish_reason: null }]));
      toolIndex++;
    } else {
      send(frame([{ index: 0, delta: chunk, finish_reason: null }]));
    }
  }
  send(frame([{ index: 0, delta: {}, finish_reason: reply.finish }]));
  send(frame([], { usage: usageReport(state) }));
  res.end("data: [DONE]\n\n");
}

function completion(reply, chunks, state) {
  const content = chunks.map((c) => c.content ?? "").join("");
  const reasoning = chunks.map((c) => c.reasoning_content ?? "").join("");
  const toolCalls = reply.toolCalls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: JSON.stringify(call.arguments) } }));
  const message = { role: "assistant", content, ...(reasoning ? { reasoning_content: reasoning } : {}), ...(toolCalls.length ? { tool_calls: toolCalls } : {}) };
  return {
    id: reply.id,
    object: "chat.completion",
    created: nowSeconds(),
    model: MODEL_ID,
    choices: [{ index: 0, message, finish_reason: reply.finish }],
    usage: usageReport(state),
  };
}

function usageReport(state) {
  state.usage.input_tokens += USAGE_PER_CALL.prompt_tokens;
  state.usage.output_tokens += USAGE_PER_CALL.completion_tokens;
  return { ...USAGE_PER_CALL, total_tokens: USAGE_PER_CALL.prompt_tokens + USAGE_PER_CALL.completion_tokens };
}

function nowSeconds() {
  return Math.floor(Date.now() / 1000);
}
