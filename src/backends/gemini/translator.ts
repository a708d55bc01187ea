import type { ErrorInfo, EventPayloads } from "../../canonical/events.js";
import { pastable, pastedValue, shellWord } from "../../core/shell-word.js";
import type { BackendErrorClues } from "../classification.js";
import { errorDraft } from "../error-draft.js";
import {
  asText,
  count,
  defined,
  errorMessage,
  isObject,
  nativeTime as timeOf,
  nonEmpty,
  objectOrEmpty,
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
import { RefusedCalls } from "../refused-calls.js";

/**
 * A call its policy engine refused headless: denied by policy (a rule's argument pattern, or the default
 * for a call no rule allows), or one that would need a confirmation no one can give.
 */
const REFUSED_TYPE = "policy_violation";
/**
 * What Gemini CLI throws for a call still asking for confirmation headless (its only words for it: the error's type is
 * a generic one), read in the error's own message and whole, never in a tool's output, which a command may print.
 */
const NEEDS_CONFIRMATION =
  /^Tool execution for "[^"\n]*" requires user confirmation, which is not supported in non-interactive mode\.?$/;

/** Gemini CLI's errors are classified in its words (classify.ts: its Fatal*Error types, its turn limit). */
const GEMINI: BackendErrorClues = { dialect: "gemini" };

/**
 * Gemini CLI `--output-format stream-json` (docs/protocols/gemini.md). The
 * answer comes only as deltas: a message is closed by the next tool call or by
 * the result, and the result's text is the last message's. Usage is the
 * session's total, given once in the result. Turns are made up, as for
 * EvoScientist: one model call and the tool calls it makes (a call's answer
 * starts after the tool results of the one before). An `error` event of
 * severity "error" (or none) fails the run even when its result says success.
 */
export class GeminiTranslator implements Translator {
  readonly protocol = "gemini";
  readonly usageComplete = true;
  started = false;

  private model: string | undefined;
  private messageCount = 0;
  private open: { id: string; text: string } | undefined;
  /** The text of the last message, null when a tool call came after it. */
  private lastText: string | null = null;
  private readonly toolNames = new Map<string, string>();
  /** Each open call's arguments: what a refused call asks to run. */
  private readonly toolArgs = new Map<string, Record<string, unknown>>();
  private readonly refused = new RefusedCalls();
  private sessionId: string | undefined;
  private outcome: Outcome | undefined;
  /** The first error (not a warning) of the run: it failed, whatever its result says. */
  private fatal: ErrorInfo | undefined;
  private turn = 0;
  private turnOpen = false;
  /** A tool result came in the open turn: the model's next words are a new call. */
  private resultsIn = false;

  /** Every line carries the time it was written. */
  nativeTime(e: NativeEvent): string | undefined {
    return timeOf(e.timestamp);
  }

  translate(e: NativeEvent): Draft[] {
    if (e.type !== "init") this.started = true;
    const native = e.type;
    switch (e.type) {
      case "init": {
        this.model = nonEmpty(e.model);
        const id = nonEmpty(e.session_id);
        this.sessionId = id ?? this.sessionId;
        return id ? [draft("session.started", { session_id: id }, { native })] : [passThrough(e)];
      }
      case "message":
        return this.message(e);
      case "tool_use": {
        const id = toolId(e);
        const name = asText(e.tool_name) || "tool";
        this.toolNames.set(id, name);
        this.toolArgs.set(id, objectOrEmpty(e.parameters));
        const out = [...this.modelSpeaks(), ...this.closeMessage(native)];
        // Words before a tool call are narration, not the answer.
        this.lastText = null;
        return [
          ...out,
          draft("tool.started", { tool_call_id: id, name, args: objectOrEmpty(e.parameters) }, { native }),
        ];
      }
      case "tool_result": {
        const id = toolId(e);
        const error = objectOrEmpty(e.error);
        const failed = e.status === "error";
        const output = nonEmpty(e.output) ?? (failed ? asText(error.message) : "");
        this.resultsIn = true;
        // A call has one result: its name is not kept past it (a long run's memory stays flat).
        const name = this.toolNames.get(id) ?? "tool";
        const args = this.toolArgs.get(id) ?? {};
        this.toolNames.delete(id);
        this.toolArgs.delete(id);
        const refused =
          failed && (error.type === REFUSED_TYPE || NEEDS_CONFIRMATION.test(asText(error.message)))
            ? [this.refused.request(id, name, args, output, native)]
            : [];
        return [
          ...this.closeMessage(native),
          draft(
            "tool.completed",
            { tool_call_id: id, name, status: failed ? "failed" : "succeeded", output },
            { native },
          ),
          ...refused,
        ];
      }
      case "error":
        return this.error(e);
      case "result":
        return this.result(e);
      default:
        return [passThrough(e)];
    }
  }

  finish(_end: StreamEndFacts): TranslatorConclusion {
    // A refused call left the work undone: the run needs its approval, not a silent success.
    const outcome = this.refused.settle(this.outcome);
    const resume = this.refused.resume(
      outcome,
      this.sessionId,
      (tools, session) =>
        `gemini --resume ${pastedValue(session, "SESSION")} --allowed-tools ${shellWord(tools.map((tool) => (pastable(tool) ? tool : "NAME")).join(","))} -p PROMPT (allow what was refused, then go on)`,
    );
    const drafts = [...this.closeMessage("result"), ...this.closeTurn()];
    return { drafts, outcome, ...(resume ? { resume } : {}) };
  }

  /** The model writes: the first words of a call open its turn (closing the one before). */
  private modelSpeaks(): Draft[] {
    if (this.turnOpen && !this.resultsIn) return [];
    const out = this.closeTurn();
    this.turnOpen = true;
    this.resultsIn = false;
    out.push(draft("turn.started", { turn: ++this.turn }, { synthetic: true }));
    return out;
  }

  private closeTurn(): Draft[] {
    if (!this.turnOpen) return [];
    this.turnOpen = false;
    return [draft("turn.completed", { turn: this.turn }, { synthetic: true })];
  }

  private message(e: NativeEvent): Draft[] {
    // The prompt, echoed (in a run, already the caller's: the session writes it once).
    if (e.role === "user")
      return typeof e.content === "string" && e.content !== ""
        ? [draft("prompt.submitted", { text: e.content }, { native: e.type })]
        : [];
    // A message without its text (a malformed line) is kept as data: it is no answer, and it takes none away.
    if (e.role !== "assistant" || typeof e.content !== "string") return [passThrough(e)];
    const text = e.content;
    const out = this.modelSpeaks();
    this.open ??= { id: `msg_${++this.messageCount}`, text: "" };
    this.open.text += text;
    if (e.delta === true) out.push(draft("message.delta", { message_id: this.open.id, text }, { native: e.type }));
    else out.push(...this.closeMessage(e.type));
    return out;
  }

  /** The message being streamed is complete: the next tool event or the result closed it. */
  private closeMessage(native: string): Draft[] {
    const open = this.open;
    this.open = undefined;
    if (!open) return [];
    this.lastText = open.text;
    return [
      draft("message.completed", defined({ message_id: open.id, text: open.text, model: this.model }), { native }),
    ];
  }

  /**
   * Warnings (a loop detected, a hook's block) are the backend's notes, kept as data. An error (severity
   * "error", or none said) stops the run although the result that follows says success: its turn limit
   * ("Maximum session turns exceeded"), a response it could not use.
   */
  private error(e: NativeEvent): Draft[] {
    if (e.severity === "warning") return [passThrough(e)];
    const message = asText(e.message) || "the backend reported an error";
    const event = errorDraft(message, e.type, GEMINI);
    const { code, retryable } = event.payload;
    this.fatal ??= { code, message, retryable };
    return [event];
  }

  private result(e: NativeEvent): Draft[] {
    const native = e.type;
    const out = [...this.closeMessage(native), ...this.closeTurn()];
    const usage = resultUsage(objectOrEmpty(e.stats), this.model);
    if (usage) out.push(draft("usage", usage, { native }));
    const text = this.lastText === "" ? null : this.lastText;
    if (e.status === "success") {
      // The error before it stopped the run: what was said so far is kept, as Claude Code's turn limit keeps it.
      this.outcome = this.fatal
        ? { status: "failed", error: this.fatal, resultText: text }
        : { status: "succeeded", resultText: text };
      return out;
    }
    const error = objectOrEmpty(e.error);
    // Its error is an object with a message; where a recording has the text alone, that is the message.
    const message = errorMessage(e.error) ?? "the run failed";
    // Its type decides where the table knows it: its turn limit (FatalTurnLimitedError, thrown before the next
    // model call) is budget, a cancellation by its user (FatalCancellationError) aborted, a refused login auth.
    const type = nonEmpty(error.type);
    const event = errorDraft(message, native, type !== undefined ? { ...GEMINI, type } : GEMINI);
    out.push(event);
    const { code, retryable } = event.payload;
    this.outcome = { status: "failed", error: { code, message, retryable }, resultText: text };
    return out;
  }
}

/** Gemini CLI prefixes its call ids with the tool's name; a missing one is made from the name. */
function toolId(e: NativeEvent): string {
  return nonEmpty(e.tool_id) ?? `${asText(e.tool_name) || "tool"}_call`;
}

/** The session's totals: input includes the cached part, as in the canonical stream; output leaves thinking out. */
function resultUsage(stats: Record<string, unknown>, model: string | undefined): EventPayloads["usage"] | undefined {
  const input = count(stats.input_tokens);
  const output = count(stats.output_tokens);
  if (input === undefined || output === undefined || input + output === 0) return undefined;
  const models = isObject(stats.models) ? Object.keys(stats.models) : [];
  return defined({
    scope: "run" as const,
    input_tokens: input,
    output_tokens: output,
    cache_read_input_tokens: count(stats.cached),
    total_tokens: count(stats.total_tokens),
    model: models.length === 1 ? models[0] : model,
  });
}
