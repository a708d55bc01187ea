// OpenAI Responses (`POST /v1/responses`, SSE `event:` + `data:` frames), as
// the Codex CLI (codex-rs) calls it with `wire_api = "responses"`.
//
// What codex-rs reads of the stream (codex-api/src/sse/responses.rs):
// response.created, response.output_item.added / .done (the item itself),
// response.output_text.delta, response.reasoning_summary_text.delta (+
// summary_index), response.reasoning_summary_part.added, response.failed and
// response.completed (`response.id` required, `response.usage` optional). The
// other events written here (content_part.*, output_text.done,
// function_call_arguments.*) are sent because real servers send them; codex
// ignores them, so the item in output_item.done must be whole.
import { MODEL_ID, nowSeconds, retryHeaders, sendJson, startEvents, textOf } from "./common.mjs";
import { DENIED_COMMAND } from "../scenarios.mjs";

/**
 * Codex offers its shell as `exec_command` ({ cmd }) or `shell` ({ command: [argv] })
 * or `shell_command` ({ command }), depending on the model family. Scenarios
 * know a `bash` tool taking `{ command }`: it is shown to them under that
 * name and written back in the offered tool's own shape.
 */
const SHELL_TOOLS = {
  exec_command: (command) => ({ cmd: command }),
  shell_command: (command) => ({ command }),
  shell: (command) => ({ command: ["bash", "-lc", command] }),
};

// The shell tool the last request offered. `view` and `stream` of one request
// run with no await between them (fake-model-server.mjs), so this is that request's.
let offeredShell;
// Whether that request's sandbox is read-only with escalation to the user offered (Codex's `read-only` mode over
// its ACP adapter: approval on-request): a command that writes then asks, as a real model is told to.
let escalates;

export const openaiResponses = {
  name: "openai-responses",

  route(method, path) {
    if (method === "GET" && path.endsWith("/models")) {
      return {
        status: 200,
        body: { object: "list", data: [{ id: MODEL_ID, object: "model", created: 0, owned_by: "fake" }] },
      };
    }
    return method === "POST" && path.endsWith("/responses") ? "call" : undefined;
  },

  view(body) {
    const input = Array.isArray(body.input) ? body.input : [];
    const last = input.at(-1);
    offeredShell = (body.tools ?? []).map((t) => t.name).find((name) => name in SHELL_TOOLS);
    const said = JSON.stringify(input);
    escalates = said.includes("`sandbox_mode` is `read-only`") && said.includes("# Escalation Requests");
    return {
      userText: input
        .filter((item) => item.role === "user")
        .map((item) => textOf(item.content))
        .join("\n"),
      lastRole: last?.type === "function_call_output" || last?.type === "custom_tool_call_output" ? "tool" : last?.role,
      tools: (body.tools ?? []).map(scenarioTool).filter((t) => t.name),
      stream: body.stream === true,
    };
  },

  error(res, status, { type, message, ...retry }) {
    sendJson(res, status, { error: { message, type, param: null, code: null } }, retryHeaders(retry));
  },

  async stream(res, reply, chunks, usage) {
    const shell = offeredShell;
    const responseId = `resp_${reply.id}`;
    let sequence = 0;
    const send = (type, fields) =>
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...fields })}\n\n`);
    const output = [];
    startEvents(res);
    send("response.created", { response: responseObject(responseId, "in_progress", []) });

    // One open output item at a time: a message or a reasoning item gathers
    // consecutive deltas of its kind; a tool call is one item of its own.
    let open;
    const close = () => {
      if (!open) return;
      const item = open.finish();
      send("response.output_item.done", { output_index: open.index, item });
      output.push(item);
      open = undefined;
    };
    const openItem = (kind) => {
      if (open?.kind === kind) return open;
      close();
      open = textItem(kind, send, responseId, output.length);
      return open;
    };

    let toolIndex = 0;
    for await (const chunk of chunks) {
      if (chunk.tool_call) {
        close();
        const call = nativeCall(reply.toolCalls[toolIndex++], shell);
        const item = functionCallItem(send, responseId, output.length, call);
        send("response.output_item.done", { output_index: output.length, item });
        output.push(item);
      } else if (chunk.reasoning !== undefined) {
        openItem("reasoning").delta(chunk.reasoning);
      } else {
        openItem("message").delta(chunk.content ?? "");
      }
    }
    close();
    send("response.completed", {
      response: { ...responseObject(responseId, "completed", output), usage: responsesUsage(usage()) },
    });
    res.end();
  },

  complete(res, reply, chunks, usage) {
    const responseId = `resp_${reply.id}`;
    const output = [];
    const reasoning = chunks.map((c) => c.reasoning ?? "").join("");
    const content = chunks.map((c) => c.content ?? "").join("");
    if (reasoning)
      output.push({
        type: "reasoning",
        id: `rs_${responseId}_0`,
        summary: [{ type: "summary_text", text: reasoning }],
      });
    if (content) output.push(messageBody(`msg_${responseId}_${output.length}`, "completed", content));
    for (const call of reply.toolCalls.map((c) => nativeCall(c, offeredShell)))
      output.push(functionCallBody(`fc_${call.id}`, call, "completed"));
    sendJson(res, 200, { ...responseObject(responseId, "completed", output), usage: responsesUsage(usage()) });
  },
};

/** A Responses tool as the scenarios see it: a shell tool shows as `bash`. */
function scenarioTool(tool) {
  const name = tool.name ?? tool.function?.name;
  if (name in SHELL_TOOLS) return { name: "bash", parameters: tool.parameters };
  return { name, parameters: tool.parameters ?? tool.function?.parameters };
}

function responseObject(id, status, output) {
  return { id, object: "response", created_at: nowSeconds(), status, model: MODEL_ID, output };
}

function messageBody(id, status, text) {
  return { type: "message", id, status, role: "assistant", content: [{ type: "output_text", text, annotations: [] }] };
}

/**
 * How a streamed text item of each kind is written: its id prefix, the item
 * while open and when whole, its part, and the event names of its deltas.
 */
const TEXT_ITEMS = {
  message: {
    prefix: "msg",
    open: (id) => ({ type: "message", id, status: "in_progress", role: "assistant", content: [] }),
    whole: (id, text) => messageBody(id, "completed", text),
    part: (text) => ({ type: "output_text", text, annotations: [] }),
    at: { content_index: 0 },
    events: [
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
    ],
  },
  reasoning: {
    prefix: "rs",
    open: (id) => ({ type: "reasoning", id, summary: [] }),
    whole: (id, text) => ({ type: "reasoning", id, summary: [{ type: "summary_text", text }] }),
    part: (text) => ({ type: "summary_text", text }),
    at: { summary_index: 0 },
    events: [
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.done",
      "response.reasoning_summary_part.done",
    ],
  },
};

/** An open text item: `delta(text)` streams a part, `finish()` closes it and returns the whole item. */
function textItem(kind, send, responseId, index) {
  const shape = TEXT_ITEMS[kind];
  const [partAdded, deltaEvent, textDone, partDone] = shape.events;
  const id = `${shape.prefix}_${responseId}_${index}`;
  const where = { item_id: id, output_index: index, ...shape.at };
  let text = "";
  send("response.output_item.added", { output_index: index, item: shape.open(id) });
  send(partAdded, { ...where, part: shape.part("") });
  return {
    kind,
    index,
    delta(part) {
      text += part;
      send(deltaEvent, { ...where, delta: part });
    },
    finish() {
      send(textDone, { ...where, text });
      send(partDone, { ...where, part: shape.part(text) });
      return shape.whole(id, text);
    },
  };
}

/** The call in the offered tool's name and argument shape. */
function nativeCall(call, shell) {
  if (call.name !== "bash" || !shell) return call;
  const { command } = call.arguments;
  const escalated =
    escalates && shell === "exec_command" && command === DENIED_COMMAND
      ? { sandbox_permissions: "require_escalated", justification: "Create the file the user asked for?" }
      : {};
  return { ...call, name: shell, arguments: { ...SHELL_TOOLS[shell](command), ...escalated } };
}

function functionCallBody(id, call, status) {
  return {
    type: "function_call",
    id,
    status,
    call_id: call.id,
    name: call.name,
    arguments: JSON.stringify(call.arguments),
  };
}

/** A function call item: added, its arguments in two fragments, done (returned). */
function functionCallItem(send, _responseId, index, call) {
  const id = `fc_${call.id}`;
  const args = JSON.stringify(call.arguments);
  const half = Math.floor(args.length / 2);
  send("response.output_item.added", {
    output_index: index,
    item: { ...functionCallBody(id, call, "in_progress"), arguments: "" },
  });
  send("response.function_call_arguments.delta", { item_id: id, output_index: index, delta: args.slice(0, half) });
  send("response.function_call_arguments.delta", { item_id: id, output_index: index, delta: args.slice(half) });
  send("response.function_call_arguments.done", { item_id: id, output_index: index, arguments: args });
  return functionCallBody(id, call, "completed");
}

/**
 * How many of each call's input tokens the usage says were read from the
 * prompt cache: part of `input_tokens` (OpenAI semantics), so a translator
 * that adds them again counts them twice.
 */
export const CACHED_INPUT_PER_CALL = 16;

function responsesUsage({ input_tokens, output_tokens }) {
  return {
    input_tokens,
    input_tokens_details: { cached_tokens: Math.min(CACHED_INPUT_PER_CALL, input_tokens) },
    output_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input_tokens + output_tokens,
  };
}
