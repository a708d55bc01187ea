// Anthropic Messages API (`POST /v1/messages`, SSE with named events), as
// Claude Code calls it (it appends `?beta=true`; the path is what counts).
import { MODEL_ID, sendJson, startEvents, textOf } from "./common.mjs";

/**
 * Claude Code names its shell tool `Bash`; the scenarios look for `bash`.
 * The view offers the lower-case name and the reply writes the real one back.
 */
const SCENARIO_TOOL_NAMES = { Bash: "bash" };
const WIRE_TOOL_NAMES = Object.fromEntries(
  Object.entries(SCENARIO_TOOL_NAMES).map(([wire, scenario]) => [scenario, wire]),
);

/** The error `type` Anthropic gives each status (the scenario's own type is OpenAI-flavoured). */
const ERROR_TYPES = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  503: "overloaded_error",
  529: "overloaded_error",
};

const STOP_REASONS = { stop: "end_turn", tool_use: "tool_use", max_tokens: "max_tokens" };

export const anthropicMessages = {
  name: "anthropic-messages",

  route(method, path) {
    // The reachability probe Claude Code sends unless non-essential traffic is off.
    if ((method === "HEAD" || method === "GET") && path === "/api/hello") return { status: 200, body: {} };
    if (method === "GET" && path.endsWith("/models")) {
      return {
        status: 200,
        body: {
          data: [{ type: "model", id: MODEL_ID, display_name: MODEL_ID, created_at: "2025-01-01T00:00:00Z" }],
          has_more: false,
          first_id: MODEL_ID,
          last_id: MODEL_ID,
        },
      };
    }
    // A token count is no model call: answer it without counting an attempt.
    if (method === "POST" && path.endsWith("/messages/count_tokens"))
      return { status: 200, body: { input_tokens: 40 } };
    return method === "POST" && path.endsWith("/messages") ? "call" : undefined;
  },

  view(body) {
    const messages = Array.isArray(body.messages) ? body.messages : [];
    // Claude Code puts a `system` turn (its environment notes) among the messages.
    const last = messages.filter((m) => m.role !== "system").at(-1);
    return {
      userText: messages
        .filter((m) => m.role === "user")
        .map((m) => userTextOf(m.content))
        .join("\n"),
      // A user turn made of tool results answers a tool call.
      lastRole: last?.role === "user" && hasToolResult(last.content) ? "tool" : last?.role,
      // The last tool result's text (the question scenario quotes it).
      toolResult: toolResultText(last?.content),
      tools: (body.tools ?? [])
        .filter((t) => t.name)
        .map((t) => ({ name: SCENARIO_TOOL_NAMES[t.name] ?? t.name, parameters: t.input_schema })),
      stream: body.stream === true,
    };
  },

  error(res, status, { message }) {
    sendJson(
      res,
      status,
      { type: "error", error: { type: ERROR_TYPES[status] ?? "api_error", message } },
      { "request-id": `req_fake_${status}` },
    );
  },

  async stream(res, reply, chunks, usage) {
    const send = (event, data) => res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
    startEvents(res);
    const { input_tokens, output_tokens } = usage();
    // As the real API: the input count opens the message, the output count closes it.
    send("message_start", { message: messageHead(reply, { input_tokens, output_tokens: 1 }) });
    let index = -1;
    let open; // the kind of the open content block ("text", "thinking", "tool_use"), if any
    const close = () => {
      if (open === "thinking")
        send("content_block_delta", {
          index,
          delta: { type: "signature_delta", signature: `sig-${reply.id}-${index}` },
        });
      if (open) send("content_block_stop", { index });
      open = undefined;
    };
    const openBlock = (kind, block) => {
      close();
      index++;
      open = kind;
      send("content_block_start", { index, content_block: block });
    };
    let toolIndex = 0;
    for await (const chunk of chunks) {
      if (chunk.tool_call) {
        // The input in two fragments, as the real API sends partial JSON.
        const call = reply.toolCalls[toolIndex++];
        openBlock("tool_use", { type: "tool_use", id: toolUseId(call.id), name: wireToolName(call.name), input: {} });
        const args = JSON.stringify(call.arguments);
        const half = Math.floor(args.length / 2);
        send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: args.slice(0, half) } });
        send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: args.slice(half) } });
        close();
      } else if (chunk.reasoning !== undefined) {
        if (open !== "thinking") openBlock("thinking", { type: "thinking", thinking: "", signature: "" });
        send("content_block_delta", { index, delta: { type: "thinking_delta", thinking: chunk.reasoning } });
      } else {
        if (open !== "text") openBlock("text", { type: "text", text: "" });
        send("content_block_delta", { index, delta: { type: "text_delta", text: chunk.content } });
      }
    }
    close();
    // The final usage is cumulative for the message, as the real API reports it.
    send("message_delta", {
      delta: { stop_reason: STOP_REASONS[reply.finish], stop_sequence: null },
      usage: { input_tokens, output_tokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
    send("message_stop", {});
    res.end();
  },

  complete(res, reply, chunks, usage) {
    const content = [];
    const reasoning = chunks.map((c) => c.reasoning ?? "").join("");
    const text = chunks.map((c) => c.content ?? "").join("");
    if (reasoning) content.push({ type: "thinking", thinking: reasoning, signature: `sig-${reply.id}` });
    if (text) content.push({ type: "text", text });
    for (const call of reply.toolCalls)
      content.push({ type: "tool_use", id: toolUseId(call.id), name: wireToolName(call.name), input: call.arguments });
    sendJson(res, 200, {
      ...messageHead(reply, anthropicUsage(usage())),
      content,
      stop_reason: STOP_REASONS[reply.finish],
    });
  },
};

function messageHead(reply, usage) {
  return {
    id: `msg_${reply.id}`,
    type: "message",
    role: "assistant",
    model: MODEL_ID,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: anthropicUsage(usage),
  };
}

function anthropicUsage({ input_tokens, output_tokens }) {
  return { input_tokens, output_tokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
}

function toolUseId(id) {
  return `toolu_${id}`;
}

function wireToolName(name) {
  return WIRE_TOOL_NAMES[name] ?? name;
}

/** The text a user turn carries: its text blocks, not tool results. */
function userTextOf(content) {
  if (!Array.isArray(content)) return textOf(content);
  return textOf(content.filter((part) => part?.type === "text"));
}

function toolResultText(content) {
  if (!Array.isArray(content)) return undefined;
  const result = content.filter((part) => part?.type === "tool_result").at(-1);
  return result === undefined ? undefined : textOf(result.content);
}

function hasToolResult(content) {
  return Array.isArray(content) && content.some((part) => part?.type === "tool_result");
}
