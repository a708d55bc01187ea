import {
  ANSWERED_BY,
  type AnsweredBy,
  type ErrorInfo,
  type EventPayloads,
  type InputAnswer,
} from "../../canonical/events.js";
import { answerLeavesPending } from "../../core/canonical-stream.js";
import { pastedValue } from "../../core/shell-word.js";
import { asText, defined, isObject, nonEmpty, objectOrEmpty } from "../../core/fields.js";
import { JSON_RPC_ERROR, JSON_RPC_RESULT } from "../../core/native-line.js";
import {
  draft,
  passThrough,
  type Draft,
  type NativeEvent,
  type Outcome,
  type StreamEndFacts,
  type Translator,
  type TranslatorConclusion,
} from "../../core/translator.js";
import {
  agentInfoOf,
  quirksOf,
  TEXT_ERROR,
  TEXT_NOTICE,
  WARNING_CHUNK,
  TEXT_RETRY,
  RETRY_NOTICE,
  RETRY_END_NOTICE,
  type AgentInfo,
  type AgentQuirks,
} from "./agents.js";
import { authMethodsText } from "./auth.js";
import { bodyTextError, rpcError, textError, type AcpError } from "./errors.js";
import { acpType } from "./message.js";
import {
  PERMISSION_ANSWERED,
  QUESTION_ANSWERED,
  RULES_REFUSED,
  SESSION_LOAD,
  TURN_HALTED,
  TURN_STOPPED,
  requestIdOf,
  toldByDriver,
} from "../../policy/permission-answer.js";
import { acpUsage, geminiQuotaUsage, reportedCostUsd } from "./usage.js";
import { AcpCompactions } from "./compaction.js";
import { questionAnswered, questionRequested } from "../../policy/question-events.js";

/** One tool call as its updates told it so far (ACP sends a call's fields in pieces). */
interface Call {
  name: string;
  args: Record<string, unknown>;
  started: boolean;
  /** A permission request named it. */
  asked: boolean;
  /** It ran (in_progress, completed) though agentstream refused it or answered its request cancelled. */
  unapproved: boolean;
}

type Open = { id: string; text: string };

/**
 * An ACP agent's stdout, as written (docs/protocols/acp.md): the responses to the client's
 * requests (initialize, session/new, session/prompt), `session/update` notifications and the
 * agent's own requests (session/request_permission; others, unknown here, kept whole). What the
 * client sent is not in it. The prompt's response (or error) ends the run. The agent is known
 * from its `initialize` response's `agentInfo`, and so are its quirks (an error told only in text).
 */
export class AcpTranslator implements Translator {
  readonly protocol = "acp";
  started = false;

  private agent: AgentInfo | undefined;
  private quirks: AgentQuirks = quirksOf(undefined);
  private protocolVersion: number | undefined;
  /** Its initialize said agentCapabilities.loadSession: a run that stopped can be resumed (session/load). */
  private canLoad = false;
  /** The client is loading a session: the agent replays its history, which is not this run's (kept as data). */
  private loading = false;
  /** The auth methods `initialize` offered, as an auth failure names them. */
  private authMethods: string | undefined;
  private sessionId: string | undefined;
  private model: string | undefined;
  private turn = 0;
  private turnOpen = false;
  /** A tool result came in the open turn: the model's next words are a new call. */
  private resultsIn = false;
  private messages = 0;
  private message: Open | undefined;
  private thought: Open | undefined;
  /** The last message's text, null once a tool call came after it. */
  private answer: string | null = null;
  /** Calls not finished yet, by id. */
  private readonly calls = new Map<string, Call>();
  private unnamedCalls = 0;
  /** A call failed after a permission request named it: in a cancelled turn, the approval it waits for. */
  private failedAfterAsking = false;
  /** The agent asked a question (elicitation/create) of no call: in a cancelled turn, the answer it waits for. */
  private questionAsked = false;
  /** A question was left unanswered (answered cancel, or asked in a recording): the resume hint says to answer it. */
  private questionPending = false;
  /** A question was asked (a recording holds no answer: one that stops needs_input waits for it). */
  private questionSeen = false;
  /** The calls agentstream refused or whose request it answered cancelled: one the agent runs anyway ran unapproved. */
  private readonly refused = new Set<string>();
  /**
   * agentstream left a request waiting for the user (input.answered by default, or cancelled): the run ends
   * needs_input, however the agent then ends its turn (it may run the call anyway and say end_turn).
   */
  private awaitingInput = false;
  /**
   * The driver told its answers (a live run): a turn cancelled after a request is then what the answers
   * say, never guessed as needs_input as a recording's must be (it holds no answer).
   */
  private answersTold = false;
  /** Codex's adapter said its thread failed (systemError): its next message chunk is the error's words. */
  private codexFailed = false;
  /** agentstream rejected a call (a rule, the callback): a turn the agent then ends cancelled ended on that answer. */
  private rejected = false;
  private outcome: Outcome | undefined;
  /** The driver cancelled the turn for the run's stop (TURN_STOPPED), not for a refusal. */
  private stopped = false;
  /** An error told in message text (Copilot CLI): the run failed, whatever the turn's stop reason. */
  private textFailure: ErrorInfo | undefined;
  private retries = 0;
  /** ACP's compaction updates, by compactionId (session.compaction is declared). */
  private readonly compactions = new AcpCompactions();
  /** Token counts came from a model call (Qwen Code's per-call usage): the prompt's own totals would count them twice. */
  private callUsage = false;
  private tokenUsage = false;
  /** A usage_update told the context fill: usage was reported, though no tokens were. */
  private contextFill = false;
  private costUsd: number | undefined;

  /**
   * Complete where tokens were reported; an agent that gives only context fill (usage_update) leaves them
   * unknown, and one that counts only its last model call (OpenCode) tells less than a turn of several spent.
   */
  get usageComplete(): boolean {
    return this.tokenUsage && !(this.quirks.lastCallUsage && this.turn > 1);
  }

  /** Only context fill was told (pi-acp): the run's usage is there, its totals unknown. */
  get usageUntold(): boolean {
    return this.contextFill && !this.tokenUsage;
  }

  translate(e: NativeEvent): Draft[] {
    // Read as the driver reads it (acpMessage): a line no JSON-RPC message is kept whole.
    const type = acpType(e);
    switch (type) {
      case undefined:
        return [passThrough(e)];
      case JSON_RPC_RESULT:
        return this.result(e);
      case JSON_RPC_ERROR:
        return this.rpcFailure(e);
      case "session/update":
        return this.update(e);
      case "session/request_permission":
        return this.permission(e);
      case PERMISSION_ANSWERED:
        return toldByDriver(e) ? this.answered(e) : [passThrough(e)];
      case "elicitation/create":
        return this.question(e);
      case QUESTION_ANSWERED:
        return toldByDriver(e) ? this.questionAnswered(e) : [passThrough(e)];
      case SESSION_LOAD:
        return toldByDriver(e) ? this.sessionLoad(e) : [passThrough(e)];
      case RULES_REFUSED:
        return toldByDriver(e) ? this.rulesRefused(e) : [passThrough(e)];
      case TURN_STOPPED:
        if (!toldByDriver(e)) return [passThrough(e)];
        this.stopped = true;
        return [];
      case TURN_HALTED:
        if (!toldByDriver(e)) return [passThrough(e)];
        // The turn cancelled for a request no one decided never ended: the run ends as that refusal says.
        if (this.awaitingInput) this.outcome ??= this.waiting();
        return [];
      default:
        // Requests and notifications it does not serve (fs/*, terminal/*, extensions such as Qwen Code's
        // craft/drainMidTurnQueue, Claude's adapter's _auth/status_update): kept whole.
        return [passThrough(e)];
    }
  }

  finish(_end: StreamEndFacts): TranslatorConclusion {
    // A stream cut before the prompt's response: the core decides from how it ended. Words after the
    // response (the outcome is known by then) are closed too, never left a delta without its message.
    const drafts = this.closeAll(this.outcome ? "end" : "error");
    // An agent that loads sessions: a run that stopped for an approval goes on with --resume (session/load).
    const session = this.sessionId === undefined ? "" : pastedValue(this.sessionId, "SESSION");
    const resume =
      this.canLoad && this.sessionId !== undefined && this.outcome?.status === "needs_input"
        ? {
            session_id: this.sessionId,
            hint:
              this.questionPending || (this.questionSeen && !this.answersTold)
                ? `agentstream run --continue-from FILE -- ANSWER (FILE: this stream; the answer to the question as the prompt: the agent goes on with session ${session})`
                : `agentstream run --backend acp --bin AGENT --resume ${session} --allow-tool NAME -- PROMPT (allow the call, then go on with the session)`,
          }
        : undefined;
    return { drafts, outcome: this.outcome, ...(resume ? { resume } : {}) };
  }

  /** The client loads a session (--resume): it is this run's session; the agent's replay of it is kept as data. */
  private sessionLoad(e: NativeEvent): Draft[] {
    const id = asText(e.session_id);
    this.loading = e.phase === "loading";
    return this.loading && id !== "" ? this.sessionStarted(id, e.type) : [];
  }

  /** A response: told apart by what it carries, as the client's requests are not in the stream. */
  private result(e: NativeEvent): Draft[] {
    const result = objectOrEmpty(e.result);
    // The initialize response: the only one that states a protocol version, whatever its value.
    if (Object.hasOwn(result, "protocolVersion") && this.sessionId === undefined) {
      this.agent = agentInfoOf(result);
      this.quirks = quirksOf(this.agent);
      this.protocolVersion = protocolVersionOf(result.protocolVersion);
      this.authMethods = authMethodsText(result);
      this.canLoad = objectOrEmpty(result.agentCapabilities).loadSession === true;
      // A version session.started cannot hold (-1, 1.5, "1") is left out of it, and the response kept as data.
      return this.protocolVersion === undefined ? [passThrough(e)] : [];
    }
    if (typeof result.stopReason === "string") return this.promptEnd(result, e.type);
    const session = nonEmpty(result.sessionId);
    this.model =
      namedModel(nonEmpty(objectOrEmpty(result.models).currentModelId) ?? configuredModel(result.configOptions)) ??
      this.model;
    if (session !== undefined) return this.sessionStarted(session, e.type);
    // session/set_mode, authenticate, a session/new whose id came before in an update (Copilot CLI): nothing to say.
    return [];
  }

  private sessionStarted(id: string, native: string): Draft[] {
    if (this.sessionId !== undefined) return [];
    this.sessionId = id;
    // session/new was answered "authentication required", then the client authenticated: the run goes on.
    if (this.outcome?.error?.code === "auth") this.outcome = undefined;
    const payload = defined({
      session_id: id,
      protocol_version: this.protocolVersion,
      agent_info: this.agent,
    });
    return [draft("session.started", payload, { native })];
  }

  private update(e: NativeEvent): Draft[] {
    const params = objectOrEmpty(e.params);
    const update = objectOrEmpty(params.update);
    const kind = asText(update.sessionUpdate);
    // The history of a session being loaded: what was said before this run (the user's words as the prompts are kept).
    if (this.loading) return [keptWhole(e, kind)];
    // Copilot CLI names its session in an update before its session/new response.
    const session = nonEmpty(params.sessionId);
    const out = session !== undefined ? this.sessionStarted(session, kind) : [];
    this.started = true;
    switch (kind) {
      case "agent_message_chunk":
        out.push(...this.messageChunk(e, update, kind));
        break;
      case "agent_thought_chunk":
        out.push(...this.thoughtChunk(update, kind));
        break;
      case "tool_call":
      case "tool_call_update":
        out.push(...this.toolUpdate(update, kind));
        break;
      case "session_info_update": {
        const title = nonEmpty(update.title);
        if (this.quirks.codexThreadErrors) out.push(...this.codexThreadStatus(update, kind));
        out.push(title !== undefined ? draft("session.updated", { name: title }, { native: kind }) : passThrough(e));
        break;
      }
      case "config_option_update": {
        // The model chosen anew (session/set_config_option, or the agent's own switch).
        this.model = namedModel(configuredModel(update.configOptions)) ?? this.model;
        out.push(passThrough(e));
        break;
      }
      case "usage_update":
        // Context fill (used of size), not tokens spent; a cost where the agent states one (Claude's adapter).
        this.costUsd = reportedCostUsd(update) ?? this.costUsd;
        if (typeof update.used === "number") this.contextFill = true;
        // Claude's adapter names the model the usage is of in its _meta (ACP's usage_update has no field for it).
        this.model = namedModel(nonEmpty(objectOrEmpty(update._meta)["_claude/model"])) ?? this.model;
        out.push(passThrough(e));
        break;
      case "compaction_update":
      case "compaction_summary_chunk":
        out.push(...(this.compactions.update(kind, update, kind) ?? [passThrough(e)]));
        break;
      case "notice":
        out.push(this.notice(e, update, kind));
        break;
      case "user_message_chunk":
        // The user's words told back: kept whole unless prompts are left out.
        out.push(keptWhole(e, kind));
        break;
      default:
        // plan, available_commands_update, current_mode_update, config_option_update and kinds this
        // version does not know: kept whole.
        out.push(passThrough(e));
    }
    return out;
  }

  private messageChunk(event: NativeEvent, update: Record<string, unknown>, native: string): Draft[] {
    const out: Draft[] = [];
    // Qwen Code: each model call's tokens on an empty chunk's _meta.usage.
    const usage = acpUsage(objectOrEmpty(update._meta).usage, "call", this.model);
    if (usage) {
      this.callUsage = this.tokenUsage = true;
      out.push(draft("usage", usage, { native }));
    }
    const text = contentText(update.content);
    if (text === "") return out;
    // Codex's adapter: the words after its thread's systemError are the turn's error.
    if (this.codexFailed) {
      this.codexFailed = false;
      return [...out, ...this.textError(bodyTextError(text, this.quirks.dialect), native)];
    }
    // Codex's adapter: a warning is a chunk of its own with no messageId; the model's words always carry one.
    if (this.quirks.warningChunks && update.messageId === undefined && WARNING_CHUNK.test(text))
      return [...out, passThrough(event)];
    if (this.quirks.errorsInText && this.message === undefined) {
      if (TEXT_RETRY.test(text)) return [...out, ...this.textRetry(text, native)];
      if (TEXT_ERROR.test(text)) return [...out, ...this.textError(textError(text, this.quirks.dialect), native)];
      // "Info: Operation cancelled by user" after a rejected call: a notice, not the answer.
      if (TEXT_NOTICE.test(text)) return [...out, passThrough(event)];
    }
    if (this.quirks.retryNotices) {
      const retry = RETRY_NOTICE.exec(text);
      if (retry) return [...out, this.noticeRetry(text, retry, native)];
      if (RETRY_END_NOTICE.test(text))
        return [...out, draft("retry.completed", { scope: "request", attempt: this.retries }, { native })];
    }
    out.push(...this.turnStart(native), ...this.closeThought(native));
    this.message ??= { id: `msg_${++this.messages}`, text: "" };
    this.message.text += text;
    out.push(draft("message.delta", { message_id: this.message.id, text }, { native }));
    return out;
  }

  private thoughtChunk(update: Record<string, unknown>, native: string): Draft[] {
    const text = contentText(update.content);
    if (text === "") return [];
    const out = [...this.turnStart(native), ...this.closeMessage(native)];
    this.thought ??= { id: `thought_${++this.messages}`, text: "" };
    this.thought.text += text;
    out.push(draft("reasoning.delta", { message_id: this.thought.id, text }, { native }));
    return out;
  }

  /** Codex's adapter: a retry (`_meta.codex.error`, willRetry) and a failed turn (threadStatus systemError) in its session info. */
  private codexThreadStatus(update: Record<string, unknown>, native: string): Draft[] {
    const codex = objectOrEmpty(objectOrEmpty(update._meta).codex);
    if (objectOrEmpty(codex.threadStatus).type === "systemError") this.codexFailed = true;
    const error = objectOrEmpty(codex.error);
    if (error.willRetry !== true) return [];
    const said = nonEmpty(error.additionalDetails) ?? nonEmpty(error.message) ?? "a failed model call";
    return [
      draft("retry.started", { scope: "request", attempt: ++this.retries, delay_ms: 0, error: said }, { native }),
    ];
  }

  /**
   * ACP's `notice` (session.notices is declared): information for the user that is no part of the session's
   * history nor of the answer, kept whole (backend.event), whatever its severity; one whose title reads as a retry
   * the agent starts ("Retrying (attempt 1/3, waiting 2s)...") is that retry (retry.started).
   */
  private notice(event: NativeEvent, update: Record<string, unknown>, native: string): Draft {
    const title = asText(update.title);
    const retry = RETRY_NOTICE.exec(title);
    return retry ? this.noticeRetry(title, retry, native) : passThrough(event);
  }

  /** Copilot CLI: "Info: Request failed due to a transient API error. Retrying..." */
  private textRetry(text: string, native: string): Draft[] {
    return [
      draft(
        "retry.started",
        // It says neither the delay nor the limit.
        { scope: "request", attempt: ++this.retries, delay_ms: 0, error: text },
        { native },
      ),
    ];
  }

  /** pi-acp: "Retrying (attempt 1/2, waiting 1s)..." (pi says not what failed). */
  private noticeRetry(text: string, retry: RegExpExecArray, native: string): Draft {
    const [, attempt, max, seconds] = retry;
    this.retries = attempt !== undefined ? Number(attempt) : this.retries + 1;
    return draft(
      "retry.started",
      {
        scope: "request",
        attempt: this.retries,
        ...(max !== undefined ? { max_attempts: Number(max) } : {}),
        delay_ms: seconds !== undefined ? Number(seconds) * 1000 : 0,
        error: text,
      },
      { native },
    );
  }

  private textError(error: AcpError, native: string): Draft[] {
    this.textFailure ??= { code: error.code, message: error.message, retryable: error.retryable };
    return [draft("error", error, { native })];
  }

  /**
   * tool_call and tool_call_update carry a call's fields in pieces: OpenCode's first says only the
   * tool, its input comes next; Gemini CLI sends none before its permission request. The call starts
   * once it runs (or a permission request names it), with the input known by then, and completes
   * with its final status.
   */
  private toolUpdate(update: Record<string, unknown>, native: string): Draft[] {
    const id = nonEmpty(update.toolCallId) ?? `call_${++this.unnamedCalls}`;
    const call = this.call(id, update);
    const out: Draft[] = [];
    const status = asText(update.status);
    if (this.refused.has(id) && (status === "in_progress" || status === "completed")) call.unapproved = true;
    // A pending call may still lack its input (OpenCode's first says only the working directory).
    if (!call.started && status !== "pending" && status !== "") out.push(...this.startCall(id, call, native));
    if (status !== "completed" && status !== "failed") return out;
    // Finished calls are not kept (a stream may hold many thousands).
    this.calls.delete(id);
    this.refused.delete(id);
    this.resultsIn = true;
    // A call that failed after its permission request may have been refused (or the request cancelled).
    if (status === "failed" && call.asked) this.failedAfterAsking = true;
    out.push(
      draft(
        "tool.completed",
        {
          tool_call_id: id,
          name: call.name,
          status: status === "completed" ? "succeeded" : "failed",
          output: toolOutput(update),
          ...(call.unapproved ? { unapproved: true as const } : {}),
        },
        { native },
      ),
    );
    return out;
  }

  /**
   * Calls the agent began running unapproved and never finished by the turn's end: closed here, still marked, so
   * that the run's outcome knows they ran (src/core/outcome.ts: no refused call ends in success).
   */
  private closeUnapproved(native: string): Draft[] {
    const out: Draft[] = [];
    for (const [id, call] of this.calls) {
      if (!call.unapproved) continue;
      this.calls.delete(id);
      this.refused.delete(id);
      const payload = { tool_call_id: id, name: call.name, status: "cancelled" as const, output: "" };
      out.push(draft("tool.completed", { ...payload, reason: "run_ended", unapproved: true }, { native }));
    }
    return out;
  }

  /** The call as known so far, with what this update adds. */
  private call(id: string, fields: Record<string, unknown>): Call {
    let call = this.calls.get(id);
    if (!call) {
      call = { name: "tool", args: {}, started: false, asked: false, unapproved: false };
      this.calls.set(id, call);
    }
    const named = toolName(fields);
    if (named !== undefined && (call.name === "tool" || !call.started)) call.name = named;
    if (isObject(fields.rawInput) && Object.keys(fields.rawInput).length > 0 && !call.started)
      call.args = { ...call.args, ...fields.rawInput };
    return call;
  }

  private startCall(id: string, call: Call, native: string): Draft[] {
    call.started = true;
    const out = [...this.turnStart(native), ...this.closeMessage(native), ...this.closeThought(native)];
    // Words before a tool call are narration, not the answer.
    this.answer = null;
    out.push(draft("tool.started", { tool_call_id: id, name: call.name, args: call.args }, { native }));
    return out;
  }

  /** session/request_permission: the agent asks the client; the answer is not on its stdout. */
  private permission(e: NativeEvent): Draft[] {
    const params = objectOrEmpty(e.params);
    const toolCall = objectOrEmpty(params.toolCall);
    const id = nonEmpty(toolCall.toolCallId) ?? `call_${++this.unnamedCalls}`;
    const native = e.type;
    const call = this.call(id, toolCall);
    // Gemini CLI: the request is the first sight of the call.
    const out = call.started ? [] : this.startCall(id, call, native);
    call.asked = true;
    const options = Array.isArray(params.options) ? params.options.filter(isObject) : [];
    const action = {
      name: call.name,
      args: call.args,
      description: nonEmpty(toolCall.title) ?? `${call.name} needs permission`,
      allowed_decisions: options.map((o) => asText(o.kind)).filter((kind) => kind !== ""),
    };
    const requestId = requestIdOf(e.id) ?? id;
    out.push(
      draft(
        "input.requested",
        { request_id: requestId, kind: "approval", tool_call_id: id, actions: [action] },
        { native },
      ),
    );
    return out;
  }

  /** elicitation/create: the agent asks the client a question (a form it reads), else kept whole. */
  private question(e: NativeEvent): Draft[] {
    const asked = questionRequested(e);
    if (asked === undefined) return [passThrough(e)];
    this.questionSeen = true;
    const call = asked.payload.tool_call_id === undefined ? undefined : this.calls.get(asked.payload.tool_call_id);
    if (call) call.asked = true;
    else this.questionAsked = true;
    return [...this.closeAll(e.type), asked];
  }

  /** agentstream's answer to a question, as the driver told it: a cancelled one leaves the run waiting for it. */
  private questionAnswered(e: NativeEvent): Draft[] {
    this.answersTold = true;
    const d = questionAnswered(e);
    if (answerLeavesPending(d.payload)) {
      this.awaitingInput = true;
      this.questionPending = true;
      if (this.outcome !== undefined) this.outcome = this.waiting();
    }
    return [d];
  }

  /** The driver refused the run's rules to this agent before prompting it: agentstream was called wrongly (exit 2). */
  private rulesRefused(e: NativeEvent): Draft[] {
    const error: ErrorInfo = { code: "usage", message: asText(e.message), retryable: false };
    this.outcome ??= { status: "failed", error, resultText: null };
    return [draft("error", error, { native: e.type })];
  }

  /** The prompt's response: the turn ended, and how. */
  private promptEnd(result: Record<string, unknown>, native: string): Draft[] {
    const out = this.closeAll(native);
    // Calls announced but never run: shown, so that the run's end closes them.
    for (const [id, call] of this.calls) if (!call.started) out.push(...this.startCall(id, call, native));
    out.push(...this.closeUnapproved(native));
    const stopReason = asText(result.stopReason);
    const usage = this.callUsage ? undefined : promptUsage(result, this.model, this.costUsd);
    if (usage) {
      this.tokenUsage = true;
      out.push(draft("usage", usage, { native }));
    }
    if (this.turnOpen) {
      this.turnOpen = false;
      out.push(draft("turn.completed", { turn: this.turn, stop_reason: stopReason }, { native }));
    }
    this.outcome ??= this.awaitingInput
      ? this.waiting()
      : this.stopped
        ? this.stopIsOurs(stopReason)
        : this.stopOutcome(stopReason);
    return out;
  }

  /**
   * The run was stopped before the turn ended (a signal, --timeout, an abort, a limit: session/cancel sent):
   * the turn ends cancelled whatever stop reason the agent gives (an agent that answers the cancel with
   * end_turn does not overturn the stop); the core turns it into the stop's status and exit code.
   */
  private stopIsOurs(stopReason: string): Outcome {
    const told = stopReason === "cancelled" ? "" : ` (the agent answered stopReason ${JSON.stringify(stopReason)})`;
    return {
      status: "cancelled",
      error: {
        code: "cancelled",
        message: `the run was stopped: its turn was cancelled (session/cancel)${told}`,
        retryable: false,
      },
      resultText: this.answer === "" ? null : this.answer,
    };
  }

  /** agentstream's answer, as the driver told it: a call it refused, or left waiting for the user. */
  private answered(e: NativeEvent): Draft[] {
    this.answersTold = true;
    // Answered cancelled by the run's stop while the callback decided: the call must not run, the stop ends the run.
    if (e.stopped === true) {
      const id = nonEmpty(e.tool_call_id);
      if (id !== undefined) this.refused.add(id);
      return [];
    }
    const d = answered(e);
    const waits = answerLeavesPending(d.payload);
    this.awaitingInput ||= waits;
    // Told after the turn's end (the request and the prompt's response came in one read): it still decides.
    if (waits && this.outcome !== undefined) this.outcome = this.waiting();
    const id = d.payload.tool_call_id;
    if (id !== undefined && (waits || d.payload.decision === "reject")) this.refused.add(id);
    if (!waits && d.payload.decision === "reject") this.rejected = true;
    return [d];
  }

  /** The run waits for an approval agentstream did not give: whatever the agent said after, it needs input. */
  private waiting(): Outcome {
    return { status: "needs_input", resultText: this.answer === "" ? null : this.answer };
  }

  private stopOutcome(stopReason: string): Outcome {
    const answer = this.answer === "" ? null : this.answer;
    if (this.textFailure) return { status: "failed", error: this.textFailure, resultText: null };
    switch (stopReason) {
      case "end_turn":
        // No model call was seen to answer at all: an agent that fails in silence failed.
        // Retried and still silent (pi-acp): pi retries only a failure it holds transient (overloaded, rate
        // limit, 5xx, a dropped stream), and its notices do not say which.
        if (this.quirks.silentFailures && this.turn === 0 && this.retries > 0)
          return {
            status: "failed",
            error: {
              code: "unknown",
              message: `${this.agent?.name} ended the turn without a word after ${this.retries} retries of a failed model call (its retry notices do not say what failed)`,
              retryable: true,
            },
            resultText: null,
          };
        if (this.quirks.silentFailures && this.turn === 0)
          return failed(
            "unknown",
            `${this.agent?.name} ended the turn without a word or a tool call: it does not pass on a failed model call (a provider's error ends a turn this way)`,
          );
        return { status: "succeeded", resultText: answer };
      case "cancelled":
        // Read from a recording, cancelled after a permission request whose call never ran: it needs an approval
        // (the client had no rule for it; agents mark the call failed once the request is answered cancelled).
        if (
          !this.answersTold &&
          (this.failedAfterAsking || this.questionAsked || [...this.calls.values()].some((c) => c.asked))
        )
          return { status: "needs_input", resultText: answer };
        // Not stopped by agentstream, it ended the turn on a call agentstream rejected (Codex's adapter: its only
        // reject option, "No, and tell Codex what to do differently", aborts the turn): the answer was given and
        // this is the agent's own end, as an agent that ends its turn end_turn after a rejection.
        if (this.rejected) return { status: "succeeded", resultText: answer };
        return {
          status: "cancelled",
          error: { code: "cancelled", message: "the turn was cancelled (session/cancel)", retryable: false },
          resultText: answer,
        };
      case "max_tokens":
        return failed("context_length", "the model reached its output token limit (stopReason max_tokens)");
      case "max_turn_requests":
        return failed("budget", "the agent reached its limit of model requests in one turn (max_turn_requests)");
      case "refusal":
        return failed("provider", "the agent refused to go on (stopReason refusal)");
      default:
        return failed("backend_protocol", `the turn ended with an unknown stopReason ${JSON.stringify(stopReason)}`);
    }
  }

  /** A JSON-RPC error: the prompt's (or an earlier request's, before the session started) fails the run. */
  private rpcFailure(e: NativeEvent): Draft[] {
    const error = rpcError(e.error, this.quirks.dialect);
    // The agent wants a login agentstream cannot give (before the session, or at the prompt: Claude's adapter). Its
    // methods say how (src/backends/acp/auth.ts).
    if (error.code === "auth") {
      const agent = this.agent?.name ?? "the agent";
      error.message = `${error.message} (${this.authMethods === undefined ? `${agent} offers no method: log in with it, or give it its API key in the environment` : `${agent} offers: ${this.authMethods}`})`;
    }
    const out = [...this.closeAll("error"), ...this.closeUnapproved(e.type), draft("error", error, { native: e.type })];
    if (this.turnOpen) {
      this.turnOpen = false;
      out.push(draft("turn.completed", { turn: this.turn, stop_reason: "error" }, { native: e.type }));
    }
    this.outcome ??= this.awaitingInput
      ? this.waiting()
      : {
          status: "failed",
          error: { code: error.code, message: error.message, retryable: error.retryable },
          resultText: null,
        };
    return out;
  }

  /**
   * Turns are made up, as for Gemini CLI's stream: one model call and the tool calls it makes. ACP
   * does not mark model calls; the model's next words or calls after a tool result are a new one.
   */
  private turnStart(native: string): Draft[] {
    if (this.outcome) return [];
    const out: Draft[] = [];
    if (this.turnOpen && !this.resultsIn) return out;
    if (this.turnOpen) out.push(draft("turn.completed", { turn: this.turn, stop_reason: "tool_use" }, { native }));
    this.turnOpen = true;
    this.resultsIn = false;
    out.push(draft("turn.started", { turn: ++this.turn }, { native }));
    return out;
  }

  private closeAll(native: string): Draft[] {
    return [...this.closeThought(native), ...this.closeMessage(native)];
  }

  private closeMessage(native: string): Draft[] {
    const open = this.message;
    if (!open) return [];
    this.message = undefined;
    this.answer = open.text;
    return [
      draft("message.completed", defined({ message_id: open.id, text: open.text, model: this.model }), { native }),
    ];
  }

  private closeThought(native: string): Draft[] {
    const open = this.thought;
    if (!open) return [];
    this.thought = undefined;
    return [draft("reasoning.completed", { message_id: open.id, text: open.text }, { native })];
  }
}

/** agentstream's answer to a permission request, as the driver told it (never in a recording). */
function answered(e: NativeEvent): Draft<"input.answered"> {
  const decision: InputAnswer["decision"] = e.decision === "allow" ? "allow" : "reject";
  const by: AnsweredBy = (ANSWERED_BY as readonly unknown[]).includes(e.by) ? (e.by as AnsweredBy) : "default";
  const payload = defined<InputAnswer & Record<string, unknown>>({
    request_id: asText(e.request_id) || "request",
    tool_call_id: nonEmpty(e.tool_call_id),
    decision,
    option_id: nonEmpty(e.option_id),
    by,
    rule: nonEmpty(e.rule),
  });
  return draft("input.answered", payload, { native: e.type });
}

function failed(code: ErrorInfo["code"], message: string): Outcome {
  return { status: "failed", error: { code, message, retryable: false }, resultText: null };
}

/** An update kept whole (backend.event); a user_message_chunk marked as the user's words, left out with the prompts. */
function keptWhole(e: NativeEvent, kind: string | undefined): Draft {
  return kind === "user_message_chunk" ? { ...passThrough(e), userWords: true } : passThrough(e);
}

/** The prompt response's tokens: ACP's `usage` (OpenCode, Copilot CLI), or Gemini CLI's `_meta.quota`. */
function promptUsage(
  result: Record<string, unknown>,
  model: string | undefined,
  costUsd: number | undefined,
): EventPayloads["usage"] | undefined {
  return acpUsage(result.usage, "run", model, costUsd) ?? geminiQuotaUsage(result._meta, model);
}

/** A content block's text (ContentBlock of type text); other blocks (images, resources) carry none. */
function contentText(content: unknown): string {
  const block = objectOrEmpty(content);
  return block.type === "text" ? asText(block.text) : "";
}

/** The tool's name: the agent's own where it states one (Qwen Code's _meta.toolName), else its kind, else its title. */
/** ACP's protocol version: a whole number from 0 (an unsigned 16-bit one in the protocol); anything else is none. */
function protocolVersionOf(value: unknown): number | undefined {
  // + 0: -0 is 0.
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) + 0 : undefined;
}

function toolName(fields: Record<string, unknown>): string | undefined {
  return nonEmpty(objectOrEmpty(fields._meta).toolName) ?? nonEmpty(fields.kind) ?? nonEmpty(fields.title);
}

/** What a finished call gave back: its rawOutput's text, else the text of its content blocks. */
function toolOutput(update: Record<string, unknown>): string {
  const raw = update.rawOutput;
  if (typeof raw === "string") return raw;
  const rawText = nonEmpty(objectOrEmpty(raw).content) ?? nonEmpty(objectOrEmpty(raw).output);
  if (rawText !== undefined) return rawText;
  const blocks = Array.isArray(update.content) ? update.content.filter(isObject) : [];
  const texts = blocks.map((b) => contentText(b.content)).filter((t) => t !== "");
  if (texts.length > 0) return texts.join("\n");
  return raw === undefined ? "" : asText(raw);
}

/**
 * The model as the price table names it. Qwen Code's ids read "$runtime|openai|fake-model(openai)": the
 * part before the provider; OpenCode's "provider/model": the part after it; Codex's adapter's
 * "gpt-5[medium]": the part before the reasoning effort.
 */
function namedModel(id: string | undefined): string | undefined {
  if (id === undefined) return undefined;
  const last = id.slice(id.lastIndexOf("|") + 1).replace(/(\([^)]*\)|\[[^\]]*\])$/, "");
  return last.slice(last.lastIndexOf("/") + 1) || id;
}

/** The current value of the session's config option of category "model" (OpenCode names its model only there). */
function configuredModel(options: unknown): string | undefined {
  if (!Array.isArray(options)) return undefined;
  const model = options.filter(isObject).find((o) => o.category === "model");
  return model === undefined ? undefined : nonEmpty(model.currentValue);
}
