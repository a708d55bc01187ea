import type { ErrorInfo, EventPayloads } from "../../canonical/events.js";
import { classifyError, type ClassifiedError } from "../classification.js";
import { asText, count, defined, errorMessage, isObject, nonEmpty, objectOrEmpty } from "../../core/fields.js";
import { ModelCalls } from "../../core/model-calls.js";
import {
  draft,
  passThrough,
  type Draft,
  type TranslatorConclusion,
  type NativeEvent,
  type Outcome,
  type StreamEndFacts,
  type Translator,
} from "../../core/translator.js";

/** Item types that are tool calls, each with how its name, arguments, output and status are read. */
const TOOL_ITEMS = new Set(["command_execution", "file_change", "mcp_tool_call", "collab_tool_call", "web_search"]);

/** "Reconnecting... 1/2 (unexpected status 503 ...)": a stream-level retry notice. */
const RETRY_COUNTED = /^Reconnecting(?:\.\.\.|…)\s*(\d+)\s*\/\s*(\d+)\s*(?:\(([\s\S]*)\))?\s*$/;
/** "Reconnecting... waiting for network (...)": retried without a bound. */
const RETRY_OTHER = /^Reconnecting(?:\.\.\.|…)\s*([\s\S]*)$/;
/** A warning item for a model the backend switched: "model rerouted: a -> b (Reason)". */
const REROUTED = /^model rerouted: (\S+) -> (\S+)/;

/**
 * Codex CLI `codex exec --json` (docs/protocols/codex.md). Items arrive whole
 * (no deltas); `error` lines are retry notices as well as the fatal error;
 * the answer is the message marked `phase: "final_answer"`, else the last one
 * nothing came after;
 * `turn.failed` ends a failed run, `turn.completed` a good one with the
 * thread's running token total; a SIGINT mid-turn ends the stream with neither.
 */
export class CodexTranslator implements Translator {
  readonly protocol = "codex";
  /** False once a usage report could not be read as counts (kept as backend.event). */
  usageComplete = true;
  started = false;

  private turn = 0;
  /** The last agent message, while nothing (a tool call, a retry) came after it that would make it narration or abandoned. */
  private answer: string | null = null;
  /** The last agent message Codex marked `phase: "final_answer"`: the answer whatever follows it. */
  private finalAnswer: string | null = null;
  /** Tool items started, by item id, with the name they were announced with. */
  private readonly tools = new Map<string, string>();
  /** The last retry notice of the turn, until the turn ends: only then is it known whether the retried request worked. */
  private retry: { attempt: number } | undefined;
  /** The message of the last fatal `error` line, which `turn.failed` repeats. */
  private lastFatal: string | undefined;
  /** The thread's token total as last reported: the next report's increase is this run's. */
  private usageSeen:
    | { input: number; cached: number; cacheWrite: number; output: number; reasoning: number }
    | undefined;
  private outcome: Outcome | undefined;
  /** The model calls within the prompt's turn: canonical turns. */
  private readonly calls = new ModelCalls();
  /** A tool result came in the open call: the model's next output is a new call. */
  private resultsIn = false;

  translate(e: NativeEvent): Draft[] {
    if (e.type !== "thread.started") this.started = true;
    const native = e.type;
    switch (e.type) {
      case "thread.started": {
        const id = nonEmpty(e.thread_id);
        return id ? [draft("session.started", { session_id: id }, { native })] : [passThrough(e)];
      }
      case "turn.started":
        this.answer = this.finalAnswer = null;
        this.lastFatal = undefined;
        this.turn++;
        this.resultsIn = false;
        return this.calls.begin({ native });
      case "turn.completed":
        return this.turnCompleted(e);
      case "turn.failed":
        return this.turnFailed(e);
      case "item.started":
      case "item.updated":
      case "item.completed": {
        const boundary = this.callBoundary(e);
        const drafts = this.item(e);
        return boundary.length > 0 ? [...boundary, ...drafts] : drafts;
      }
      case "error":
        return this.error(e);
      default:
        // item.plan.delta, request_user_input (newer sources, not written by 0.171.0) and anything newer.
        return [passThrough(e)];
    }
  }

  finish(_end: StreamEndFacts): TranslatorConclusion {
    // A stream cut mid-turn (SIGINT, a kill) has no verdict: the core decides from how it ended.
    return { drafts: this.calls.end(), outcome: this.outcome };
  }

  /**
   * Codex shows no model response boundaries: the model's output (a message,
   * reasoning, a new tool call) after the results of all the tool calls before
   * it is the next call's. A tool item's completion makes its result in.
   */
  private callBoundary(e: NativeEvent): Draft[] {
    const item = objectOrEmpty(e.item);
    const type = asText(item.type);
    const tool = TOOL_ITEMS.has(type);
    if (!tool && type !== "agent_message" && type !== "reasoning") return [];
    const known = tool && this.tools.has(nonEmpty(item.id) ?? `${type}_${this.turn}`);
    const begins = !known && (!this.calls.isOpen || (this.resultsIn && this.tools.size === 0));
    if (tool && e.type === "item.completed") this.resultsIn = true;
    else if (begins) this.resultsIn = false;
    return begins ? this.calls.begin() : [];
  }

  private item(e: NativeEvent): Draft[] {
    const item = objectOrEmpty(e.item);
    const native = e.type;
    const type = asText(item.type);
    const id = nonEmpty(item.id) ?? `${type || "item"}_${this.turn}`;
    if (TOOL_ITEMS.has(type)) return this.tool(e.type, id, type, item, native);
    switch (type) {
      case "agent_message": {
        // A message without its text (a malformed line) is kept as data: it is no answer, and it takes none away.
        if (e.type !== "item.completed" || typeof item.text !== "string") return [passThrough(e)];
        const text = item.text;
        this.answer = text;
        if (item.phase === "final_answer") this.finalAnswer = text;
        return [draft("message.completed", { message_id: id, text }, { native })];
      }
      case "reasoning":
        if (e.type !== "item.completed") return [passThrough(e)];
        return [draft("reasoning.completed", { message_id: id, text: asText(item.text) }, { native })];
      case "error": {
        // A non-fatal error (unknown model, WebSockets fallback, config notices): an `error` event, not the
        // run's failure, which only turn.failed decides. A model rerouted is a model change.
        const message = asText(item.message);
        const rerouted = REROUTED.exec(message);
        if (rerouted)
          return [
            draft(
              "model.changed",
              { model: rerouted[2]!, previous_model: rerouted[1]!, reason: "fallback" },
              { native },
            ),
          ];
        if (e.type !== "item.completed") return [passThrough(e)];
        return [codexErrorDraft(message || "the backend reported an error", native)];
      }
      default:
        // todo_list (the agent's plan: started, updated per step, completed at turn end) is kept whole, as data:
        // version 1 of the contract has no plan event, and its steps are notes, not work done (docs/protocols/codex.md).
        // plan, anything newer: the same.
        return [passThrough(e)];
    }
  }

  private tool(phase: string, id: string, type: string, item: Record<string, unknown>, native: string): Draft[] {
    const out: Draft[] = [];
    let name = this.tools.get(id);
    if (name === undefined) {
      // A call first seen completed (file changes in older builds, a web search) is announced from its item.
      name = toolName(type, item);
      this.tools.set(id, name);
      // A new call after the last message makes that message narration, not the answer.
      this.answer = null;
      out.push(draft("tool.started", { tool_call_id: id, name, args: toolArgs(type, item) }, { native }));
      if (phase === "item.started") return out;
    }
    if (phase === "item.started" || phase === "item.updated") {
      out.push(draft("tool.updated", { tool_call_id: id, name, output: toolOutput(type, item) }, { native }));
      return out;
    }
    this.tools.delete(id);
    out.push(
      draft(
        "tool.completed",
        { tool_call_id: id, name, status: toolStatus(type, item), output: toolOutput(type, item) },
        { native },
      ),
    );
    return out;
  }

  private error(e: NativeEvent): Draft[] {
    const message = asText(e.message);
    const native = e.type;
    const counted = RETRY_COUNTED.exec(message);
    const other = counted ? undefined : RETRY_OTHER.exec(message);
    if (counted || other) {
      // A retry notice: the request is tried again, nothing has failed yet. What came since the last
      // message belongs to an attempt that failed: the answer, if any, comes after.
      this.answer = null;
      // "waiting for network" has no number: it is the attempt after the last one.
      const attempt = counted ? Math.max(count(Number(counted[1])) ?? 1, 1) : (this.retry?.attempt ?? 0) + 1;
      this.retry = { attempt };
      return [
        draft(
          "retry.started",
          defined({
            scope: "request" as const,
            attempt,
            max_attempts: counted ? Math.max(count(Number(counted[2])) ?? attempt, attempt) : undefined,
            // Codex does not say how long it waits (backoff with jitter, or Retry-After).
            delay_ms: 0,
            error: counted ? (counted[3] ?? message) : other![1]!.trim() || message,
          }),
          { native },
        ),
      ];
    }
    this.lastFatal = message;
    return [...this.retryDone(native, message), codexErrorDraft(message || "the backend reported an error", native)];
  }

  private turnCompleted(e: NativeEvent): Draft[] {
    const native = e.type;
    const out = this.retryDone(native);
    const usage = this.usageDelta(objectOrEmpty(e.usage));
    if (usage === "not counts") {
      // Kept as data rather than written with a made-up count; the totals lack it.
      out.push(draft("backend.event", { native_type: native, raw: { usage: e.usage } }, { native }));
      this.usageComplete = false;
    } else if (usage) out.push(draft("usage", usage, { native }));
    out.push(...this.calls.end({ native }));
    const answer = this.finalAnswer ?? this.answer;
    this.outcome = { status: "succeeded", resultText: answer === "" ? null : answer };
    return out;
  }

  private turnFailed(e: NativeEvent): Draft[] {
    const native = e.type;
    // Its error is {message}; a recording with the text alone has it as the error.
    const message = errorMessage(e.error) ?? (this.lastFatal || "the turn failed");
    const out = this.retryDone(native, message);
    // turn.failed repeats the fatal error line before it: one error event, not two.
    if (message !== this.lastFatal) out.push(codexErrorDraft(message, native));
    out.push(...this.calls.end({ native, stopReason: "error" }));
    // What the model said before the failure is not an answer.
    this.outcome = { status: "failed", error: codexErrorInfo(message), resultText: null };
    return out;
  }

  /** The retries of the turn ended: the turn completed (they worked) or failed. */
  private retryDone(native: string, error?: string): Draft[] {
    const retry = this.retry;
    if (!retry) return [];
    this.retry = undefined;
    return [
      draft(
        "retry.completed",
        defined({ scope: "request" as const, success: error === undefined, attempt: retry.attempt, error }),
        { native },
      ),
    ];
  }

  /**
   * turn.completed's usage is the thread's running total: the increase since the
   * last report is this turn's (the first report is all of it, as far as this
   * stream can tell: a resumed thread's earlier turns included). Given once per
   * `codex exec` run, so its scope is the run's.
   */
  private usageDelta(u: Record<string, unknown>): EventPayloads["usage"] | "not counts" | undefined {
    const now = {
      input: count(u.input_tokens),
      cached: count(u.cached_input_tokens),
      cacheWrite: count(u.cache_write_input_tokens),
      output: count(u.output_tokens),
      reasoning: count(u.reasoning_output_tokens),
    };
    if (now.input === undefined || now.output === undefined) return "not counts";
    const before = this.usageSeen ?? { input: 0, cached: 0, cacheWrite: 0, output: 0, reasoning: 0 };
    const total = {
      input: now.input,
      cached: now.cached ?? before.cached,
      cacheWrite: now.cacheWrite ?? before.cacheWrite,
      output: now.output,
      reasoning: now.reasoning ?? before.reasoning,
    };
    this.usageSeen = total;
    const input = Math.max(total.input - before.input, 0);
    const output = Math.max(total.output - before.output, 0);
    if (input + output === 0) return undefined;
    const part = (reported: number | undefined, was: number, is: number): number | undefined =>
      reported === undefined ? undefined : Math.max(is - was, 0);
    return defined({
      scope: "run" as const,
      // OpenAI semantics, as the canonical stream's: input includes the cached part, output the reasoning.
      input_tokens: input,
      output_tokens: output,
      cache_read_input_tokens: part(now.cached, before.cached, total.cached),
      cache_write_input_tokens: part(now.cacheWrite, before.cacheWrite, total.cacheWrite),
      reasoning_tokens: part(now.reasoning, before.reasoning, total.reasoning),
    });
  }
}

function toolName(type: string, item: Record<string, unknown>): string {
  switch (type) {
    case "mcp_tool_call":
      return `mcp__${asText(item.server) || "server"}__${asText(item.tool) || "tool"}`;
    case "collab_tool_call":
      return asText(item.tool) || type;
    default:
      return type;
  }
}

function toolArgs(type: string, item: Record<string, unknown>): Record<string, unknown> {
  switch (type) {
    case "command_execution":
      return { command: item.command ?? null };
    case "file_change":
      return { changes: item.changes ?? [] };
    case "mcp_tool_call":
      if (isObject(item.arguments)) return item.arguments;
      return item.arguments === undefined || item.arguments === null ? {} : { arguments: item.arguments };
    case "collab_tool_call":
      return defined({
        prompt: item.prompt ?? undefined,
        receiver_thread_ids: item.receiver_thread_ids,
        sender_thread_id: item.sender_thread_id,
      });
    case "web_search":
      return defined({ query: item.query, action: item.action });
    default:
      return {};
  }
}

function toolOutput(type: string, item: Record<string, unknown>): string {
  switch (type) {
    case "command_execution":
      return asText(item.aggregated_output);
    case "file_change":
      // No diff in 0.171.0: what changed is the list of paths and kinds.
      return (Array.isArray(item.changes) ? item.changes : [])
        .map((c) => `${asText(objectOrEmpty(c).kind)} ${asText(objectOrEmpty(c).path)}`)
        .join("\n");
    case "mcp_tool_call": {
      const error = objectOrEmpty(item.error);
      if (nonEmpty(error.message)) return asText(error.message);
      return mcpResultText(item.result);
    }
    case "collab_tool_call":
      return isObject(item.agents_states) && Object.keys(item.agents_states).length > 0
        ? JSON.stringify(item.agents_states)
        : "";
    default:
      // A web search's results go to the model only.
      return "";
  }
}

/** MCP content blocks: text blocks joined, other blocks as JSON; the structured content when there are none. */
function mcpResultText(result: unknown): string {
  if (!isObject(result)) return "";
  const blocks = Array.isArray(result.content) ? result.content : [];
  if (blocks.length === 0)
    return result.structured_content === undefined || result.structured_content === null
      ? ""
      : asText(result.structured_content);
  return blocks.map((b) => (isObject(b) && b.type === "text" ? asText(b.text) : asText(b))).join("\n");
}

function toolStatus(type: string, item: Record<string, unknown>): "succeeded" | "failed" | "cancelled" {
  // A web search has no status: its completion is its results reaching the model.
  if (type === "web_search") return "succeeded";
  if (type === "mcp_tool_call" && nonEmpty(objectOrEmpty(item.error).message)) return "failed";
  switch (item.status) {
    case "completed":
      return "succeeded";
    case "failed":
    case "declined":
      // declined: refused before it ran.
      return "failed";
    default:
      // Still in progress when Codex closed it at the turn's end: it never finished.
      return "cancelled";
  }
}

/** A Codex error message, classified by the table in Codex's words, then a provider's raw error body it quotes. */
function codexClassify(message: string): ClassifiedError {
  const c = classifyError(message, { dialect: "codex" });
  if (c.code !== "unknown") return c;
  const body = errorBody(message);
  if (body === undefined) return c;
  // A provider's error body, passed on raw: what Codex writes for an HTTP 400 and no other status (others
  // read "unexpected status N ..."). Classified by its own code, type and message; a provider error otherwise.
  const inner = classifyError([body.code, body.type, body.message].filter(Boolean).join(" "));
  return {
    ...(inner.code !== "unknown" ? inner : { code: "provider", retryable: false }),
    http_status: inner.http_status ?? 400,
  };
}

/** `{"error":{"message","type","code"}}`, the OpenAI-style body Codex quotes for a 400. */
function errorBody(message: string): { message?: string; type?: string; code?: string } | undefined {
  if (!message.trimStart().startsWith("{")) return undefined;
  try {
    const parsed: unknown = JSON.parse(message);
    const error = isObject(parsed) ? parsed.error : undefined;
    if (!isObject(error)) return undefined;
    return { message: nonEmpty(error.message), type: nonEmpty(error.type), code: nonEmpty(error.code) };
  } catch {
    return undefined;
  }
}

function codexErrorInfo(message: string): ErrorInfo {
  const c = codexClassify(message);
  return { code: c.code, message, retryable: c.retryable };
}

function codexErrorDraft(message: string, native: string): Draft<"error"> {
  const c = codexClassify(message);
  return draft("error", defined({ code: c.code, message, retryable: c.retryable, http_status: c.http_status }), {
    native,
  });
}
