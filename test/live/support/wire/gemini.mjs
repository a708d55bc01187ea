// The Gemini API (`POST /v1beta/models/{model}:streamGenerateContent?alt=sse`,
// SSE `data:` frames of GenerateContentResponse; `:generateContent` whole),
// as Gemini CLI calls it through @google/genai with GOOGLE_GEMINI_BASE_URL.
import { MODEL_ID, sendJson, startEvents, textOf } from "./common.mjs";

const STATUS_NAMES = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

export const gemini = {
  name: "gemini",

  route(method, path) {
    if (method === "GET" && /\/models$/.test(path))
      return { status: 200, body: { models: [{ name: `models/${MODEL_ID}`, displayName: MODEL_ID }] } };
    if (method === "POST" && path.endsWith(":countTokens")) return { status: 200, body: { totalTokens: 40 } };
    return method === "POST" && /:(stream)?generateContent$/i.test(path) ? "call" : undefined;
  },

  view(body, path) {
    const contents = Array.isArray(body.contents) ? body.contents : [];
    const last = contents.at(-1);
    const answersTool = (last?.parts ?? []).some((p) => p?.functionResponse !== undefined);
    return {
      userText: contents
        .filter((c) => c.role === "user")
        .flatMap((c) => c.parts ?? [])
        .map((p) => textOf([p]))
        .join("\n"),
      lastRole: answersTool ? "tool" : last?.role,
      tools: (body.tools ?? [])
        .flatMap((t) => t.functionDeclarations ?? [])
        .map((f) => ({ name: f.name, parameters: f.parametersJsonSchema ?? f.parameters }))
        .filter((t) => t.name),
      stream: path.endsWith(":streamGenerateContent"),
    };
  },

  error(res, status, { message }) {
    sendJson(res, status, { error: { code: status, message, status: STATUS_NAMES[status] ?? "UNKNOWN" } });
  },

  async stream(res, reply, chunks, usage) {
    const send = (value) => res.write(`data: ${JSON.stringify(value)}\r\n\r\n`);
    startEvents(res);
    let toolIndex = 0;
    for await (const chunk of chunks) {
      const part = chunk.tool_call ? callPart(reply.toolCalls[toolIndex++]) : textPart(chunk);
      send(response(reply, [part]));
    }
    send(response(reply, [{ text: "" }], FINISH[reply.finish], geminiUsage(usage())));
    res.end();
  },

  complete(res, reply, chunks, usage) {
    let toolIndex = 0;
    const parts = chunks.map((chunk) => (chunk.tool_call ? callPart(reply.toolCalls[toolIndex++]) : textPart(chunk)));
    sendJson(res, 200, response(reply, parts, FINISH[reply.finish], geminiUsage(usage())));
  },
};

// Gemini ends a turn that calls a function with STOP too.
const FINISH = { stop: "STOP", tool_use: "STOP" };

function response(reply, parts, finishReason, usageMetadata) {
  const candidate = { content: { role: "model", parts }, index: 0, ...(finishReason ? { finishReason } : {}) };
  return {
    candidates: [candidate],
    ...(usageMetadata ? { usageMetadata } : {}),
    modelVersion: MODEL_ID,
    responseId: reply.id,
  };
}

function textPart(chunk) {
  return chunk.reasoning !== undefined ? { text: chunk.reasoning, thought: true } : { text: chunk.content };
}

function callPart(call) {
  return { functionCall: { id: call.id, name: call.name, args: call.arguments } };
}

function geminiUsage({ input_tokens, output_tokens }) {
  return {
    promptTokenCount: input_tokens,
    candidatesTokenCount: output_tokens,
    totalTokenCount: input_tokens + output_tokens,
  };
}
