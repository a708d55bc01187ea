// What every wire adapter shares: the model's name and plain HTTP replies.

export const MODEL_ID = "fake-model";

export function sendJson(res, status, value, headers = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(value));
}

/** Start a server-sent-events reply. */
export function startEvents(res) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
}

export function nowSeconds() {
  return Math.floor(Date.now() / 1000);
}

/** The text of a message's content: a string, or the text of its parts. */
export function textOf(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part?.text === "string" ? part.text : "")).join(" ");
  return "";
}

/** The retry headers an error asks for (scenarios.mjs: `retryAfterSeconds`, `retryAfterMs`). */
export function retryHeaders({ retryAfterSeconds, retryAfterMs }) {
  return {
    ...(retryAfterSeconds === undefined ? {} : { "retry-after": String(retryAfterSeconds) }),
    ...(retryAfterMs === undefined ? {} : { "retry-after-ms": String(retryAfterMs) }),
  };
}
