// A fake model API for driving real backends offline. Loopback only, on a
// random port; it serves a bounded number of requests and closes itself after
// a period without any. What a scenario answers is provider-neutral
// (scenarios.mjs); a wire adapter (wire/*.mjs) speaks one provider's format.
import { createServer } from "node:http";
import { replyFor, scenarioOf, USAGE_PER_CALL } from "./scenarios.mjs";
import { MODEL_ID, sendJson } from "./wire/common.mjs";
import { openaiChat } from "./wire/openai-chat.mjs";

export { MODEL_ID };
const MAX_REQUESTS = 200;
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const DEFAULT_IDLE_CLOSE_MS = 5 * 60_000;
/** The slow scenario's pace and length: long enough to be stopped, never endless. */
const SLOW_CHUNK_MS = 250;
const SLOW_MAX_CHUNKS = 480;

/**
 * Start the server. `requests` records every model request (scenario, attempt,
 * the body); `usage` adds up the tokens reported by completed replies.
 *
 * A wire adapter has:
 * - `route(method, path)`: "call" for a model request, `{ status, body }` for
 *   another route it answers (a model list), undefined for none;
 * - `view(body, path)`: the request as scenarios see it,
 *   `{ userText, lastRole ("user" | "tool" | ...), tools: [{ name, parameters }], stream }`;
 * - `error(res, status, { type, message })`: the provider's error body;
 * - `stream(res, reply, chunks, usage)` and `complete(res, reply, chunks, usage)`:
 *   a streamed or whole reply (`chunks` is async iterable; `usage()` reports
 *   one call's tokens as `{ input_tokens, output_tokens }` and counts them).
 */
export async function startFakeModelServer({ wire = openaiChat, idleCloseMs = DEFAULT_IDLE_CLOSE_MS } = {}) {
  const state = {
    requests: [],
    usage: { input_tokens: 0, output_tokens: 0 },
    attempts: new Map(),
    served: 0,
    replies: 0,
  };
  const sockets = new Set();
  let idleTimer;
  const server = createServer((req, res) => {
    armIdleTimer();
    state.served++;
    if (state.served > MAX_REQUESTS)
      return wire.error(res, 429, { type: "rate_limit", message: "fake server: request limit reached" });
    handle(req, res, state, wire).catch((err) => {
      if (!res.headersSent) wire.error(res, 500, { type: "server_error", message: `fake server: ${err.message}` });
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
    origin: `http://127.0.0.1:${port}`,
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests: state.requests,
    usage: state.usage,
    /** Model requests made for one scenario. */
    requestsFor: (scenario) => state.requests.filter((r) => r.scenario === scenario),
    close,
  };
}

async function handle(req, res, state, wire) {
  const path = new URL(req.url ?? "/", "http://localhost").pathname.replace(/\/+$/, "");
  const route = wire.route(req.method, path);
  if (route === undefined)
    return wire.error(res, 404, { type: "not_found", message: `fake server: no route ${req.method} ${path}` });
  if (route !== "call") return sendJson(res, route.status, route.body);
  const text = await readBody(req);
  const body = text === "" ? {} : JSON.parse(text);
  const view = wire.view(body, path);
  const scenario = scenarioOf(view) ?? "unscripted";
  const attempt = (state.attempts.get(scenario) ?? 0) + 1;
  state.attempts.set(scenario, attempt);
  const reply = withIds(replyFor(scenario, view, attempt), state);
  state.requests.push({ scenario, attempt, body, reply: { status: reply.status ?? 200, toolCalls: reply.toolCalls } });

  if (reply.status) return wire.error(res, reply.status, reply.error);
  const chunks = reply.slow ? slowChunks() : reply.chunks;
  const usage = () => usageReport(state);
  if (view.stream) {
    let closed = false;
    res.on("close", () => (closed = true));
    // The client went away (a cancelled run): stop producing.
    return wire.stream(
      res,
      reply,
      untilClosed(chunks, () => closed),
      usage,
    );
  }
  return wire.complete(res, reply, await collect(chunks), usage);
}

/** Give the reply its response id, and each tool call an id the backend will echo. */
function withIds(reply, state) {
  const n = ++state.replies;
  const id = `fake-${n}`;
  const toolCalls = (reply.chunks ?? [])
    .filter((c) => c.tool_call)
    .map((c, i) => ({ id: `call_fake_${n}_${i}`, ...c.tool_call }));
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

async function* slowChunks() {
  for (let i = 1; i <= SLOW_MAX_CHUNKS; i++) {
    await new Promise((resolve) => setTimeout(resolve, SLOW_CHUNK_MS));
    yield { content: `tick ${i}. ` };
  }
}

async function* untilClosed(chunks, closed) {
  for await (const chunk of chunks) {
    if (closed()) return;
    yield chunk;
  }
}

async function collect(chunks) {
  const out = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

function usageReport(state) {
  state.usage.input_tokens += USAGE_PER_CALL.input_tokens;
  state.usage.output_tokens += USAGE_PER_CALL.output_tokens;
  return { ...USAGE_PER_CALL };
}
