import type { CompactionReason, EventPayloads } from "../../canonical/events.js";
import type { BackendErrorClues } from "../classification.js";
import { errorDraft, errorInfo } from "../error-draft.js";
import {
  amount,
  asText,
  bool,
  cappedMs,
  count,
  defined,
  isObject,
  nativeTime as timeOf,
  nonEmpty,
  objectOrEmpty,
  str,
  strings,
} from "../../core/fields.js";
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

/** Atomic's and pi's errors are classified in their words (pi-acp passes them on too). */
const ATOMIC: BackendErrorClues = { dialect: "atomic" };

interface AssistantSummary {
  text: string;
  stopReason: string | undefined;
  errorMessage: string | undefined;
}

const COMPACTION_REASONS = new Set(["manual", "threshold", "overflow"]);
const MODEL_CHANGE_REASONS = new Set(["set", "cycle", "restore", "fallback"]);

// assistantMessageEvent kinds whose facts message_end or tool_execution_start carry.
// start/done/error are part of the type but never seen on the wire.
const ABSORBED_UPDATES = new Set([
  "text_start",
  "text_end",
  "thinking_start",
  "thinking_end",
  "toolcall_start",
  "toolcall_delta",
  "toolcall_end",
  "start",
  "done",
  "error",
]);

/**
 * Atomic `--mode json`, and pi 0.73 / 0.84 / 1.6, which speak the same
 * protocol. Errors are data: the last assistant message decides the outcome.
 */
export class AtomicTranslator implements Translator {
  readonly protocol = "atomic";
  /** False once a message's usage could not be written (see messageUsage). */
  usageComplete = true;
  started = false;

  private turn = 0;
  private messageCount = 0;
  private assistantId: string | undefined;
  private lastAssistant: AssistantSummary | undefined;
  /** The current prompt ended with agent_settled; reset when the next one starts. */
  private settled = false;
  private settledAborted = false;
  /** An agent_continue_error with no assistant message after it: the agent could not finish its work. */
  private continueError: string | undefined;
  /** An agent_end with nothing automatic pending after it: how pi 0.73 recordings end. */
  private idle = false;
  /** The turn under way had its assistant message_end: turn_end repeats that message. */
  private turnAnswered = false;
  /** An assistant message was finished since agent_start: agent_end's messages repeat it. */
  private agentAnswered = false;

  translate(e: NativeEvent): Draft[] {
    if (e.type !== "session") this.started = true;
    switch (e.type) {
      case "session":
        return this.session(e);
      case "agent_start":
        return this.agentStart();
      case "agent_end":
        return this.agentEnd(e);
      case "turn_start":
        this.turnAnswered = false;
        return [draft("turn.started", { turn: ++this.turn }, { native: e.type })];
      case "turn_end":
        return this.turnEnd(e);
      case "message_start":
        return this.messageStart(e);
      case "message_update":
        return this.update(e);
      case "message_end":
        return this.messageEnd(e);
      case "tool_execution_start":
        return this.toolExecutionStart(e);
      case "tool_execution_update":
        return this.toolExecutionUpdate(e);
      case "tool_execution_end":
        return this.toolExecutionEnd(e);
      case "auto_retry_start":
      case "summarization_retry_scheduled":
        return this.retryStart(e);
      case "auto_retry_end":
      case "summarization_retry_finished":
        return this.retryEnd(e);
      case "compaction_start":
      case "auto_compaction_start":
        return [draft("compaction.started", defined({ reason: compactionReason(e.reason) }), { native: e.type })];
      case "compaction_end":
      case "auto_compaction_end":
        return this.compactionEnd(e);
      case "model_changed":
        return [draft("model.changed", modelChanged(e), { native: e.type })];
      case "model_fallback_start":
      case "model_fallback_end":
        return [draft("model.fallback", modelFallback(e), { native: e.type })];
      case "queue_update":
        return [draft("session.updated", queueUpdate(e), { native: e.type })];
      case "session_info_changed":
        return [draft("session.updated", defined({ name: str(e.name) }), { native: e.type })];
      case "thinking_level_changed":
        return [draft("session.updated", defined({ thinking_level: str(e.level) }), { native: e.type })];
      case "agent_continue_error":
        return this.agentContinueError(e);
      case "agent_settled":
        return this.agentSettled(e);
      default:
        // entry_appended, bash_execution_update, summarization_retry_attempt_start, anything newer.
        return [passThrough(e)];
    }
  }

  /**
   * The time a native event states: the session header's `timestamp` (RFC 3339), a
   * finished message's `timestamp` (epoch ms, stamped when the message began), or
   * a `timestamp` of its own. turn_end repeats its last message, already timed.
   */
  nativeTime(e: NativeEvent): string | undefined {
    if (e.type === "turn_end") return undefined;
    if (e.type === "message_end") return timeOf(objectOrEmpty(e.message).timestamp);
    return timeOf(e.timestamp);
  }

  finish(end: StreamEndFacts): TranslatorConclusion {
    return { drafts: [], outcome: this.settledOutcome(end) };
  }

  private session(e: NativeEvent): Draft[] {
    const id = nonEmpty(e.id);
    if (!id) return [passThrough(e)];
    return [
      draft("session.started", defined({ session_id: id, protocol_version: count(e.version), cwd: nonEmpty(e.cwd) }), {
        native: e.type,
      }),
    ];
  }

  private agentStart(): Draft[] {
    this.settled = false;
    this.settledAborted = false;
    this.idle = false;
    this.agentAnswered = false;
    return [];
  }

  /**
   * The agent stopped. Its `messages` are the run's new messages, each already written by its message_end;
   * a recording without those (other projects' fixtures, a stream cut down) has its last answer only here.
   */
  private agentEnd(e: NativeEvent): Draft[] {
    // pi >= 0.84 says when another attempt follows.
    this.idle = e.willRetry !== true;
    if (this.agentAnswered || !Array.isArray(e.messages)) return [];
    const last = e.messages.findLast((m) => isObject(m) && m.role === "assistant");
    return isObject(last) ? this.assistantEnd(e, last) : [];
  }

  /** A turn ended with its assistant message: translated here only where no message_end gave it. */
  private turnEnd(e: NativeEvent): Draft[] {
    const message = objectOrEmpty(e.message);
    const answer = !this.turnAnswered && message.role === "assistant" ? this.assistantEnd(e, message) : [];
    this.turnAnswered = false;
    return [
      ...answer,
      draft("turn.completed", defined({ turn: Math.max(this.turn, 1), stop_reason: nonEmpty(message.stopReason) }), {
        native: e.type,
      }),
    ];
  }

  private messageStart(e: NativeEvent): Draft[] {
    if (objectOrEmpty(e.message).role === "assistant") this.assistantId = this.nextMessageId();
    return [];
  }

  private messageEnd(e: NativeEvent): Draft[] {
    if (!isObject(e.message)) return [passThrough(e)];
    if (e.message.role === "user") return userPrompt(e.message.content, e.type);
    return e.message.role === "assistant" ? this.assistantEnd(e, e.message) : [];
  }

  private toolExecutionStart(e: NativeEvent): Draft[] {
    return [
      draft(
        "tool.started",
        { tool_call_id: callId(e), name: asText(e.toolName), args: objectOrEmpty(e.args) },
        { native: e.type },
      ),
    ];
  }

  private toolExecutionUpdate(e: NativeEvent): Draft[] {
    return [
      draft(
        "tool.updated",
        {
          tool_call_id: callId(e),
          name: asText(e.toolName),
          output: blocksText(objectOrEmpty(e.partialResult).content),
        },
        { native: e.type },
      ),
    ];
  }

  private toolExecutionEnd(e: NativeEvent): Draft[] {
    return [
      draft(
        "tool.completed",
        defined({
          tool_call_id: callId(e),
          name: asText(e.toolName),
          status: e.isError === true ? ("failed" as const) : ("succeeded" as const),
          output: blocksText(objectOrEmpty(e.result).content),
          // pi 1.6 times every call; Atomic's bash reports its wall time in the result's details.
          duration_ms: count(e.durationMs) ?? count(objectOrEmpty(objectOrEmpty(e.result).details).wallTimeMs),
        }),
        { native: e.type },
      ),
    ];
  }

  /** auto_retry_start, summarization_retry_scheduled. */
  private retryStart(e: NativeEvent): Draft[] {
    if (e.type === "auto_retry_start") this.idle = false;
    return [
      draft(
        "retry.started",
        {
          scope: e.type === "auto_retry_start" ? "request" : "summarization",
          attempt: Math.max(count(e.attempt) ?? 1, 1),
          max_attempts: Math.max(count(e.maxAttempts) ?? 1, 1),
          delay_ms: cappedMs(e.delayMs) ?? 0,
          error: asText(e.errorMessage),
        },
        { native: e.type },
      ),
    ];
  }

  /** auto_retry_end, summarization_retry_finished. */
  private retryEnd(e: NativeEvent): Draft[] {
    const attempt = count(e.attempt);
    return [
      draft(
        "retry.completed",
        defined({
          scope: e.type === "auto_retry_end" ? ("request" as const) : ("summarization" as const),
          success: bool(e.success),
          attempt: attempt ? attempt : undefined,
          error: nonEmpty(e.finalError),
        }),
        { native: e.type },
      ),
    ];
  }

  /** compaction_end, auto_compaction_end. */
  private compactionEnd(e: NativeEvent): Draft[] {
    if (e.willRetry === true) this.idle = false;
    return [draft("compaction.completed", compactionEnd(e), { native: e.type })];
  }

  private agentContinueError(e: NativeEvent): Draft[] {
    const message = nonEmpty(e.errorMessage) ?? "the agent could not continue";
    this.continueError = message;
    return [errorDraft(message, e.type, ATOMIC)];
  }

  private agentSettled(e: NativeEvent): Draft[] {
    this.settled = true;
    this.settledAborted = e.aborted === true;
    return [];
  }

  /** The run's verdict once the backend settled (pi 0.73 never does: a clean exit stands in). */
  private settledOutcome(end: StreamEndFacts): Outcome | undefined {
    const cleanExit = end.backendExit ? end.backendExit.code === 0 && !end.backendExit.signal : this.idle;
    // A clean exit stands in for agent_settled only after a real run or the agent's own end (agent_end, nothing
    // pending): with neither it ended unfinished. After agent_end with no assistant message, nothing answered.
    if (!this.settled && (!cleanExit || !(this.lastAssistant || this.idle))) return undefined;
    const last = this.lastAssistant;
    if (!last) {
      return {
        status: "failed",
        error: { code: "unknown", message: "the backend finished without an assistant message", retryable: false },
        resultText: null,
      };
    }
    const resultText = last.text === "" ? null : last.text;
    if (last.stopReason === "error")
      return {
        status: "failed",
        error: errorInfo(last.errorMessage ?? "the provider request failed", ATOMIC),
        resultText,
      };
    if (last.stopReason === "aborted" || this.settledAborted) {
      return {
        status: "failed",
        error: { code: "aborted", message: last.errorMessage ?? "the turn was aborted", retryable: false },
        resultText,
      };
    }
    // Work was left (a tool turn, a queued follow-up) but the agent could not resume it.
    if (this.continueError) return { status: "failed", error: errorInfo(this.continueError, ATOMIC), resultText };
    return { status: "succeeded", resultText };
  }

  private nextMessageId(): string {
    return `msg_${++this.messageCount}`;
  }

  /** Text and thinking deltas; pi 0.73's `message` and `partial` copies are ignored. */
  private update(e: NativeEvent): Draft[] {
    const event = objectOrEmpty(e.assistantMessageEvent);
    const kind =
      event.type === "text_delta" ? "message.delta" : event.type === "thinking_delta" ? "reasoning.delta" : undefined;
    if (!kind) return typeof event.type === "string" && ABSORBED_UPDATES.has(event.type) ? [] : [passThrough(e)];
    this.assistantId ??= this.nextMessageId();
    return [draft(kind, { message_id: this.assistantId, text: asText(event.delta) }, { native: e.type })];
  }

  /**
   * A finished assistant message: its text, thinking, usage and failure. Of a
   * message whose fields have the wrong types, what can be read is translated
   * and the line is also kept whole as backend.event.
   */
  private assistantEnd(e: NativeEvent, message: Record<string, unknown>): Draft[] {
    const native = e.type;
    const id = this.assistantId ?? this.nextMessageId();
    this.assistantId = undefined;
    const out: Draft[] = [];
    const content = messageContent(message.content);
    for (const thinking of content.thinking)
      out.push(draft("reasoning.completed", { message_id: id, text: thinking }, { native }));
    const text = content.text;
    const stopReason = nonEmpty(message.stopReason);
    // A message that only called tools (or only thought, or failed) said nothing: no empty
    // message.completed; its calls are tool.started, its failure the error below.
    if (text !== "") {
      out.push(
        draft(
          "message.completed",
          defined({
            message_id: id,
            text,
            model: nonEmpty(message.model),
            provider: nonEmpty(message.provider),
            stop_reason: stopReason,
          }),
          { native },
        ),
      );
    }
    const usage = messageUsage(message);
    // Usage that is not exact counts is kept as data (below) rather than written with a made-up count; the totals lack it.
    if (usage === NOT_COUNTS) this.usageComplete = false;
    else if (usage) out.push(draft("usage", usage, { native }));
    const errorMessage = nonEmpty(message.errorMessage);
    if (stopReason === "error") out.push(errorDraft(errorMessage ?? "the provider request failed", native, ATOMIC));
    if (content.broken || usage === NOT_COUNTS || usageBroken(message.usage) || wrongTexts(message))
      out.push(passThrough(e));
    this.lastAssistant = { text, stopReason, errorMessage };
    this.continueError = undefined;
    this.turnAnswered = true;
    this.agentAnswered = true;
    return out;
  }
}

function callId(e: NativeEvent): string {
  return nonEmpty(e.toolCallId) ?? `${asText(e.toolName) || "tool"}_call`;
}

/**
 * A message's text (its text blocks joined, or pi's plain string) and thinking
 * blocks; `broken` when some of the content is not what the protocol says.
 */
function messageContent(content: unknown): { text: string; thinking: string[]; broken: boolean } {
  if (content === undefined) return { text: "", thinking: [], broken: false };
  if (typeof content === "string") return { text: content, thinking: [], broken: false };
  if (!Array.isArray(content)) return { text: "", thinking: [], broken: true };
  let text = "";
  const thinking: string[] = [];
  let broken = false;
  for (const block of content) {
    if (!isObject(block)) broken = true;
    else if (block.type === "text") {
      text += asText(block.text);
      broken ||= typeof block.text !== "string";
    } else if (block.type === "thinking") {
      thinking.push(asText(block.thinking));
      broken ||= typeof block.thinking !== "string";
    }
  }
  return { text, thinking, broken };
}

/** Message fields read as text that are present with another type. */
function wrongTexts(message: Record<string, unknown>): boolean {
  return ["stopReason", "model", "provider", "errorMessage"].some(
    (k) => message[k] !== undefined && typeof message[k] !== "string",
  );
}

/** Usage figures the translation leaves out because they are no count or amount (input and output: NOT_COUNTS). */
function usageBroken(usage: unknown): boolean {
  if (usage === undefined) return false;
  if (!isObject(usage)) return true;
  const notCount = (v: unknown) => v !== undefined && count(v) === undefined;
  if (notCount(usage.reasoning) || notCount(usage.totalTokens)) return true;
  if (usage.cost === undefined) return false;
  return !isObject(usage.cost) || (usage.cost.total !== undefined && amount(usage.cost.total) === undefined);
}

/** A user message: the prompt (prompt.submitted), its text blocks joined; none where it holds no text. */
function userPrompt(content: unknown, native: string): Draft[] {
  const text = blocksText(content);
  return text === "" ? [] : [draft("prompt.submitted", { text }, { native })];
}

/** The text blocks of a tool result, joined. */
function blocksText(content: unknown): string {
  if (!Array.isArray(content)) return asText(content);
  let text = "";
  for (const block of content) if (isObject(block) && block.type === "text") text += asText(block.text);
  return text;
}

const NOT_COUNTS = "not counts";

/**
 * Usage of a finished assistant message; Atomic's `input` leaves out the cache, ours includes it.
 * NOT_COUNTS when input_tokens or output_tokens would not be an exact count (input, output or a
 * reported cache figure missing, negative or beyond 2^53, or their sum beyond 2^53).
 */
function messageUsage(message: Record<string, unknown>): EventPayloads["usage"] | typeof NOT_COUNTS | undefined {
  if (!isObject(message.usage)) return undefined;
  const u = message.usage;
  const input = count(u.input);
  const output = count(u.output);
  const cacheRead = count(u.cacheRead);
  const cacheWrite = count(u.cacheWrite);
  if (input === undefined || output === undefined) return NOT_COUNTS;
  if (
    (u.cacheRead !== undefined && cacheRead === undefined) ||
    (u.cacheWrite !== undefined && cacheWrite === undefined)
  )
    return NOT_COUNTS;
  const inputTokens = input + (cacheRead ?? 0) + (cacheWrite ?? 0);
  if (inputTokens > Number.MAX_SAFE_INTEGER) return NOT_COUNTS;
  const cost = isObject(u.cost) ? amount(u.cost.total) : undefined;
  const reported = inputTokens + output > 0 || (cost ?? 0) > 0;
  if (!reported) return undefined;
  return defined({
    scope: "message" as const,
    input_tokens: inputTokens,
    output_tokens: output,
    cache_read_input_tokens: cacheRead,
    cache_write_input_tokens: cacheWrite,
    reasoning_tokens: count(u.reasoning),
    total_tokens: count(u.totalTokens),
    // pi prices a model its table lacks at 0: with tokens counted, 0 is no price, and the run estimates one.
    cost_usd: cost === 0 && inputTokens + output > 0 ? undefined : cost,
    model: nonEmpty(message.model),
    provider: nonEmpty(message.provider),
  });
}

function compactionReason(v: unknown): CompactionReason | undefined {
  return typeof v === "string" && COMPACTION_REASONS.has(v) ? (v as CompactionReason) : undefined;
}

function compactionEnd(e: NativeEvent): EventPayloads["compaction.completed"] {
  const result = objectOrEmpty(e.result);
  const stats = objectOrEmpty(result.stats);
  return defined({
    reason: compactionReason(e.reason),
    // Atomic reports compactedText and stats; pi a summary and an estimate.
    summary: str(result.summary) ?? str(result.compactedText),
    tokens_before: count(result.tokensBefore) ?? count(stats.tokensBefore),
    tokens_after: count(stats.tokensAfter) ?? count(result.estimatedTokensAfter),
    will_retry: bool(e.willRetry),
    aborted: bool(e.aborted),
    error: nonEmpty(e.errorMessage),
  });
}

function modelFallback(e: NativeEvent): EventPayloads["model.fallback"] {
  if (e.type === "model_fallback_start")
    return defined({ phase: "started" as const, from: str(e.from), to: str(e.to) });
  return defined({
    phase: "completed" as const,
    success: bool(e.success),
    from: str(e.from),
    to: str(e.to),
    error: str(e.finalError),
  });
}

function queueUpdate(e: NativeEvent): EventPayloads["session.updated"] {
  return { queue: { steering: strings(e.steering), follow_up: strings(e.followUp) } };
}

function modelChanged(e: NativeEvent): EventPayloads["model.changed"] {
  const model = isObject(e.model) ? e.model : {};
  const previous = isObject(e.previousModel) ? e.previousModel : {};
  const source = str(e.source);
  return defined({
    model: nonEmpty(model.id) ?? asText(e.model),
    provider: nonEmpty(model.provider),
    previous_model: nonEmpty(previous.id) ?? nonEmpty(e.previousModel),
    reason: source && MODEL_CHANGE_REASONS.has(source) ? (source as EventPayloads["model.changed"]["reason"]) : "set",
  });
}
