import type { ErrorInfo, EventPayloads } from "../../canonical/events.js";
import { pastable, pastedValue, shellWord } from "../../core/shell-word.js";
import { classifyError, type ClassifiedError } from "../classification.js";
import {
  amount,
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

/** How OpenCode's tool error reads when a permission set to "ask" was rejected (run mode has no one to ask). */
const REJECTED = /^The user rejected permission to use this specific tool call\b/;

/**
 * OpenCode `opencode run --format json` (docs/protocols/opencode.md). Each line
 * is one finished part of the session's main agent: a step (one model call)
 * opens with step_start and closes with step_finish, which carries its tokens;
 * text and reasoning come whole when they end; a tool call only once it has
 * completed or failed. The stream has no final event (1.18): how the run ended
 * is what the last step said, an `error` line, and the exit status. Every line
 * names the session (`sessionID`): the first one starts it. A call whose
 * permission was rejected (set to ask, no one to ask) stops the run: it needs
 * that approval.
 */
export class OpencodeTranslator implements Translator {
  readonly protocol = "opencode";
  // Its steps are the main agent's: the title request and sub-agents' calls are not in them.
  readonly usageComplete = false;
  started = false;

  private turn = 0;
  private stepOpen = false;
  /** Why the last step finished ("stop", "tool-calls", "length", ...): the run went on only after tool-calls. */
  private lastReason: string | undefined;
  /** The last text, while no tool call came after it. */
  private answer: string | null = null;
  private error: ErrorInfo | undefined;
  private doneSeen = false;
  private sessionId: string | undefined;
  private readonly refused = new RefusedCalls();

  translate(e: NativeEvent): Draft[] {
    this.started = true;
    const drafts = this.translateEvent(e);
    if (this.sessionId === undefined && typeof e.sessionID === "string" && e.sessionID !== "") {
      this.sessionId = e.sessionID;
      drafts.unshift(draft("session.started", { session_id: e.sessionID }, { native: e.type }));
    }
    return drafts;
  }

  /** Every line carries the time it was written. */
  nativeTime(e: NativeEvent): string | undefined {
    return timeOf(e.timestamp);
  }

  private translateEvent(e: NativeEvent): Draft[] {
    const native = e.type;
    if (e.type === "step_start") return this.stepStart(native);
    if (e.type === "error") return this.errorLine(e, native);
    if (e.type === "done") {
      // Newer releases end with {"type":"done","reason":"idle"} (not written by 1.18.33).
      this.doneSeen = true;
      return [...this.closeStep(), passThrough(e)];
    }
    // The other types say what they say in their part: a line without one (or with the wrong types in it)
    // is kept as data, never read as an empty answer, a call that succeeded or a step that ended.
    const part = isObject(e.part) ? e.part : undefined;
    switch (e.type) {
      case "text":
        if (typeof part?.text !== "string") return [passThrough(e)];
        this.answer = part.text;
        return [draft("message.completed", { message_id: partId(part, "text"), text: part.text }, { native })];
      case "reasoning":
        if (typeof part?.text !== "string") return [passThrough(e)];
        return [draft("reasoning.completed", { message_id: partId(part, "reasoning"), text: part.text }, { native })];
      case "tool_use":
        return part && finishedCall(part) ? this.tool(part, native) : [passThrough(e)];
      case "step_finish":
        return part ? this.stepFinish(part, native) : [passThrough(e)];
      default:
        return [passThrough(e)];
    }
  }

  finish(end: StreamEndFacts): TranslatorConclusion {
    const outcome = this.outcome(end);
    const resume = this.refused.resume(outcome, this.sessionId, (tools, session) => {
      const allow = Object.fromEntries(tools.map((tool) => [pastable(tool) ? permissionKey(tool) : "NAME", "allow"]));
      return `OPENCODE_PERMISSION=${shellWord(JSON.stringify(allow))} opencode run --session ${pastedValue(session, "SESSION")} -- PROMPT (allow what was rejected, then go on)`;
    });
    return { drafts: this.closeStep(), outcome, ...(resume ? { resume } : {}) };
  }

  /**
   * With no final event, the verdict: an error line fails the run (OpenCode then exits 1, whatever
   * the error); a clean exit after a step that did not ask for tool results succeeds. A stream cut
   * short (a signal, a crash, a recording without its exit status that ends mid-step) has none:
   * the core decides from how it ended. A rejected permission stops the run after its step (which
   * asked for tool results): a clean exit after one needs that approval.
   */
  private outcome(end: StreamEndFacts): Outcome | undefined {
    if (this.error) return { status: "failed", error: this.error, resultText: null };
    const exit = end.backendExit;
    if (exit !== null && (exit.signal || exit.code !== 0)) return undefined;
    const answer = this.answer === "" ? null : this.answer;
    if (this.refused.any && !this.stepOpen) return { status: "needs_input", resultText: answer };
    // No step began: no model call answered, whatever ended the stream (a done line alone, lines without their part).
    if (this.turn === 0) return this.doneSeen ? NO_STEP : undefined;
    const settled =
      this.doneSeen || (!this.stepOpen && this.lastReason !== undefined && this.lastReason !== "tool-calls");
    if (!settled) return undefined;
    return { status: "succeeded", resultText: answer };
  }

  private stepStart(native: string): Draft[] {
    const out = this.closeStep();
    this.stepOpen = true;
    this.lastReason = undefined;
    out.push(draft("turn.started", { turn: ++this.turn }, { native }));
    return out;
  }

  private stepFinish(part: Record<string, unknown>, native: string): Draft[] {
    const out: Draft[] = [];
    const usage = stepUsage(part);
    if (usage) out.push(draft("usage", usage, { native }));
    // A finish without its step_start ends no step this stream showed: its tokens count, its reason does not.
    if (this.stepOpen) {
      this.lastReason = asText(part.reason) || "unknown";
      this.stepOpen = false;
      out.push(draft("turn.completed", defined({ turn: this.turn, stop_reason: nonEmpty(part.reason) }), { native }));
    }
    return out;
  }

  /** A step that never finished (an error ended it): closed where the stream goes on or ends. */
  private closeStep(): Draft[] {
    if (!this.stepOpen) return [];
    this.stepOpen = false;
    return [draft("turn.completed", { turn: this.turn, stop_reason: "error" }, { synthetic: true })];
  }

  /** A call is written once, finished: started and completed at once, with its own times. */
  private tool(part: Record<string, unknown>, native: string): Draft[] {
    const state = objectOrEmpty(part.state);
    const id = nonEmpty(part.callID) ?? partId(part, "tool");
    const name = asText(part.tool) || "tool";
    // Words before a tool call are narration, not the answer.
    this.answer = null;
    // A command that ran and exited non-zero is "completed", its exit status in the metadata.
    const exit = objectOrEmpty(state.metadata).exit;
    const threw = state.status === "error";
    const failed = threw || (typeof exit === "number" && exit !== 0);
    const time = objectOrEmpty(state.time);
    const start = amount(time.start);
    const finish = amount(time.end);
    const args = objectOrEmpty(state.input);
    const error = threw ? asText(state.error) : "";
    // A permission set to ask, rejected with no one to ask: the call waits for an approval. A deny rule's
    // refusal ("The user has specified a rule which prevents you...") is the user's answer, a failed call.
    const refused = REJECTED.test(error) ? [this.refused.request(id, name, args, error, native)] : [];
    return [
      draft("tool.started", { tool_call_id: id, name, args }, { native }),
      draft(
        "tool.completed",
        defined({
          tool_call_id: id,
          name,
          status: failed ? ("failed" as const) : ("succeeded" as const),
          output: threw ? error : asText(state.output),
          duration_ms: start !== undefined && finish !== undefined && finish >= start ? finish - start : undefined,
        }),
        { native },
      ),
      ...refused,
    ];
  }

  private errorLine(e: NativeEvent, native: string): Draft[] {
    const error = objectOrEmpty(e.error);
    const data = objectOrEmpty(error.data);
    const name = nonEmpty(error.name) ?? "";
    // OpenCode's NamedError keeps its text in data.message; an error serialized otherwise has its own message, or is one.
    const message = nonEmpty(data.message) ?? errorMessage(e.error) ?? (name || "the backend reported an error");
    const c = classify(name, data, message);
    // Only the first error is the run's; OpenCode writes one per session.error.
    this.error ??= { code: c.code, message, retryable: c.retryable };
    return [
      ...this.closeStep(),
      draft("error", defined({ code: c.code, message, retryable: c.retryable, http_status: c.http_status }), {
        native,
      }),
    ];
  }
}

/** A run that went idle without ever starting a step: nothing was asked of the model, nothing answered. */
const NO_STEP: Outcome = {
  status: "failed",
  error: { code: "unknown", message: "OpenCode went idle without a step: no model call was made", retryable: false },
  resultText: null,
};

/** A tool_use line says a call ended: it carries its state, completed or failed (1.18 writes no other). */
function finishedCall(part: Record<string, unknown>): boolean {
  const state = part.state;
  return isObject(state) && (state.status === "completed" || state.status === "error");
}

/** The permission that lets a tool run: OpenCode's write, patch and edit tools all need "edit". */
function permissionKey(tool: string): string {
  return ["write", "patch", "multiedit", "apply_patch"].includes(tool) ? "edit" : tool;
}

function partId(part: Record<string, unknown>, kind: string): string {
  return nonEmpty(part.id) ?? `${kind}_part`;
}

/** By the table in OpenCode's words (its error names first, then the HTTP status it kept, then the wording). */
function classify(name: string, data: Record<string, unknown>, message: string): ClassifiedError {
  const status = count(data.statusCode);
  const c = classifyError(message, {
    dialect: "opencode",
    ...(name !== "" ? { type: name } : {}),
    ...(status !== undefined ? { status } : {}),
  });
  // "Cannot connect to API: Unable to connect ...": no response at all, marked retryable by OpenCode.
  if (c.code === "unknown" && name === "APIError" && data.isRetryable === true)
    return { code: "network", retryable: true };
  return c;
}

/**
 * One model call's tokens. OpenCode's `input` leaves the cache out and its
 * `output` the reasoning; the canonical counts include both.
 */
function stepUsage(part: Record<string, unknown>): EventPayloads["usage"] | undefined {
  if (!isObject(part.tokens)) return undefined;
  const t = part.tokens;
  const cache = objectOrEmpty(t.cache);
  const read = count(cache.read) ?? 0;
  const write = count(cache.write) ?? 0;
  const reasoning = count(t.reasoning) ?? 0;
  const input = (count(t.input) ?? 0) + read + write;
  const output = (count(t.output) ?? 0) + reasoning;
  if (input + output === 0) return undefined;
  const cost = amount(part.cost);
  return defined({
    scope: "call" as const,
    input_tokens: input,
    output_tokens: output,
    cache_read_input_tokens: read > 0 ? read : undefined,
    cache_write_input_tokens: write > 0 ? write : undefined,
    reasoning_tokens: reasoning > 0 ? reasoning : undefined,
    total_tokens: count(t.total),
    // 0 is also what it writes for a model it has no prices for.
    cost_usd: cost !== undefined && cost > 0 ? cost : undefined,
  });
}
