import type { ErrorInfo } from "../../canonical/events.js";
import { pastedValue } from "../../core/shell-word.js";
import { classifyError } from "../classification.js";
import { asText, count, defined, isObject, nativeTime as timeOf, nonEmpty, objectOrEmpty } from "../../core/fields.js";
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
import { usageFileDrafts } from "./usage-file.js";
import { ownTable } from "../../core/own-table.js";

/** A tool error's code when its permission was refused (no one to approve it, or a deny rule). */
const DENIED = "denied";
/** How Copilot words a refusal by a --deny-tool rule: the user's answer, not a request waiting for one. */
const DENY_RULE = /^Permission to run this tool was denied due to the following rules/;
/** The permission kind (as --allow-tool names it) of its tools that need one. */
const PERMISSION_KIND = ownTable({ bash: "shell", edit: "write", create: "write", web_fetch: "url" });

// Written by Copilot for itself, noise to a reader: kept out of the stream (docs/protocols/copilot.md).
const DROPPED = new Set([
  // Repeated for every tick of a running shell (dozens per command).
  "session.background_tasks_changed",
  // The tool call's arguments as they stream; tool.execution_start carries them whole.
  "assistant.tool_call_delta",
  // What tool.shell_output and tool.execution_complete say too.
  "tool.execution_partial_result",
  // A message begins: its deltas and assistant.message say the rest.
  "assistant.message_start",
]);

/**
 * GitHub Copilot CLI `copilot -p PROMPT --output-format json`
 * (docs/protocols/copilot.md): one session event per line, `{type, data, id,
 * timestamp, ephemeral?}`, and a last `result` line with the exit code. Token
 * counts are not on stdout: they come from the file `--usage-output-file`
 * names, handed to finish (StreamEndFacts.usageFile); without it usage is unknown.
 */
export class CopilotTranslator implements Translator {
  readonly protocol = "copilot";
  started = false;

  private turn = 0;
  private turnOpen = false;
  private model: string | undefined;
  /** The text of the last message, null once a tool call or a retry came after it. */
  private lastText: string | null = null;
  /** Reasoning streamed for the message being written: closed before it, as the model thought first. */
  private reasoning: { id: string; text: string } | undefined;
  private readonly reasoningDone = new Set<string>();
  private readonly toolNames = new Map<string, string>();
  /** Each open call's arguments: what a refused call asks to run. */
  private readonly toolArgs = new Map<string, Record<string, unknown>>();
  private readonly refused = new RefusedCalls();
  /** The last failed model call: what a retry notice and the fatal error are about. */
  private failure: { status?: number; message: string; transport: boolean } | undefined;
  private retry: { attempt: number } | undefined;
  private lastError: ErrorInfo | undefined;
  private sessionId: string | undefined;
  private outcome: Outcome | undefined;
  /** assistant.usage lines came (per call): the usage file would count them twice. */
  private usageOnStdout = false;
  private usageFromFile = false;

  /** Usage is complete only where the usage file (or per-call usage lines) said it. */
  get usageComplete(): boolean {
    return this.usageOnStdout || this.usageFromFile;
  }

  /** Every line carries the time it was written. */
  nativeTime(e: NativeEvent): string | undefined {
    return timeOf(e.timestamp);
  }

  translate(e: NativeEvent): Draft[] {
    const native = e.type;
    const data = objectOrEmpty(e.data);
    if (native === "assistant.turn_start") this.started = true;
    if (DROPPED.has(native)) return [];
    switch (native) {
      case "session.start": {
        this.sessionId = nonEmpty(data.sessionId) ?? this.sessionId;
        this.model = nonEmpty(data.selectedModel) ?? this.model;
        if (!this.sessionId) return [];
        // The release that wrote the stream (ATIF's agent.version).
        const version = nonEmpty(data.copilotVersion);
        const header = version === undefined ? {} : { agent_info: { name: "copilot-cli", version } };
        return [draft("session.started", { session_id: this.sessionId, ...header }, { native })];
      }
      case "user.message": {
        // The prompt as the user wrote it (transformedContent adds Copilot's own context).
        const text = asText(data.content);
        return text === "" ? [] : [draft("prompt.submitted", { text }, { native })];
      }
      case "assistant.turn_start":
        return [...this.closeTurn(native), ...this.openTurn(native)];
      case "assistant.turn_end":
        return this.closeTurn(native);
      case "model.call_start":
        this.model = nonEmpty(data.model) ?? this.model;
        return [];
      case "assistant.message_delta": {
        const text = asText(data.deltaContent);
        if (text === "") return [];
        return [...this.openTurn(native), draft("message.delta", { message_id: messageId(data), text }, { native })];
      }
      case "assistant.reasoning_delta": {
        const id = nonEmpty(data.reasoningId) ?? "reasoning";
        const text = asText(data.deltaContent);
        if (this.reasoning?.id !== id) this.reasoning = { id, text: "" };
        this.reasoning.text += text;
        return text === "" ? [] : [draft("reasoning.delta", { message_id: id, text }, { native })];
      }
      case "assistant.reasoning":
        return this.reasoningCompleted(nonEmpty(data.reasoningId) ?? "reasoning", asText(data.content), native);
      case "assistant.message":
        return this.message(data, native);
      case "tool.execution_start":
        return this.toolStarted(data, native);
      case "tool.execution_complete":
        return this.toolCompleted(data, native);
      case "tool.shell_output": {
        const id = nonEmpty(data.toolCallId);
        const output = asText(data.text);
        if (!id || output === "") return [passThrough(e)];
        return [
          draft("tool.updated", { tool_call_id: id, name: this.toolNames.get(id) ?? "tool", output }, { native }),
        ];
      }
      case "model.call_failure":
        this.failure = {
          status: count(data.statusCode),
          message: failureMessage(data),
          transport: data.failureKind === "transport",
        };
        return [passThrough(e)];
      case "session.info":
        // A retry notice for people ("Retrying..."): assistant.turn_retry said it.
        return data.infoType === "model_retry" ? [] : [passThrough(e)];
      case "assistant.turn_retry":
        return this.retryStarted(data, native);
      case "model.call_finished":
        return data.outcome === "success" ? this.retryDone(native) : [passThrough(e)];
      case "assistant.usage":
        return this.callUsage(data, native);
      case "session.error":
        return this.sessionError(data, native);
      case "abort":
        // Written when the turn was stopped (SIGINT): often the last line, as the result may never come.
        this.outcome = {
          status: "cancelled",
          error: {
            code: "cancelled",
            message: `aborted (${asText(data.reason) || "no reason given"})`,
            retryable: false,
          },
          resultText: null,
        };
        return [passThrough(e)];
      case "result":
        return this.result(e);
      default:
        return [passThrough(e)];
    }
  }

  finish(end: StreamEndFacts): TranslatorConclusion {
    const drafts = this.closeTurn("result");
    if (end.usageFile !== undefined && !this.usageOnStdout) {
      const usage = usageFileDrafts(end.usageFile);
      this.usageFromFile = usage !== undefined;
      drafts.push(...(usage ?? []));
    }
    // A refused call left the work undone: the run needs its approval, not a silent success.
    const outcome = this.refused.settle(this.outcome);
    const resume =
      this.refused.resume(
        outcome,
        this.sessionId,
        (tools, session) =>
          `copilot --resume=${pastedValue(session, "SESSION")} ${tools.map((tool) => `--allow-tool=${pastedValue(PERMISSION_KIND[tool] ?? tool, "NAME")}`).join(" ")} -p PROMPT (allow what was refused, then go on)`,
      ) ??
      (this.sessionId && outcome?.status !== "succeeded"
        ? {
            session_id: this.sessionId,
            hint: `copilot --resume=${pastedValue(this.sessionId, "SESSION")} -p PROMPT (go on with the session)`,
          }
        : undefined);
    return { drafts, outcome, ...(resume ? { resume } : {}) };
  }

  private openTurn(native: string): Draft[] {
    if (this.turnOpen) return [];
    this.turnOpen = true;
    return [draft("turn.started", { turn: ++this.turn }, { native })];
  }

  private closeTurn(native: string): Draft[] {
    if (!this.turnOpen) return [];
    this.turnOpen = false;
    return [draft("turn.completed", { turn: this.turn }, { native })];
  }

  private reasoningCompleted(id: string, text: string, native: string): Draft[] {
    if (this.reasoning?.id === id) this.reasoning = undefined;
    // Copilot writes the whole reasoning after the message it led to; it was closed before that message.
    if (this.reasoningDone.delete(id) || text === "") return [];
    return [draft("reasoning.completed", { message_id: id, text }, { native })];
  }

  private message(data: Record<string, unknown>, native: string): Draft[] {
    const out = this.openTurn(native);
    const open = this.reasoning;
    if (open) {
      const text = nonEmpty(data.reasoningText) ?? open.text;
      out.push(...this.reasoningCompleted(open.id, text, native));
      this.reasoningDone.add(open.id);
    }
    const text = asText(data.content);
    const calls = Array.isArray(data.toolRequests) ? data.toolRequests.length : 0;
    if (text !== "") {
      out.push(
        draft(
          "message.completed",
          defined({ message_id: messageId(data), text, model: nonEmpty(data.model) ?? this.model }),
          { native },
        ),
      );
    }
    // Words before a tool call are narration, not the answer.
    this.lastText = calls > 0 ? null : text === "" ? this.lastText : text;
    return out;
  }

  private toolStarted(data: Record<string, unknown>, native: string): Draft[] {
    const id = nonEmpty(data.toolCallId) ?? `tool_${this.toolNames.size + 1}`;
    const name = nonEmpty(data.toolName) ?? "tool";
    this.toolNames.set(id, name);
    this.toolArgs.set(id, objectOrEmpty(data.arguments));
    this.lastText = null;
    return [
      ...this.openTurn(native),
      draft("tool.started", { tool_call_id: id, name, args: objectOrEmpty(data.arguments) }, { native }),
    ];
  }

  private toolCompleted(data: Record<string, unknown>, native: string): Draft[] {
    const id = nonEmpty(data.toolCallId) ?? "tool";
    const name = this.toolNames.get(id) ?? nonEmpty(data.toolName) ?? "tool";
    // A call has one result: its name is not kept past it.
    this.toolNames.delete(id);
    const args = this.toolArgs.get(id) ?? {};
    this.toolArgs.delete(id);
    const result = objectOrEmpty(data.result);
    const error = objectOrEmpty(data.error);
    // A shell command that exits non-zero is a success to Copilot (the model saw its output), a failure here.
    const exit = count(objectOrEmpty(data.shellExecution).exitCode);
    const failed = data.success === false || (exit !== undefined && exit !== 0);
    const output = nonEmpty(result.content) ?? nonEmpty(error.message) ?? "";
    // Refused for want of an approval headless ("no interactive user response was available"): it waits for one.
    const refused =
      failed && error.code === DENIED && !DENY_RULE.test(output)
        ? [this.refused.request(id, name, args, output, native)]
        : [];
    return [
      draft("tool.completed", { tool_call_id: id, name, status: failed ? "failed" : "succeeded", output }, { native }),
      ...refused,
    ];
  }

  private retryStarted(data: Record<string, unknown>, native: string): Draft[] {
    const attempt = (this.retry?.attempt ?? 0) + 1;
    this.retry = { attempt };
    // What the failed attempt said is not the answer.
    this.lastText = null;
    const failure = this.failure;
    const error = failure
      ? `${failure.status !== undefined ? `HTTP ${failure.status}: ` : ""}${failure.message}`
      : asText(data.reason) || "the model call failed";
    // Copilot does not say how long it waits, nor how many attempts it makes (5 retries in 1.0.102).
    return [draft("retry.started", { scope: "request", attempt, delay_ms: 0, error }, { native })];
  }

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

  private callUsage(data: Record<string, unknown>, native: string): Draft[] {
    const input = count(data.inputTokens);
    const output = count(data.outputTokens);
    if (input === undefined || output === undefined) return [];
    this.usageOnStdout = true;
    return [
      draft(
        "usage",
        defined({
          scope: "call" as const,
          input_tokens: input,
          output_tokens: output,
          cache_read_input_tokens: count(data.cacheReadTokens),
          cache_write_input_tokens: count(data.cacheWriteTokens),
          reasoning_tokens: count(data.reasoningTokens),
          model: nonEmpty(data.model),
        }),
        { native },
      ),
    ];
  }

  private sessionError(data: Record<string, unknown>, native: string): Draft[] {
    const message = asText(data.message) || this.failure?.message || "the backend reported an error";
    const info = copilotError(message, count(data.statusCode) ?? this.failure?.status, this.failure?.transport);
    this.lastError = { code: info.code, message, retryable: info.retryable };
    return [
      ...this.retryDone(native, message),
      draft("error", defined({ code: info.code, message, retryable: info.retryable, http_status: info.http_status }), {
        native,
      }),
    ];
  }

  private result(e: NativeEvent): Draft[] {
    const native = e.type;
    const out = this.closeTurn(native);
    const id = nonEmpty(e.sessionId);
    if (id && id !== this.sessionId) {
      this.sessionId = id;
      out.push(draft("session.started", { session_id: id }, { native }));
    }
    const exit = count(e.exitCode);
    // After an abort Copilot may still write its result, with exit code 0: the run was stopped all the same.
    if (this.outcome?.status === "cancelled") return out;
    if (exit === 0) {
      this.outcome = { status: "succeeded", resultText: this.lastText === "" ? null : this.lastText };
      return out;
    }
    const error = this.lastError ?? {
      code: "unknown",
      message: `copilot ended with exit code ${exit ?? "unknown"}`,
      retryable: false,
    };
    this.outcome = { status: "failed", error, resultText: null };
    return out;
  }
}

function messageId(data: Record<string, unknown>): string {
  return nonEmpty(data.messageId) ?? "message";
}

/** model.call_failure's errorMessage is the provider's body (JSON) or Copilot's own wording. */
function failureMessage(data: Record<string, unknown>): string {
  const raw = asText(data.errorMessage);
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isObject(parsed)) return asText(objectOrEmpty(parsed.error).message) || asText(parsed.message) || raw;
    if (typeof parsed === "string") return parsed;
  } catch {
    // Not JSON: the text as it is.
  }
  return raw || "the model call failed";
}

/** The HTTP status where Copilot gives one (its retried message says it only at its end); a transport failure is the network's. */
function copilotError(message: string, status: number | undefined, transport: boolean | undefined) {
  if (status === undefined && transport) return { code: "network" as const, retryable: true, http_status: undefined };
  return classifyError(message, { dialect: "copilot", ...(status !== undefined ? { status } : {}) });
}
