// OpenAI Chat Completions (`POST /v1/chat/completions`, SSE `data:` frames),
// as pi and EvoScientist's OpenAI-compatible providers call it.
import { MODEL_ID, nowSeconds, retryHeaders, sendJson, startEvents, textOf } from "./common.mjs";

export const openaiChat = {
  name: "openai-chat",

  route(method, path) {
    if (method === "GET" && path.endsWith("/models")) {
      return {
        status: 200,
        body: { object: "list", data: [{ id: MODEL_ID, object: "model", created: 0, owned_by: "fake" }] },
      };
    }
    return method === "POST" && path.endsWith("/chat/completions") ? "call" : undefined;
  },

  view(body) {
    const messages = Array.isArray(body.messages) ? body.messages : [];
    return {
      userText: messages
        .filter((m) => m.role === "user")
        .map((m) => textOf(m.content))
        .join("\n"),
      lastRole: messages.at(-1)?.role,
      tools: (body.tools ?? [])
        .map((t) => ({ name: t.function?.name, parameters: t.function?.parameters }))
        .filter((t) => t.name),
      stream: body.stream === true,
    };
  },

  error(res, status, { type, message, ...retry }) {
    sendJson(res, status, { error: { message, type, param: null, code: null } }, retryHeaders(retry));
  },

  async stream(res, reply, chunks, usage) {
    const frame = (choices, extra = {}) => ({
      id: `chatcmpl-${reply.id}`,
      object: "chat.completion.chunk",
      created: nowSeconds(),
      model: MODEL_ID,
      choices,
      ...extra,
    });
    const send = (value) => res.write(`data: ${JSON.stringify(value)}\n\n`);
    startEvents(res);
    send(frame([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]));
    let toolIndex = 0;
    for await (const chunk of chunks) {
      if (chunk.tool_call) {
        // Name first, then the arguments in two fragments, as real providers do.
        const call = reply.toolCalls[toolIndex];
        const args = JSON.stringify(call.arguments);
        const half = Math.floor(args.length / 2);
        const delta = (fn, head = {}) => ({ tool_calls: [{ index: toolIndex, ...head, function: fn }] });
        send(
          frame([
            {
              index: 0,
              delta: delta({ name: call.name, arguments: "" }, { id: call.id, type: "function" }),
              finish_reason: null,
            },
          ]),
        );
        send(frame([{ index: 0, delta: delta({ arguments: args.slice(0, half) }), finish_reason: null }]));
        send(frame([{ index: 0, delta: delta({ arguments: args.slice(half) }), finish_reason: null }]));
        toolIndex++;
      } else {
        send(frame([{ index: 0, delta: chatDelta(chunk), finish_reason: null }]));
      }
    }
    send(frame([{ index: 0, delta: {}, finish_reason: FINISH[reply.finish] }]));
    send(frame([], { usage: chatUsage(usage()) }));
    res.end("data: [DONE]\n\n");
  },

  complete(res, reply, chunks, usage) {
    const content = chunks.map((c) => c.content ?? "").join("");
    const reasoning = chunks.map((c) => c.reasoning ?? "").join("");
    const toolCalls = reply.toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    }));
    const message = {
      role: "assistant",
      content,
      ...(reasoning ? { reasoning_content: reasoning } : {}),
      ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
    };
    sendJson(res, 200, {
      id: `chatcmpl-${reply.id}`,
      object: "chat.completion",
      created: nowSeconds(),
      model: MODEL_ID,
      choices: [{ index: 0, message, finish_reason: FINISH[reply.finish] }],
      usage: chatUsage(usage()),
    });
  },
};

const FINISH = { stop: "stop", tool_use: "tool_calls" };

/** A neutral chunk ({content} or {reasoning}) as a chat delta. */
function chatDelta(chunk) {
  return chunk.reasoning !== undefined ? { reasoning_content: chunk.reasoning } : { content: chunk.content };
}

function chatUsage({ input_tokens, output_tokens }) {
  return { prompt_tokens: input_tokens, completion_tokens: output_tokens, total_tokens: input_tokens + output_tokens };
}
