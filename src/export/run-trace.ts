import {
  context,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type AttributeValue,
  type Context,
  type HrTime,
  type Span,
  TraceFlags,
  type Tracer,
} from "@opentelemetry/api";
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_AGENT_DESCRIPTION,
  ATTR_GEN_AI_AGENT_ID,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
} from "@opentelemetry/semantic-conventions/incubating";
import type { CanonicalEvent, EventOf, TokenCounts } from "../canonical/events.js";

// How a canonical stream becomes one trace, after the GenAI semantic
// conventions (gen_ai.* as named by @opentelemetry/semantic-conventions 1.45):
//
//   invoke_agent <backend>            the run: run.started .. run.finished
//   ├── chat <model>                  a turn (turn.started .. turn.completed), or a message outside any turn
//   │   └── execute_tool <name>       a tool call: tool.started .. tool.completed
//   │       └── invoke_agent <name>   a sub-agent it started (subagent.started .. subagent.completed)
//   │           └── ...               the sub-agent's own messages and tool calls
//   └── execute_tool <name>           a call made outside any turn
//
// Retries, compaction, errors, model changes and input requests are span
// events on the innermost open span of the agent they belong to. Every time
// comes from the stream (elapsed_ms after the run's start), so a recorded
// stream exports with its own timing.

/** agentstream's own attributes (no semantic convention names them). */
export const ATTR = {
  runId: "agentstream.run_id",
  status: "agentstream.run.status",
  exitCode: "agentstream.run.exit_code",
  mode: "agentstream.run.mode",
  version: "agentstream.version",
  backend: "agentstream.backend",
  complete: "agentstream.usage.complete",
  costUsd: "agentstream.usage.cost_usd",
  costSource: "agentstream.usage.cost_source",
  turn: "agentstream.turn",
  messageId: "agentstream.message_id",
  toolStatus: "agentstream.tool.status",
  toolReason: "agentstream.tool.reason",
  toolDuration: "agentstream.tool.duration_ms",
  paused: "agentstream.subagent.paused",
  incomplete: "agentstream.stream.incomplete",
  command: "agentstream.run.command",
  cwd: "agentstream.run.cwd",
  errorMessage: "agentstream.error.message",
  promptsLeftOut: "agentstream.run.prompts_left_out",
} as const;

/**
 * The prompts one span holds at most (characters of their texts, each bounded already by prompt.submitted):
 * a recording of many user messages keeps the span's memory bounded; those past it are counted, not kept.
 */
const MAX_INPUT_CHARS = 1024 * 1024;

/** A span that a run's trace hangs under (a compare's), by its ids: hex, as OpenTelemetry writes them. */
export interface TraceParent {
  traceId: string;
  spanId: string;
}

export interface RunTraceOptions {
  tracer: Tracer;
  /** Prompts, answers, tool arguments and outputs as attributes (--otlp-content); off by default. */
  content: boolean;
  /** The run's span is this span's child, in its trace; else the run is a trace of its own. */
  parent?: TraceParent;
}

type Totals = Required<Pick<TokenCounts, "input_tokens" | "output_tokens">> &
  Omit<TokenCounts, "input_tokens" | "output_tokens"> & { cost_source?: CostSource };
type CostSource = "reported" | "estimated" | "mixed";

/** One open span, with what is learnt about it before it ends. */
class Node {
  readonly ctx: Context;
  usage: Totals | undefined;
  model: string | undefined;
  provider: string | undefined;
  output: { text: string; finish?: string }[] = [];
  /** The user's messages to this agent (prompt.submitted), with --otlp-content; those past the bound counted. */
  input: string[] = [];
  private inputChars = 0;
  inputLeftOut = 0;

  constructor(
    readonly span: Span,
    parent: Context,
    readonly kind: "agent" | "chat" | "tool",
  ) {
    this.ctx = trace.setSpan(parent, span);
  }

  addInput(text: string): void {
    if (this.inputChars + text.length > MAX_INPUT_CHARS) {
      this.inputLeftOut++;
      return;
    }
    this.inputChars += text.length;
    this.input.push(text);
  }

  addUsage(event: TokenCounts & { cost_source?: CostSource }): void {
    const into = (this.usage ??= { input_tokens: 0, output_tokens: 0 });
    if (event.cost_source !== undefined)
      into.cost_source =
        into.cost_source === undefined || into.cost_source === event.cost_source ? event.cost_source : "mixed";
    into.input_tokens += event.input_tokens;
    into.output_tokens += event.output_tokens;
    for (const key of [
      "cache_read_input_tokens",
      "cache_write_input_tokens",
      "reasoning_tokens",
      "cost_usd",
    ] as const) {
      if (event[key] !== undefined) into[key] = (into[key] ?? 0) + event[key];
    }
  }
}

/** An agent (the run's, or a sub-agent): its span, its open turn, its messages outside turns. */
interface Agent {
  node: Node;
  turn?: Node;
  /** When a message outside any turn started (its first delta). */
  messageStarts: Map<string, number>;
}

/** Turns one run's canonical events, as they come, into spans. */
export class RunTrace {
  private base = 0;
  private lastMs = 0;
  private root: Agent | undefined;
  private readonly agents = new Map<string, Agent>();
  /** Open tool calls by id; a list, since a backend may reuse an id (or give none). */
  private readonly tools = new Map<string, Node[]>();
  private backend = "";
  private ended = false;
  /** Spans this trace has started, for the exporter's per-run counts. */
  spans = 0;
  traceId: string | undefined;
  finished: EventOf<"run.finished"> | undefined;

  constructor(private readonly options: RunTraceOptions) {}

  get done(): boolean {
    return this.ended;
  }

  event(event: CanonicalEvent): void {
    if (this.ended) return;
    if (!this.root) {
      if (event.type !== "run.started") return; // not a stream's start: nothing to hang spans on
      this.start(event);
      return;
    }
    const at = this.time(event);
    const agent = this.agentOf(event);
    switch (event.type) {
      case "session.started":
        this.root.node.span.setAttribute(ATTR_GEN_AI_CONVERSATION_ID, event.session_id);
        break;
      case "prompt.submitted":
        // The prompt of every run, over ACP too (where run.started.command does not hold it).
        if (this.options.content) agent.node.addInput(event.text);
        break;
      case "turn.started":
        if (agent.turn) this.endNode(agent.turn, at);
        agent.turn = this.chat(agent, at, { [ATTR.turn]: event.turn });
        break;
      case "turn.completed":
        if (agent.turn) {
          if (event.stop_reason) agent.turn.output.push({ text: "", finish: event.stop_reason });
          this.endNode(agent.turn, at);
          agent.turn = undefined;
        }
        break;
      case "message.delta":
        if (!agent.turn && !agent.messageStarts.has(event.message_id)) agent.messageStarts.set(event.message_id, at);
        break;
      case "message.completed":
        this.message(agent, event, at);
        break;
      case "usage":
        // The run's own totals come from run.finished; a per-call report belongs to its turn.
        if (event.scope !== "run" || agent.turn) (agent.turn ?? agent.node).addUsage(event);
        this.learnModel(agent.turn ?? agent.node, event.model, event.provider);
        break;
      case "tool.started":
        this.toolStarted(agent, event, at);
        break;
      case "tool.completed":
        this.toolCompleted(agent, event, at);
        break;
      case "subagent.started":
        this.subagentStarted(agent, event, at);
        break;
      case "subagent.completed":
        this.subagentCompleted(event, at);
        break;
      case "model.changed":
        this.learnModel(agent.turn ?? agent.node, event.model, event.provider);
        this.spanEvent(agent, event, at);
        break;
      case "retry.started":
      case "retry.completed":
      case "compaction.started":
      case "compaction.completed":
      case "model.fallback":
      case "input.requested":
      case "error":
        this.spanEvent(agent, event, at);
        break;
      case "run.finished":
        this.finish(event, at);
        break;
      default:
        break;
    }
  }

  /** The stream ended without run.finished (a cut file, a lost stdout): close what is open, marked incomplete. */
  abandon(reason: string): void {
    if (this.ended || !this.root) return;
    const root = this.root.node.span;
    root.setAttribute(ATTR.incomplete, true);
    root.setStatus({ code: SpanStatusCode.ERROR, message: reason });
    this.closeAll(this.lastMs);
  }

  private start(event: EventOf<"run.started">): void {
    this.base = Date.parse(event.ts) - event.elapsed_ms;
    this.backend = event.backend;
    const at = this.time(event);
    const attributes: Attributes = {
      [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
      [ATTR_GEN_AI_PROVIDER_NAME]: event.backend,
      [ATTR_GEN_AI_AGENT_NAME]: event.backend,
      [ATTR.backend]: event.backend,
      [ATTR.runId]: event.run_id,
      [ATTR.mode]: event.mode,
      [ATTR.version]: event.agentstream_version,
    };
    if (this.options.content && event.command) attributes[ATTR.command] = event.command;
    if (this.options.content && event.cwd) attributes[ATTR.cwd] = event.cwd;
    const parent = this.options.parent;
    const under = parent
      ? trace.setSpanContext(ROOT_CONTEXT, { ...parent, traceFlags: TraceFlags.SAMPLED, isRemote: true })
      : context.active();
    const span = this.options.tracer.startSpan(
      `invoke_agent ${event.backend}`,
      { kind: SpanKind.INTERNAL, startTime: hr(at), attributes, root: parent === undefined },
      under,
    );
    this.spans++;
    this.traceId = span.spanContext().traceId;
    this.root = { node: new Node(span, under, "agent"), messageStarts: new Map() };
    this.agents.set("", this.root);
  }

  private finish(event: EventOf<"run.finished">, at: number): void {
    this.finished = event;
    const root = this.root!.node;
    if (event.usage) {
      root.usage = undefined;
      root.addUsage(event.usage);
      if (event.usage.complete === false) root.span.setAttribute(ATTR.complete, false);
    }
    root.span.setAttributes({ [ATTR.status]: event.status, [ATTR.exitCode]: event.exit_code });
    if (event.error) {
      root.span.setAttributes({
        [ATTR_ERROR_TYPE]: event.error.code,
        [ATTR.errorMessage]: event.error.message,
      });
    } else if (event.status !== "succeeded") {
      root.span.setAttribute(ATTR_ERROR_TYPE, event.status);
    }
    if (event.status === "failed" || event.status === "timed_out" || event.status === "cancelled") {
      root.span.setStatus({ code: SpanStatusCode.ERROR, message: event.error?.message ?? event.status });
    }
    if (this.options.content && event.result) root.output.push({ text: event.result.text });
    this.closeAll(at);
  }

  private closeAll(at: number): void {
    for (const calls of this.tools.values()) for (const node of calls) this.endNode(node, at);
    this.tools.clear();
    // Sub-agents first (the root last), each after its open turn.
    const agents = [...this.agents.values()].reverse();
    for (const agent of agents) {
      if (agent.turn) this.endNode(agent.turn, at);
      this.endNode(agent.node, at);
    }
    this.agents.clear();
    this.ended = true;
  }

  private chat(agent: Agent, at: number, attributes: Attributes): Node {
    const model = agent.node.model;
    const span = this.options.tracer.startSpan(
      model ? `chat ${model}` : "chat",
      {
        kind: SpanKind.CLIENT,
        startTime: hr(at),
        attributes: {
          [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_CHAT,
          [ATTR_GEN_AI_PROVIDER_NAME]: agent.node.provider ?? this.backend,
          ...attributes,
        },
      },
      agent.node.ctx,
    );
    this.spans++;
    const node = new Node(span, agent.node.ctx, "chat");
    if (model) this.learnModel(node, model, undefined);
    return node;
  }

  private message(agent: Agent, event: EventOf<"message.completed">, at: number): void {
    const inTurn = agent.turn;
    const start = agent.messageStarts.get(event.message_id);
    agent.messageStarts.delete(event.message_id);
    const node = inTurn ?? this.chat(agent, start ?? at, { [ATTR.messageId]: event.message_id });
    this.learnModel(node, event.model, event.provider);
    if (this.options.content) node.output.push({ text: event.text, finish: event.stop_reason });
    else if (event.stop_reason) node.output.push({ text: "", finish: event.stop_reason });
    if (!inTurn) this.endNode(node, at);
  }

  private toolStarted(agent: Agent, event: EventOf<"tool.started">, at: number): void {
    const parent = agent.turn ?? agent.node;
    const attributes: Attributes = {
      [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
      [ATTR_GEN_AI_TOOL_NAME]: event.name,
      [ATTR_GEN_AI_TOOL_CALL_ID]: event.tool_call_id,
      [ATTR_GEN_AI_TOOL_TYPE]: "function",
    };
    if (this.options.content) attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS] = JSON.stringify(event.args);
    const span = this.options.tracer.startSpan(
      `execute_tool ${event.name}`,
      { kind: SpanKind.INTERNAL, startTime: hr(at), attributes },
      parent.ctx,
    );
    this.spans++;
    const calls = this.tools.get(event.tool_call_id);
    const node = new Node(span, parent.ctx, "tool");
    if (calls) calls.push(node);
    else this.tools.set(event.tool_call_id, [node]);
  }

  private toolCompleted(agent: Agent, event: EventOf<"tool.completed">, at: number): void {
    const calls = this.tools.get(event.tool_call_id);
    let node = calls?.shift();
    if (calls && calls.length === 0) this.tools.delete(event.tool_call_id);
    if (!node) {
      // A completion without its start: a span of the backend's duration, where it gives one.
      this.toolStarted(
        agent,
        { ...event, type: "tool.started", args: {} } as EventOf<"tool.started">,
        at - (event.duration_ms ?? 0),
      );
      node = this.tools.get(event.tool_call_id)!.pop()!;
      this.tools.delete(event.tool_call_id);
    }
    const span = node.span;
    span.setAttribute(ATTR.toolStatus, event.status);
    if (event.reason) span.setAttribute(ATTR.toolReason, event.reason);
    if (event.duration_ms !== undefined) span.setAttribute(ATTR.toolDuration, event.duration_ms);
    if (this.options.content) span.setAttribute(ATTR_GEN_AI_TOOL_CALL_RESULT, event.output);
    if (event.status !== "succeeded") {
      span.setAttribute(ATTR_ERROR_TYPE, event.status === "failed" ? "tool_error" : "cancelled");
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message:
          event.status === "failed"
            ? "the tool call failed"
            : `the tool call was cancelled${event.reason ? ` (${event.reason})` : ""}`,
      });
    }
    this.endNode(node, at);
  }

  private subagentStarted(agent: Agent, event: EventOf<"subagent.started">, at: number): void {
    const tool = event.tool_call_id === undefined ? undefined : this.tools.get(event.tool_call_id)?.[0];
    const parent = tool ?? agent.turn ?? agent.node;
    const attributes: Attributes = {
      [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
      [ATTR_GEN_AI_PROVIDER_NAME]: this.backend,
      [ATTR_GEN_AI_AGENT_NAME]: event.name,
      [ATTR_GEN_AI_AGENT_ID]: event.instance_id,
    };
    if (event.tool_call_id !== undefined) attributes[ATTR_GEN_AI_TOOL_CALL_ID] = event.tool_call_id;
    if (this.options.content && event.description) attributes[ATTR_GEN_AI_AGENT_DESCRIPTION] = event.description;
    const span = this.options.tracer.startSpan(
      `invoke_agent ${event.name}`,
      { kind: SpanKind.INTERNAL, startTime: hr(at), attributes },
      parent.ctx,
    );
    this.spans++;
    this.agents.set(event.instance_id, { node: new Node(span, parent.ctx, "agent"), messageStarts: new Map() });
  }

  private subagentCompleted(event: EventOf<"subagent.completed">, at: number): void {
    const agent = this.agents.get(event.instance_id);
    if (!agent) return;
    this.agents.delete(event.instance_id);
    if (agent.turn) this.endNode(agent.turn, at);
    if (event.paused) agent.node.span.setAttribute(ATTR.paused, true);
    this.endNode(agent.node, at);
  }

  private spanEvent(agent: Agent, event: CanonicalEvent, at: number): void {
    const target = (agent.turn ?? agent.node).span;
    target.addEvent(event.type, this.eventAttributes(event), hr(at));
  }

  private eventAttributes(event: CanonicalEvent): Attributes {
    const out: Attributes = {};
    switch (event.type) {
      case "error":
        out[ATTR_ERROR_TYPE] = event.code;
        out["agentstream.error.message"] = event.message;
        out["agentstream.error.retryable"] = event.retryable;
        if (event.http_status !== undefined) out["http.response.status_code"] = event.http_status;
        return out;
      case "retry.started":
        return scalars(
          {
            scope: event.scope,
            attempt: event.attempt,
            max_attempts: event.max_attempts,
            delay_ms: event.delay_ms,
            error: event.error,
          },
          "agentstream.retry.",
        );
      case "retry.completed":
        return scalars(
          {
            scope: event.scope,
            success: event.success,
            attempt: event.attempt,
            error: event.error,
          },
          "agentstream.retry.",
        );
      case "compaction.started":
        return scalars({ reason: event.reason }, "agentstream.compaction.");
      case "compaction.completed":
        return scalars(
          {
            reason: event.reason,
            tokens_before: event.tokens_before,
            tokens_after: event.tokens_after,
            will_retry: event.will_retry,
            aborted: event.aborted,
            error: event.error,
            summary: this.options.content && event.summary ? event.summary : undefined,
          },
          "agentstream.compaction.",
        );
      case "model.changed":
        return scalars(
          { model: event.model, provider: event.provider, previous_model: event.previous_model, reason: event.reason },
          "agentstream.model.",
        );
      case "model.fallback":
        return scalars(
          {
            phase: event.phase,
            from: event.from,
            to: event.to,
            success: event.success,
            error: event.error,
          },
          "agentstream.fallback.",
        );
      case "input.requested":
        return scalars(
          { request_id: event.request_id, kind: event.kind, tool_call_id: event.tool_call_id },
          "agentstream.input.",
        );
      default:
        return out;
    }
  }

  private learnModel(node: Node, model: string | undefined, provider: string | undefined): void {
    if (model && node.model !== model) {
      if (node.model === undefined) node.span.setAttribute(ATTR_GEN_AI_REQUEST_MODEL, model);
      node.model = model;
      if (node.kind === "chat") node.span.updateName(`chat ${model}`);
    }
    if (provider) node.provider = provider;
    // The agent learns the model its calls use (for the next turn's name and the run's span).
    const agent = this.agentHolding(node);
    if (agent && agent !== node) {
      if (model && agent.model === undefined) agent.span.setAttribute(ATTR_GEN_AI_REQUEST_MODEL, model);
      if (model) agent.model = model;
      if (provider) agent.provider = provider;
    }
  }

  private agentHolding(node: Node): Node | undefined {
    for (const agent of this.agents.values()) if (agent.node === node || agent.turn === node) return agent.node;
    return undefined;
  }

  private endNode(node: Node, at: number): void {
    const span = node.span;
    if (!span.isRecording()) return;
    if (node.model) span.setAttribute(ATTR_GEN_AI_RESPONSE_MODEL, node.model);
    if (node.kind === "chat" && node.provider) span.setAttribute(ATTR_GEN_AI_PROVIDER_NAME, node.provider);
    if (node.usage) {
      const usage = node.usage;
      span.setAttributes(
        scalars({
          [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: usage.input_tokens,
          [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: usage.output_tokens,
          [ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS]: usage.cache_read_input_tokens,
          [ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS]: usage.cache_write_input_tokens,
          [ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS]: usage.reasoning_tokens,
          [ATTR.costUsd]: usage.cost_usd,
          [ATTR.costSource]: usage.cost_source,
        }),
      );
    }
    const finishes = [...new Set(node.output.flatMap((part) => (part.finish ? [part.finish] : [])))];
    if (finishes.length > 0) span.setAttribute(ATTR_GEN_AI_RESPONSE_FINISH_REASONS, finishes);
    if (this.options.content && node.input.length > 0)
      span.setAttribute(
        ATTR_GEN_AI_INPUT_MESSAGES,
        JSON.stringify(node.input.map((text) => ({ role: "user", parts: [{ type: "text", content: text }] }))),
      );
    if (node.inputLeftOut > 0) span.setAttribute(ATTR.promptsLeftOut, node.inputLeftOut);
    const texts = node.output.filter((part) => part.text !== "");
    if (this.options.content && texts.length > 0) {
      // The spec's output-messages form, as a JSON string (span attributes cannot hold objects).
      const messages = texts.map((part) => ({
        role: "assistant",
        parts: [{ type: "text", content: part.text }],
        ...(part.finish ? { finish_reason: part.finish } : {}),
      }));
      span.setAttribute(ATTR_GEN_AI_OUTPUT_MESSAGES, JSON.stringify(messages));
    }
    span.end(hr(at));
  }

  private agentOf(event: CanonicalEvent): Agent {
    const id = event.agent?.instance_id;
    return (id !== undefined && this.agents.get(id)) || this.root!;
  }

  /** Epoch milliseconds of an event: the run's start plus its elapsed_ms (monotonic, as the stream is). */
  private time(event: CanonicalEvent): number {
    const at = this.base + event.elapsed_ms;
    if (at > this.lastMs) this.lastMs = at;
    return at;
  }
}

/** Epoch milliseconds as [seconds, nanoseconds]: a plain number before the process started would be read as performance time. */
export function hr(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}

function scalars(values: Record<string, AttributeValue | undefined>, prefix = ""): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) out[prefix + key] = value;
  return out;
}
