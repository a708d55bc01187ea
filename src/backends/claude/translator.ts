import type { AgentRef, EventPayloads } from "../../canonical/events.js";
import { pastedValue } from "../../core/shell-word.js";
import { classifyError } from "../classification.js";
import {
  amount,
  asText,
  cappedMs,
  count,
  defined,
  errorMessage,
  isObject,
  nonEmpty,
  objectOrEmpty,
  strings,
} from "../../core/fields.js";
import { RefusedCalls } from "../refused-calls.js";
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

/** The API message a main-agent line begins or continues: its assistant line, or the message_start of its stream. */
function apiMessageId(e: NativeEvent): string | undefined {
  if (e.type === "assistant") {
    const message = objectOrEmpty(e.message);
    if (e.is_api_error_message === true || message.model === "<synthetic>") return undefined;
    return nonEmpty(message.id);
  }
  const event = objectOrEmpty(e.event);
  if (e.type === "stream_event" && event.type === "message_start") return nonEmpty(objectOrEmpty(event.message).id);
  return undefined;
}

/** An API failure Claude Code reported as a synthetic assistant message. */
interface ApiFailure {
  error: EventPayloads["error"];
}

// Stream events whose facts the assistant lines carry (finished blocks) or the result (usage, stop reason).
const ABSORBED_STREAM_EVENTS = new Set([
  "message_start",
  "content_block_start",
  "content_block_stop",
  "message_delta",
  "message_stop",
  "ping",
]);
const ABSORBED_DELTAS = new Set(["input_json_delta", "signature_delta", "citations_delta"]);
// API messages whose block count is kept: far more than are ever written at once (parallel sub-agents), few enough that memory stays flat.
const MESSAGES_KEPT = 1024;
// Why a run stopped when the user (SIGINT) interrupted it.
const ABORTED_REASONS = new Set(["aborted_streaming", "aborted_tools"]);
// A limit the caller set (--max-turns, --max-budget-usd) ended the run before it was done: failed, error.code "budget".
const LIMIT_SUBTYPES = new Set(["error_max_turns", "error_max_budget_usd"]);
const LIMIT_REASONS = new Set(["max_turns", "budget_exhausted"]);
// --json-schema: every StructuredOutput call failed its schema (5 attempts): the answer did not match, error.code output_schema.
const STRUCTURED_OUTPUT_GIVEN_UP = "error_max_structured_output_retries";

/**
 * Claude Code `-p --output-format stream-json --verbose` (docs/protocols/claude.md).
 * Finished blocks come from `assistant` lines (one line per content block),
 * deltas from `stream_event`s; API failures are synthetic assistant messages;
 * `result` decides the outcome: failed when `is_error` is true (API failures say
 * subtype "success") or its subtype is an `error_*` one (whatever `is_error`
 * says), a success otherwise; it holds the run's only usage total. A second
 * `init` naming another session starts a new session of the same run: the last one decides.
 */
export class ClaudeTranslator implements Translator {
  readonly protocol = "claude";
  readonly usageComplete = true;
  started = false;

  /** Blocks seen so far per API message id: an assistant line's block index. */
  private readonly blocks = new Map<string, number>();
  private readonly toolNames = new Map<string, string>();
  /** Each tool call's input, for the approval a denial asks for. */
  private readonly toolArgs = new Map<string, Record<string, unknown>>();
  /** Tool calls denied for want of a permission (-p mode cannot ask): approvals the run needs. */
  private denied = new RefusedCalls();
  /** Listed denials that named no call, numbered. */
  private unnamedDenials = 0;
  private sessionId: string | undefined;
  /** Tool calls a SIGINT stopped (task_notification status "stopped"). */
  private readonly stopped = new Set<string>();
  /** Sub-agents (Task calls) by the tool call that started them. */
  private readonly subagents = new Map<string, AgentRef>();
  /** The main agent's text since its last tool call: the answer so far. */
  private lastText: string | null = null;
  /** A max_tokens continuation was asked for: the next text goes on from the last. */
  private continuing = false;
  private continued = false;
  private apiFailure: ApiFailure | undefined;
  private outcome: Outcome | undefined;
  private readonly calls = new ModelCalls();
  /** The main agent's API message being written: its turn. */
  private callId: string | undefined;
  /** Each API message's own usage: the run's when its result carries none. */
  private messageUsage = new MessageUsage();

  translate(e: NativeEvent): Draft[] {
    if (!(e.type === "system" && (e.subtype === "init" || e.subtype === "ui_invalidate"))) this.started = true;
    // Whatever a sub-agent's line becomes (its prompt and notes kept as data too) is marked with the sub-agent.
    const { agent } = this.agentOf(e);
    const drafts = this.translateOne(e).map((d) => (agent && !d.agent ? { ...d, agent } : d));
    const start = this.subagentStart(e);
    const turn = this.turnBoundary(e);
    return start.length + turn.length > 0 ? [...turn, ...start, ...drafts] : drafts;
  }

  /** A turn is one API message of the main agent (a sub-agent's calls happen inside its Task call). */
  private turnBoundary(e: NativeEvent): Draft[] {
    if (e.type === "result") return this.calls.end();
    if (nonEmpty(e.parent_tool_use_id)) return [];
    const id = apiMessageId(e);
    if (id === undefined || id === this.callId) return [];
    this.callId = id;
    return this.calls.begin();
  }

  private translateOne(e: NativeEvent): Draft[] {
    switch (e.type) {
      case "system":
        return this.system(e);
      case "stream_event":
        return this.streamEvent(e);
      case "assistant":
        return this.assistant(e);
      case "user":
        return this.user(e);
      case "result":
        return this.result(e);
      default:
        // tool_progress, tool_use_summary, rate_limit_event, auth_status, prompt_suggestion, anything newer.
        return [passThrough(e)];
    }
  }

  finish(_end: StreamEndFacts): TranslatorConclusion {
    const resume = this.denied.resume(
      this.outcome,
      this.sessionId,
      (tools, session) =>
        `claude -p --resume ${pastedValue(session, "SESSION")} --allowedTools ${tools.map((tool) => pastedValue(tool, "NAME")).join(" ")} -- PROMPT (allow what was denied, then go on)`,
    );
    return { drafts: this.calls.end(), outcome: this.outcome, ...(resume ? { resume } : {}) };
  }

  /**
   * Another session began in the same stream (a second init, after a result): the stream is one run, whose
   * outcome, answer and usage are the last session's, so what decided the earlier one's is forgotten.
   */
  private newSession(): void {
    this.lastText = null;
    this.continuing = this.continued = false;
    this.apiFailure = undefined;
    this.outcome = undefined;
    this.denied = new RefusedCalls();
    this.messageUsage = new MessageUsage();
  }

  private system(e: NativeEvent): Draft[] {
    const native = e.type;
    switch (e.subtype) {
      case "init": {
        const id = nonEmpty(e.session_id);
        if (!id) return [passThrough(e)];
        const another = this.sessionId !== undefined && id !== this.sessionId;
        if (another) this.newSession();
        this.sessionId = id;
        // The release that wrote the stream (ATIF's agent.version); Claude Code names itself by no other name.
        const version = nonEmpty(e.claude_code_version);
        const header = defined({
          session_id: id,
          cwd: nonEmpty(e.cwd),
          agent_info: version === undefined ? undefined : { name: "claude-code", version },
        });
        const out: Draft[] = [draft("session.started", header, another ? { native, newSession: true } : { native })];
        if (Array.isArray(e.tools) && e.tools.length > 0)
          out.push(draft("tools.selected", { tools: strings(e.tools) }, { native }));
        return out;
      }
      case "status":
        return e.status === "compacting" ? [draft("compaction.started", {}, { native })] : [passThrough(e)];
      case "compact_boundary": {
        const meta = objectOrEmpty(e.compact_metadata);
        const reason =
          meta.trigger === "manual"
            ? ("manual" as const)
            : meta.trigger === "auto"
              ? ("threshold" as const)
              : undefined;
        return [draft("compaction.completed", defined({ reason, tokens_before: count(meta.pre_tokens) }), { native })];
      }
      case "api_retry": {
        const status = count(e.error_status);
        const kind = asText(e.error) || "error";
        return [
          draft(
            "retry.started",
            {
              scope: "request",
              attempt: Math.max(count(e.attempt) ?? 1, 1),
              max_attempts: Math.max(count(e.max_retries) ?? 1, 1),
              delay_ms: cappedMs(e.retry_delay_ms) ?? 0,
              error: status !== undefined ? `HTTP ${status}: ${kind}` : kind,
            },
            { native },
          ),
        ];
      }
      case "thinking_tokens":
        // A running estimate of the thinking being streamed: reasoning.delta carries the text, result.usage the count.
        return [];
      case "task_notification": {
        const id = nonEmpty(e.tool_use_id);
        if (id && e.status === "stopped") this.stopped.add(id);
        return [passThrough(e)];
      }
      case "permission_denied": {
        // -p mode asks no one: the call is refused and the run goes on. The approval it lacked is what the run needs.
        const id = nonEmpty(e.tool_use_id);
        if (!id || this.denied.has(id)) return [passThrough(e)];
        return [this.approvalNeeded(id, asText(e.tool_name), this.toolArgs.get(id) ?? {}, asText(e.message), e)];
      }
      default:
        // task_started, hook_*, notifications, anything newer.
        return [passThrough(e)];
    }
  }

  private streamEvent(e: NativeEvent): Draft[] {
    const event = objectOrEmpty(e.event);
    const agent = this.agentOf(e);
    if (event.type === "content_block_delta") {
      const delta = objectOrEmpty(event.delta);
      const id = blockId(asText(e.api_message_id) || "msg", count(event.index) ?? 0);
      if (delta.type === "text_delta")
        return [draft("message.delta", { message_id: id, text: asText(delta.text) }, { native: e.type, ...agent })];
      if (delta.type === "thinking_delta")
        return [
          draft("reasoning.delta", { message_id: id, text: asText(delta.thinking) }, { native: e.type, ...agent }),
        ];
      if (typeof delta.type === "string" && ABSORBED_DELTAS.has(delta.type)) return [];
      return [passThrough(e)];
    }
    if (event.type === "message_delta") this.messageUsage.see(asText(e.api_message_id) || "msg", event.usage);
    // A message_stop naming abandoned blocks (on the line, beside event) closes deltas no assistant line will finish: kept, as data.
    if (event.type === "message_stop" && (e.abandoned_blocks !== undefined || event.abandoned_blocks !== undefined))
      return [passThrough(e)];
    if (typeof event.type === "string" && ABSORBED_STREAM_EVENTS.has(event.type)) return [];
    return [passThrough(e)];
  }

  private assistant(e: NativeEvent): Draft[] {
    const native = e.type;
    const message = objectOrEmpty(e.message);
    const content = Array.isArray(message.content) ? message.content : [];
    if (e.is_api_error_message === true || message.model === "<synthetic>") return this.apiError(e, content);
    const apiId = asText(message.id) || "msg";
    const model = nonEmpty(message.model);
    const agent = this.agentOf(e);
    this.messageUsage.see(apiId, message.usage, model);
    const out: Draft[] = [];
    let unknown = false;
    for (const block of content) {
      if (!isObject(block)) continue;
      const index = this.blocks.get(apiId) ?? 0;
      this.blocks.set(apiId, index + 1);
      // Only messages still being written need their count: the oldest is forgotten past MESSAGES_KEPT.
      if (index === 0 && this.blocks.size > MESSAGES_KEPT) this.blocks.delete(this.blocks.keys().next().value!);
      const id = blockId(apiId, index);
      if (block.type === "text") {
        // A text block without its text is kept with the line, as data: it is no answer, and it takes none away.
        if (typeof block.text !== "string") {
          unknown = true;
          continue;
        }
        const text = block.text;
        if (!agent.agent) {
          this.lastText = this.continuing && this.lastText !== null ? this.lastText + text : text;
          this.continuing = false;
        }
        out.push(
          draft(
            "message.completed",
            defined({ message_id: id, text, model, stop_reason: e.aborted === true ? "aborted" : undefined }),
            { native, ...agent },
          ),
        );
      } else if (block.type === "thinking") {
        out.push(draft("reasoning.completed", { message_id: id, text: asText(block.thinking) }, { native, ...agent }));
      } else if (block.type === "tool_use") {
        const callId = nonEmpty(block.id) ?? `${asText(block.name) || "tool"}_call`;
        const name = asText(block.name) || "tool";
        this.toolNames.set(callId, name);
        this.toolArgs.set(callId, objectOrEmpty(block.input));
        if (!agent.agent) {
          this.lastText = null;
          this.continuing = false;
        }
        if (name === "Task" || name === "Agent") {
          const input = objectOrEmpty(block.input);
          this.subagents.set(callId, { name: nonEmpty(input.subagent_type) ?? name, instance_id: callId });
        }
        out.push(
          draft("tool.started", { tool_call_id: callId, name, args: objectOrEmpty(block.input) }, { native, ...agent }),
        );
      } else if (block.type === "server_tool_use") {
        // A tool the API ran itself (web_search, web_fetch): a call all the same, its result in a later block.
        const callId = nonEmpty(block.id) ?? `${asText(block.name) || "server_tool"}_call`;
        const name = asText(block.name) || "server_tool";
        this.toolNames.set(callId, name);
        if (!agent.agent) {
          this.lastText = null;
          this.continuing = false;
        }
        out.push(
          draft(
            "tool.started",
            { tool_call_id: callId, name, args: objectOrEmpty(block.input), kind: "server" },
            { native, ...agent },
          ),
        );
      } else if (typeof block.type === "string" && block.type.endsWith("_tool_result") && nonEmpty(block.tool_use_id)) {
        // web_search_tool_result, web_fetch_tool_result, ...: a server tool's result, in the model's own message.
        const callId = nonEmpty(block.tool_use_id)!;
        const name = this.toolNames.get(callId) ?? "server_tool";
        this.toolNames.delete(callId);
        const failed = isObject(block.content) && asText(block.content.type).endsWith("_error");
        out.push(
          draft(
            "tool.completed",
            {
              tool_call_id: callId,
              name,
              status: failed ? "failed" : "succeeded",
              output: serverResultText(block.content),
            },
            { native, ...agent },
          ),
        );
      } else {
        // redacted_thinking (encrypted, no text), anything newer: no canonical meaning yet.
        unknown = true;
      }
    }
    if (unknown) out.push(passThrough(e));
    return out;
  }

  /** A synthetic assistant message ("API Error: 400 ...") is the API's failure, never an answer. */
  private apiError(e: NativeEvent, content: unknown[]): Draft[] {
    const text = content
      .filter(isObject)
      .map((b) => (b.type === "text" ? asText(b.text) : ""))
      .join("");
    const message = text || asText(e.error) || "the API request failed";
    const error = classifyApiError(message, count(e.api_error_status), asText(e.error));
    this.apiFailure = { error };
    return [draft("error", error, { native: e.type })];
  }

  private user(e: NativeEvent): Draft[] {
    const native = e.type;
    const message = objectOrEmpty(e.message);
    const content = Array.isArray(message.content) ? message.content : [];
    // The max_tokens continuation prompt: written by Claude Code, not by a user; kept as data.
    // The reply goes on where the cut one stopped, so the answer is both texts.
    if (e.isSynthetic === true) {
      this.continuing = this.continued = true;
      return [passThrough(e)];
    }
    const agent = this.agentOf(e);
    const out: Draft[] = [];
    let notes = false;
    for (const block of content) {
      if (!isObject(block)) continue;
      if (block.type === "tool_result") {
        const id = nonEmpty(block.tool_use_id) ?? "tool_call";
        const status =
          this.stopped.has(id) || e.tool_use_result === "User rejected tool use"
            ? ("cancelled" as const)
            : block.is_error === true
              ? ("failed" as const)
              : ("succeeded" as const);
        // A call has one result: its name and input are not kept past it (a long run's memory stays flat;
        // a denial comes before the result, and the result line's permission_denials carry their input).
        const name = this.toolNames.get(id) ?? "tool";
        this.toolNames.delete(id);
        this.toolArgs.delete(id);
        out.push(
          draft(
            "tool.completed",
            { tool_call_id: id, name, status, output: resultText(block.content) },
            { native, ...agent },
          ),
        );
        const sub = this.subagents.get(id);
        if (sub) {
          this.subagents.delete(id);
          if (this.seenAgents.has(id)) out.push(draft("subagent.completed", { ...sub }, { native }));
        }
      } else if (block.type === "text" || block.type === "image") {
        notes = true;
      }
    }
    // "[Request interrupted by user]" and other notes in the user's name: kept, as data.
    if (notes) out.push(passThrough(e));
    // A plain string is the prompt (a transcript, --replay-user-messages; in a run the session wrote the caller's).
    // A sub-agent's is its task, which subagent.started carries.
    if (typeof message.content === "string" && message.content !== "" && agent.agent === undefined)
      out.push(draft("prompt.submitted", { text: message.content }, { native }));
    return out;
  }

  private result(e: NativeEvent): Draft[] {
    const native = e.type;
    const out: Draft[] = [];
    const usage = runUsage(e);
    if (usage) out.push(draft("usage", usage, { native }));
    // Older releases and SDK samples write no usage on the result: each message's own is all there is.
    else if (!isObject(e.usage) && !isObject(e.modelUsage))
      out.push(...this.messageUsage.drafts(amount(e.total_cost_usd)));
    // Either says failure: an API failure is subtype "success" with is_error true, and an error_* subtype ends a run
    // that did not finish whatever is_error says. A result with neither (older releases, SDK samples) is a success.
    const subtype = asText(e.subtype);
    if (e.is_error !== true && !subtype.startsWith("error")) {
      // result.result is the last text block only: after a continuation, the answer is longer.
      const text =
        (this.continued ? nonEmpty(this.lastText) : undefined) ?? nonEmpty(e.result) ?? nonEmpty(this.lastText);
      // Denied calls (permission_denials) left the work undone: the run needs their approval, not a silent success.
      // A listed denial is never dropped, whatever it lacks (its call's id, its tool's name, its input).
      for (const denial of Array.isArray(e.permission_denials) ? e.permission_denials : []) {
        // A bare string names the tool alone.
        const request = this.listedDenial(
          typeof denial === "string" ? { tool_name: denial } : objectOrEmpty(denial),
          e,
        );
        if (request) out.push(request);
      }
      // --json-schema: the StructuredOutput tool's input, the answer agentstream checks (result.result is its JSON text).
      const structured = "structured_output" in e ? { structured: { value: e.structured_output } } : {};
      this.outcome = this.denied.settle({ status: "succeeded", resultText: text ?? null, ...structured });
      return out;
    }
    const reason = nonEmpty(e.terminal_reason);
    if (reason && ABORTED_REASONS.has(reason)) {
      // Interrupted (SIGINT): the result is often missing after one, so it decides nothing; how the
      // process was stopped (agentstream's own signal → cancelled) does, the same with or without it.
      out.push(
        draft(
          "error",
          { code: "aborted", message: `interrupted by the user (${reason})`, retryable: false },
          { native },
        ),
      );
      return out;
    }
    const partial = this.lastText === "" ? null : this.lastText;
    if (this.apiFailure) {
      const { code, message, retryable } = this.apiFailure.error;
      this.outcome = { status: "failed", error: { code, message, retryable }, resultText: partial };
      return out;
    }
    const said =
      strings(e.errors)
        .filter((s) => s !== "")
        .join("; ") ||
      errorMessage(e.error) ||
      nonEmpty(e.result) ||
      `the run failed (${subtype || "error"}${reason ? `, ${reason}` : ""})`;
    // A limit the caller set (--max-turns, --max-budget-usd) stopped a run that was not done.
    const error: EventPayloads["error"] =
      LIMIT_SUBTYPES.has(subtype) || (reason && LIMIT_REASONS.has(reason))
        ? { code: "budget", message: said, retryable: false }
        : subtype === STRUCTURED_OUTPUT_GIVEN_UP
          ? { code: "output_schema", message: said, retryable: false }
          : classifyApiError(said, count(e.api_error_status), asText(e.api_error_type));
    out.push(draft("error", error, { native }));
    this.outcome = {
      status: "failed",
      error: { code: error.code, message: error.message, retryable: error.retryable },
      resultText: partial,
    };
    return out;
  }

  private readonly seenAgents = new Set<string>();

  /**
   * A denial the result lists: its approval, unless a permission_denied line asked for it already (by its call's
   * id; one that names no call, by its tool and input). One without an id is named by its place in the list.
   */
  private listedDenial(denial: Record<string, unknown>, e: NativeEvent): Draft | undefined {
    const id = nonEmpty(denial.tool_use_id);
    const name = nonEmpty(denial.tool_name) ?? (id !== undefined ? this.toolNames.get(id) : undefined) ?? "tool";
    const args = isObject(denial.tool_input)
      ? denial.tool_input
      : ((id !== undefined ? this.toolArgs.get(id) : undefined) ?? {});
    if (id !== undefined) return this.denied.has(id) ? undefined : this.approvalNeeded(id, name, args, "", e);
    const made = `denial_${++this.unnamedDenials}`;
    return this.denied.request(made, name, args, "", e.type, this.agentOf(e).agent, false);
  }

  /** input.requested for a denied call: the approval it lacked. */
  private approvalNeeded(
    id: string,
    toolName: string,
    args: Record<string, unknown>,
    message: string,
    e: NativeEvent,
  ): Draft {
    const name = toolName || this.toolNames.get(id) || "tool";
    return this.denied.request(id, name, args, message, e.type, this.agentOf(e).agent);
  }

  /** The agent of a line written inside a sub-agent (parent_tool_use_id names its Task call). */
  private agentOf(e: NativeEvent): { agent?: AgentRef } {
    const parent = nonEmpty(e.parent_tool_use_id);
    if (!parent) return {};
    return { agent: this.subagents.get(parent) ?? { name: "subagent", instance_id: parent } };
  }

  /** subagent.started the first time a sub-agent's own message shows. */
  private subagentStart(e: NativeEvent): Draft[] {
    const parent = nonEmpty(e.parent_tool_use_id);
    if (!parent || this.seenAgents.has(parent)) return [];
    this.seenAgents.add(parent);
    const agent = this.subagents.get(parent) ?? { name: "subagent", instance_id: parent };
    this.subagents.set(parent, agent);
    return [draft("subagent.started", { ...agent, tool_call_id: parent }, { native: e.type })];
  }
}

/**
 * The usage each API message states (on its assistant lines, one per block, and
 * its message_delta), the largest count of each kind kept: the lines repeat the
 * message's usage, and a streamed one's placeholder (output_tokens 1) grows.
 * Past MESSAGES_KEPT messages the oldest are folded into one sum, so memory stays flat.
 */
class MessageUsage {
  private readonly byMessage = new Map<string, TokenCounts & { model?: string }>();
  private older: TokenCounts | undefined;

  see(id: string, usage: unknown, model?: string): void {
    if (!isObject(usage)) return;
    const input = count(usage.input_tokens);
    const output = count(usage.output_tokens);
    if (input === undefined && output === undefined) return;
    const was = this.byMessage.get(id);
    const max = (a: number | undefined, b: number | undefined) =>
      a === undefined ? b : b === undefined ? a : Math.max(a, b);
    this.byMessage.set(
      id,
      defined({
        input: max(was?.input, input) ?? 0,
        output: max(was?.output, output) ?? 0,
        cacheRead: max(was?.cacheRead, count(usage.cache_read_input_tokens)),
        cacheWrite: max(was?.cacheWrite, count(usage.cache_creation_input_tokens)),
        model: was?.model ?? model,
      }),
    );
    if (was || this.byMessage.size <= MESSAGES_KEPT) return;
    const oldest = this.byMessage.keys().next().value!;
    this.older = addCounts(this.older, this.byMessage.get(oldest)!);
    this.byMessage.delete(oldest);
  }

  /** One usage per message (scope "message": the messages' own counts, not the run's total), and the run's cost. */
  drafts(cost: number | undefined): Draft[] {
    const parts: Array<TokenCounts & { model?: string }> = [
      ...(this.older ? [this.older] : []),
      ...this.byMessage.values(),
    ];
    const out: Draft[] = parts
      .filter((u) => u.input + u.output + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0) > 0)
      .map((u) =>
        draft(
          "usage",
          defined({
            scope: "message" as const,
            input_tokens: u.input + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0),
            output_tokens: u.output,
            cache_read_input_tokens: u.cacheRead,
            cache_write_input_tokens: u.cacheWrite,
            model: u.model,
          }),
          { synthetic: true },
        ),
      );
    // The cost is the run's (Claude Code's estimate): no message's.
    if (cost)
      out.push(
        draft("usage", { scope: "run", input_tokens: 0, output_tokens: 0, cost_usd: cost }, { native: "result" }),
      );
    return out;
  }
}

interface TokenCounts {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

function addCounts(a: TokenCounts | undefined, b: TokenCounts): TokenCounts {
  const opt = (x: number | undefined, y: number | undefined) =>
    x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0);
  return defined({
    input: (a?.input ?? 0) + b.input,
    output: (a?.output ?? 0) + b.output,
    cacheRead: opt(a?.cacheRead, b.cacheRead),
    cacheWrite: opt(a?.cacheWrite, b.cacheWrite),
  });
}

/** One canonical message per content block: the API message's id and the block's index. */
function blockId(apiId: string, index: number): string {
  return `${apiId}:${index}`;
}

/** A tool result's content: a string, or text blocks. */
function resultText(content: unknown): string {
  if (!Array.isArray(content)) return asText(content);
  return content
    .filter(isObject)
    .map((b) => (b.type === "text" ? asText(b.text) : ""))
    .join("");
}

/** A server tool's result: one "title url" line per search result, an error's code, or its text. */
function serverResultText(content: unknown): string {
  if (isObject(content)) return asText(content.error_code) || asText(content.type);
  if (!Array.isArray(content)) return asText(content);
  return content
    .filter(isObject)
    .map((r) => [asText(r.title), asText(r.url)].filter((x) => x !== "").join(" ") || asText(r.text))
    .join("\n");
}

/**
 * Classify an API failure by the table in Claude Code's words: the SDK's error kind (rate_limit,
 * authentication_failed, ...), its HTTP status (api_error_status), its wording; a kind the table does not
 * know is still the provider's.
 */
function classifyApiError(message: string, status: number | undefined, kind: string): EventPayloads["error"] {
  const c = classifyError(message, {
    dialect: "claude",
    ...(kind !== "" ? { type: kind } : {}),
    ...(status !== undefined ? { status } : {}),
  });
  const code = c.code === "unknown" && kind !== "" && kind !== "unknown" ? "provider" : c.code;
  return defined({ code, message, retryable: c.retryable, http_status: c.http_status });
}

/**
 * The run's total: result.usage (the main agent's model calls, cache reads and writes
 * apart from input_tokens), or modelUsage (per model, every call) when sub-agents ran
 * (result.usage leaves their calls out) or after a SIGINT (result.usage is all zeros
 * while modelUsage holds the partial call).
 */
function runUsage(e: NativeEvent): EventPayloads["usage"] | undefined {
  const u = objectOrEmpty(e.usage);
  let input = count(u.input_tokens);
  let output = count(u.output_tokens);
  let cacheRead = count(u.cache_read_input_tokens);
  let cacheWrite = count(u.cache_creation_input_tokens);
  const models = isObject(e.modelUsage) ? Object.entries(e.modelUsage).filter(([, v]) => isObject(v)) : [];
  const sum = (key: string): number | undefined => {
    let total = 0;
    for (const [, m] of models) {
      const n = count((m as Record<string, unknown>)[key]);
      if (n === undefined) return undefined;
      total += n;
    }
    return total;
  };
  const all = {
    input: sum("inputTokens"),
    output: sum("outputTokens"),
    cacheRead: sum("cacheReadInputTokens"),
    cacheWrite: sum("cacheCreationInputTokens"),
  };
  const usageTotal = (input ?? 0) + (output ?? 0) + (cacheRead ?? 0) + (cacheWrite ?? 0);
  const modelsTotal = (all.input ?? 0) + (all.output ?? 0) + (all.cacheRead ?? 0) + (all.cacheWrite ?? 0);
  // result.usage leaves sub-agents' calls out (and is zeros after a SIGINT); modelUsage counts every call.
  // (Otherwise result.usage stands: after a dropped stream modelUsage also counts the abandoned attempts' estimates.)
  const subagents = count(objectOrEmpty(e.subagent_stats).spawned) ?? 0;
  if (
    (usageTotal === 0 || subagents > 0) &&
    models.length > 0 &&
    all.input !== undefined &&
    all.output !== undefined &&
    modelsTotal > usageTotal
  ) {
    ({ input, output, cacheRead, cacheWrite } = all);
  }
  if (input === undefined || output === undefined) return undefined;
  const inputTokens = input + (cacheRead ?? 0) + (cacheWrite ?? 0);
  const cost = amount(e.total_cost_usd);
  if (inputTokens + output === 0 && !cost) return undefined;
  const details = objectOrEmpty(u.output_tokens_details);
  return defined({
    scope: "run" as const,
    input_tokens: inputTokens,
    output_tokens: output,
    cache_read_input_tokens: cacheRead,
    cache_write_input_tokens: cacheWrite,
    // Written as 0 whether or not the model thought (the thinking capture says 0): only a count is kept.
    reasoning_tokens: count(details.thinking_tokens) || undefined,
    cost_usd: cost,
    model: models.length === 1 ? models[0]![0] : undefined,
  });
}
