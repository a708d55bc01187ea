import type { AgentRef, ErrorInfo, EventPayloads, InputAction, InputQuestion } from "../../canonical/events.js";
import { pastedValue } from "../../core/shell-word.js";
import { classifyError } from "../classification.js";
import { Fifo } from "../../core/fifo.js";
import {
  asText,
  bool,
  cappedMsFromSeconds,
  count,
  defined,
  isObject,
  nonEmpty,
  objectOrEmpty,
  strings,
} from "../../core/fields.js";
import {
  draft,
  passThrough,
  type Draft,
  type TranslatorConclusion,
  type NativeEvent,
  type Outcome,
  type ResumeHint,
  type StreamEndFacts,
  type Translator,
} from "../../core/translator.js";

/** Text streamed in chunks, assembled into one message at the next boundary. */
interface OpenText {
  id: string;
  chunks: string[];
}

/**
 * EvoScientist `--output-format stream-json`. Text and thinking arrive as
 * chunks with no end event: agentstream closes them at the next boundary.
 * There is no session id on stdout; the resume hint comes from stderr.
 */
export class EvosciTranslator implements Translator {
  readonly protocol = "evosci";
  readonly usageComplete = false;
  started = false;

  private messageCount = 0;
  /** Numbers ids the backend left empty (tool calls, interrupts); apart from message ids. */
  private madeUpIds = 0;
  private mainText: OpenText | undefined;
  private reasoning: OpenText | undefined;
  /** Summary chunks of the compaction in progress (open from summarization_start). */
  private summary: string[] | undefined;
  private readonly subagentTexts = new Map<string, OpenText & { agent: AgentRef }>();
  /** Main-agent text since the last main tool call: the final answer. */
  private answer = "";
  private inputRequested = false;
  /** A sub-agent stopped for input (subagent_end.paused): the run cannot have finished its work. */
  private subagentPaused = false;
  /** Set by the first terminal event (done or error); lines after it are still translated. */
  private outcome: Outcome | undefined;
  private doneSeen = false;
  /** Calls the backend sent with an empty id, by agent and tool name, in order. */
  private readonly unnamedCalls = new Map<string, Fifo<string>>();
  /** Main-agent model calls so far: a turn is one call and the tool calls it makes. */
  private turn = 0;
  private turnOpen = false;
  /** The open turn's calls came back (or a rubric verdict did): the main agent's next output is a new model call. */
  private turnAnswered = false;
  /** Sub-agent names of the panel dispatches still running, by dispatch id (their end events carry none). */
  private readonly dispatches = new Map<string, string>();
  /** The last rubric verdict of a graded run (`--rubric`); the backend's exit code follows it. */
  private verdict: RubricVerdict | undefined;
  /** Grading started or was deferred: a graded run, so done without a verdict is an unchecked one. */
  private grading: "started" | "deferred" | undefined;

  translate(e: NativeEvent): Draft[] {
    this.started = true;
    const out: Draft[] = [];
    // A retried model call takes back what it had streamed, before anything is closed.
    if (e.type === "model_retry") this.discard(e);
    // The retried call goes on with the same reasoning block.
    if (e.type !== "thinking" && e.type !== "model_retry") this.closeReasoning(out);
    if (e.type !== "summarization") this.closeSummary(out);
    if (isModelOutput(e)) this.startTurnIfNew(out);
    this.translateType(e, out);
    return out;
  }

  /** One method per native type, adding to `out`; anything newer is passed through whole. */
  private translateType(e: NativeEvent, out: Draft[]): void {
    switch (e.type) {
      case "text":
        return this.text(e, out);
      case "thinking":
        return this.thinking(e, out);
      case "tool_call":
        return this.toolCall(e, out);
      case "tool_result":
        return this.toolResult(e, out);
      case "subagent_start":
        return this.subagentStart(e, out);
      case "panel_dispatch_start":
      case "panel_dispatch_complete":
      case "panel_dispatch_error":
        return this.panelDispatch(e, out);
      case "subagent_text":
        return this.subagentText(e, out);
      case "subagent_tool_call":
        return this.subagentToolCall(e, out);
      case "subagent_tool_result":
        return this.subagentToolResult(e, out);
      case "subagent_end":
        return this.subagentEnd(e, out);
      case "model_retry":
        return this.modelRetry(e, out);
      case "usage_stats":
        return this.usageStats(e, out);
      case "tool_selection":
        return this.toolSelection(e, out);
      case "summarization_start":
        return this.summarizationStart(e, out);
      case "summarization":
        return this.summarization(e);
      case "interrupt":
        return this.interrupt(e, out);
      case "ask_user":
        return this.askUser(e, out);
      case "error":
        return this.error(e, out);
      case "rubric_evaluation_start":
      case "rubric_evaluation_deferred":
        return this.rubricEvaluationStart(e, out);
      case "rubric_evaluation":
        return this.rubricEvaluation(e, out);
      case "done":
        return this.done(e, out);
      default:
        out.push(passThrough(e));
    }
  }

  private text(e: NativeEvent, out: Draft[]): void {
    const text = asText(e.content);
    this.mainText ??= { id: this.nextMessageId(), chunks: [] };
    this.mainText.chunks.push(text);
    this.answer += text;
    out.push(draft("message.delta", { message_id: this.mainText.id, text }, { native: e.type }));
  }

  private thinking(e: NativeEvent, out: Draft[]): void {
    const text = asText(e.content);
    this.reasoning ??= { id: this.nextMessageId(), chunks: [] };
    this.reasoning.chunks.push(text);
    out.push(draft("reasoning.delta", { message_id: this.reasoning.id, text }, { native: e.type }));
  }

  private toolCall(e: NativeEvent, out: Draft[]): void {
    this.closeMainText(out);
    this.answer = "";
    out.push(this.toolStarted(e));
  }

  private toolResult(e: NativeEvent, out: Draft[]): void {
    this.answer = "";
    this.turnAnswered = true;
    out.push(this.toolCompleted(e));
  }

  private subagentStart(e: NativeEvent, out: Draft[]): void {
    out.push(
      draft(
        "subagent.started",
        defined({
          name: asText(e.name),
          instance_id: this.instanceId(e),
          tool_call_id: nonEmpty(e.tool_call_id),
          description: nonEmpty(e.description),
        }),
        { native: e.type },
      ),
    );
  }

  private subagentText(e: NativeEvent, out: Draft[]): void {
    const agent = this.agentOf(e);
    let open = this.subagentTexts.get(agent.instance_id);
    if (!open) {
      open = { id: this.nextMessageId(), chunks: [], agent };
      this.subagentTexts.set(agent.instance_id, open);
    }
    const text = asText(e.content);
    open.chunks.push(text);
    out.push(draft("message.delta", { message_id: open.id, text }, { native: e.type, agent }));
  }

  private subagentToolCall(e: NativeEvent, out: Draft[]): void {
    const agent = this.agentOf(e);
    this.closeSubagentText(agent.instance_id, out);
    out.push(this.toolStarted(e, agent));
  }

  private subagentToolResult(e: NativeEvent, out: Draft[]): void {
    out.push(this.toolCompleted(e, this.agentOf(e)));
  }

  private subagentEnd(e: NativeEvent, out: Draft[]): void {
    const instance = this.instanceId(e);
    this.closeSubagentText(instance, out);
    const paused = bool(e.paused) === true;
    if (paused) this.subagentPaused = true;
    out.push(
      draft(
        "subagent.completed",
        { name: asText(e.name), instance_id: instance, ...(paused ? { paused } : {}) },
        { native: e.type },
      ),
    );
  }

  private modelRetry(e: NativeEvent, out: Draft[]): void {
    const native = e.type;
    // EvoScientist 0.3+: retries within a time budget, so there is no max_attempts.
    const agent = nonEmpty(e.subagent) ? this.agentOf(e) : undefined;
    const retry = defined({
      scope: "request" as const,
      attempt: Math.max(count(e.attempt) ?? 1, 1),
      delay_ms: cappedMsFromSeconds(e.wait_seconds) ?? 0,
      error: asText(e.reason),
    });
    out.push(draft("retry.started", retry, agent ? { native, agent } : { native }));
  }

  private usageStats(e: NativeEvent, out: Draft[]): void {
    // Counts that are not exact integers are kept as data, not written as usage with a made-up 0.
    const [input, output] = [count(e.input_tokens), count(e.output_tokens)];
    out.push(
      input !== undefined && output !== undefined
        ? draft("usage", { scope: "call", input_tokens: input, output_tokens: output }, { native: e.type })
        : passThrough(e),
    );
  }

  private toolSelection(e: NativeEvent, out: Draft[]): void {
    out.push(draft("tools.selected", { tools: strings(e.tools) }, { native: e.type }));
  }

  private summarizationStart(e: NativeEvent, out: Draft[]): void {
    // Opened here so a compaction whose summary was not streamed still completes.
    this.summary = [];
    out.push(draft("compaction.started", {}, { native: e.type }));
  }

  private summarization(e: NativeEvent): void {
    (this.summary ??= []).push(asText(e.content));
  }

  private interrupt(e: NativeEvent, out: Draft[]): void {
    const actions = approvalActions(e);
    this.requestInput({ request_id: this.requestId(e), kind: "approval", actions }, e.type, out);
  }

  private askUser(e: NativeEvent, out: Draft[]): void {
    const request = defined({
      request_id: this.requestId(e),
      kind: "question" as const,
      tool_call_id: nonEmpty(e.tool_call_id),
      questions: questions(e.questions),
    });
    this.requestInput(request, e.type, out);
  }

  /** The run waits for its caller (approval, an answer): what the agent said before is one message. */
  private requestInput(request: EventPayloads["input.requested"], native: string, out: Draft[]): void {
    this.closeMainText(out);
    this.inputRequested = true;
    out.push(draft("input.requested", request, { native }));
  }

  private error(e: NativeEvent, out: Draft[]): void {
    this.closeAllText(out);
    this.endTurn(out);
    const error = reportedError(nonEmpty(e.message) ?? "EvoScientist reported an error without a message", e.type);
    out.push(error);
    const { code, message, retryable } = error.payload;
    this.outcome ??= { status: "failed", error: { code, message, retryable }, resultText: this.answerText() };
  }

  private rubricEvaluationStart(e: NativeEvent, out: Draft[]): void {
    // The agent stopped and its work goes to the grader: what it said so far is one message.
    this.closeMainText(out);
    this.grading = e.type === "rubric_evaluation_start" ? "started" : "deferred";
    out.push(passThrough(e));
  }

  private rubricEvaluation(e: NativeEvent, out: Draft[]): void {
    this.closeMainText(out);
    this.turnAnswered = true;
    const result = asText(e.result);
    this.verdict = { result, explanation: asText(e.explanation) };
    // A revision request starts a new pass: the answer is what comes after it.
    if (result === "needs_revision") this.answer = "";
    // The criteria have no canonical home: the verdict is kept whole, and decides the outcome at done.
    out.push(passThrough(e));
  }

  private done(e: NativeEvent, out: Draft[]): void {
    // Only the first done ends the run; a later one is kept as data, never dropped.
    if (this.doneSeen) {
      out.push(passThrough(e));
      return;
    }
    this.doneSeen = true;
    this.closeAllText(out);
    this.endTurn(out);
    // done.response glues every main-agent chunk together: only a fallback, after the last pass's text.
    const resultText =
      this.answerText() ?? nonEmpty(e.last_pass_response) ?? nonEmpty(e.response) ?? nonEmpty(e.content) ?? null;
    this.outcome ??= this.endOfRun(resultText, out);
  }

  finish(end: StreamEndFacts): TranslatorConclusion {
    const drafts: Draft[] = [];
    this.closeReasoning(drafts);
    this.closeSummary(drafts);
    this.closeAllText(drafts);
    // EvoScientist exits 3 after done only for a graded run whose rubric was not satisfied, a verdict or none.
    if (this.doneSeen && this.outcome?.status === "succeeded" && end.backendExit?.code === 3) {
      const error = acceptanceError(this.verdict, this.grading);
      drafts.push(errorDraft(error));
      this.outcome = { ...this.outcome, status: "failed", error };
    }
    const resume = resumeHint(end.stderrTail);
    return { drafts, outcome: this.outcome, ...(resume ? { resume } : {}) };
  }

  /** A main-agent output opens a turn when none is open, or when the open one's calls came back (the next model call). */
  private startTurnIfNew(out: Draft[]): void {
    // After done or error nothing more is a turn of this run.
    if (this.outcome || (this.turnOpen && !this.turnAnswered)) return;
    if (this.turnOpen) {
      this.closeMainText(out);
      this.endTurn(out);
    }
    this.turnOpen = true;
    this.turnAnswered = false;
    out.push(draft("turn.started", { turn: ++this.turn }, { synthetic: true }));
  }

  private endTurn(out: Draft[]): void {
    if (!this.turnOpen) return;
    this.turnOpen = false;
    out.push(draft("turn.completed", { turn: this.turn }, { synthetic: true }));
  }

  /**
   * A sub-agent dispatched by task() inside a code_interpreter call: a sub-agent
   * keyed by its dispatch id, spawned by that call (eval_id). One that raised
   * reports its error, inside the sub-agent, before it completes.
   */
  private panelDispatch(e: NativeEvent, out: Draft[]): void {
    const id = nonEmpty(e.id);
    if (!id) {
      out.push(passThrough(e));
      return;
    }
    const native = e.type;
    if (e.type === "panel_dispatch_start") {
      const name = asText(e.subagent_type);
      this.dispatches.set(id, name);
      out.push(
        draft(
          "subagent.started",
          defined({ name, instance_id: id, tool_call_id: nonEmpty(e.eval_id), description: nonEmpty(e.description) }),
          { native },
        ),
      );
      return;
    }
    const name = this.dispatches.get(id) ?? "";
    this.dispatches.delete(id);
    // EvoScientist writes 0 for a duration it was not given.
    const duration = count(e.duration_ms) || undefined;
    if (e.type === "panel_dispatch_error") {
      const agent = { name, instance_id: id };
      out.push(reportedError(nonEmpty(e.error) ?? "a sub-agent dispatch failed without a message", native, agent));
    }
    out.push(draft("subagent.completed", defined({ name, instance_id: id, duration_ms: duration }), { native }));
  }

  /** The outcome done gives: what the run waits for, else the rubric's verdict (an unmet one is also an error event). */
  private endOfRun(resultText: string | null, out: Draft[]): Outcome {
    if (this.inputRequested || this.subagentPaused) return { status: "needs_input", resultText };
    if (this.verdict ? this.verdict.result === "satisfied" : !this.grading) return { status: "succeeded", resultText };
    const error = acceptanceError(this.verdict, this.grading);
    out.push(errorDraft(error));
    return { status: "failed", error, resultText };
  }

  /** Drop the text and thinking a retried model call had already streamed (counted in code points). */
  private discard(e: NativeEvent): void {
    const discarded = objectOrEmpty(e.discarded);
    const textChars = count(discarded.text_chars) ?? 0;
    const thinkingChars = count(discarded.thinking_chars) ?? 0;
    if (nonEmpty(e.subagent)) {
      const open = this.subagentTexts.get(this.instanceId(e));
      if (open) dropLastCodePoints(open.chunks, textChars);
      return;
    }
    if (this.mainText) dropLastCodePoints(this.mainText.chunks, textChars);
    if (textChars > 0) this.answer = withoutLastCodePoints(this.answer, textChars);
    if (this.reasoning) dropLastCodePoints(this.reasoning.chunks, thinkingChars);
  }

  private answerText(): string | null {
    return this.answer.trim() === "" ? null : this.answer;
  }

  private nextMessageId(): string {
    return `msg_${++this.messageCount}`;
  }

  private closeMainText(out: Draft[]): void {
    if (!this.mainText) return;
    out.push(
      draft(
        "message.completed",
        { message_id: this.mainText.id, text: this.mainText.chunks.join("") },
        { synthetic: true },
      ),
    );
    this.mainText = undefined;
  }

  private closeSubagentText(instance: string, out: Draft[]): void {
    const open = this.subagentTexts.get(instance);
    if (!open) return;
    this.subagentTexts.delete(instance);
    out.push(
      draft(
        "message.completed",
        { message_id: open.id, text: open.chunks.join("") },
        { synthetic: true, agent: open.agent },
      ),
    );
  }

  private closeAllText(out: Draft[]): void {
    this.closeMainText(out);
    for (const instance of [...this.subagentTexts.keys()]) this.closeSubagentText(instance, out);
  }

  private closeReasoning(out: Draft[]): void {
    if (!this.reasoning) return;
    out.push(
      draft(
        "reasoning.completed",
        { message_id: this.reasoning.id, text: this.reasoning.chunks.join("") },
        { synthetic: true },
      ),
    );
    this.reasoning = undefined;
  }

  private closeSummary(out: Draft[]): void {
    if (!this.summary) return;
    out.push(draft("compaction.completed", defined({ summary: nonEmpty(this.summary.join("")) }), { synthetic: true }));
    this.summary = undefined;
  }

  private agentOf(e: NativeEvent): AgentRef {
    return { name: asText(e.subagent), instance_id: this.instanceId(e) };
  }

  private instanceId(e: NativeEvent): string {
    // Older releases may leave it empty; the sub-agent's name is the best key left.
    return nonEmpty(e.instance_id) ?? `${asText(e.subagent ?? e.name) || "subagent"}`;
  }

  private requestId(e: NativeEvent): string {
    return nonEmpty(e.interrupt_id) ?? `interrupt_${++this.madeUpIds}`;
  }

  private toolStarted(e: NativeEvent, agent?: AgentRef): Draft {
    const name = asText(e.name);
    let id = nonEmpty(e.id);
    if (!id) {
      // A call sent without an id gets a made-up one its result can find.
      id = this.madeUpCallId(name);
      const key = unnamedKey(name, agent);
      let queue = this.unnamedCalls.get(key);
      if (!queue) this.unnamedCalls.set(key, (queue = new Fifo()));
      queue.push(id);
    }
    return draft(
      "tool.started",
      { tool_call_id: id, name, args: objectOrEmpty(e.args) },
      { native: e.type, ...(agent ? { agent } : {}) },
    );
  }

  private toolCompleted(e: NativeEvent, agent?: AgentRef): Draft {
    const name = asText(e.name);
    const id = nonEmpty(e.id) ?? this.unnamedCalls.get(unnamedKey(name, agent))?.take() ?? this.madeUpCallId(name);
    // `success` is the backend's own text heuristic: kept as it is, never re-guessed.
    const status = bool(e.success) === false ? "failed" : "succeeded";
    return draft(
      "tool.completed",
      { tool_call_id: id, name, status, output: asText(e.content) },
      { native: e.type, ...(agent ? { agent } : {}) },
    );
  }

  private madeUpCallId(name: string): string {
    return `${name || "tool"}_call_${++this.madeUpIds}`;
  }
}

interface RubricVerdict {
  result: string;
  explanation: string;
}

/** Why a graded run did not pass, worded as EvoScientist's own notice; no verdict means it stopped before grading. */
function acceptanceError(verdict: RubricVerdict | undefined, grading?: "started" | "deferred"): ErrorInfo {
  const what = !verdict
    ? grading === "deferred"
      ? "the acceptance criteria (--rubric) were not checked: grading waits for background work"
      : "the run stopped before its acceptance criteria (--rubric) were checked"
    : verdict.result === "failed"
      ? "the acceptance criteria (--rubric) could not be evaluated"
      : verdict.result === "grader_error"
        ? "the acceptance criteria (--rubric) could not be checked: the grader failed"
        : "the acceptance criteria (--rubric) were not met";
  const detail = verdict
    ? ` (verdict ${verdict.result || "none"})${verdict.explanation ? `: ${verdict.explanation}` : ""}`
    : "";
  return { code: "acceptance", message: what + detail, retryable: false };
}

/** An error the backend reported, classified from its message. */
function reportedError(message: string, native: string, agent?: AgentRef): Draft<"error"> {
  const c = classifyError(message, { dialect: "evosci" });
  return draft("error", defined({ code: c.code, message, retryable: c.retryable, http_status: c.http_status }), {
    native,
    ...(agent ? { agent } : {}),
  });
}

function errorDraft(error: ErrorInfo): Draft<"error"> {
  return draft("error", { code: error.code, message: error.message, retryable: error.retryable }, { synthetic: true });
}

const MAIN_MODEL_OUTPUT = new Set(["text", "thinking", "tool_call", "usage_stats"]);

/** What only a main-agent model call produces (a main model_retry belongs to the call it retries). */
function isModelOutput(e: NativeEvent): boolean {
  return MAIN_MODEL_OUTPUT.has(e.type) || (e.type === "model_retry" && !nonEmpty(e.subagent));
}

/** Calls without ids queue per agent and tool name. */
function unnamedKey(name: string, agent: AgentRef | undefined): string {
  return JSON.stringify([agent?.instance_id ?? "", name]);
}

function withoutLastCodePoints(text: string, n: number): string {
  let end = text.length;
  for (let dropped = 0; dropped < n && end > 0; dropped++) {
    const pair = end > 1 && isLowSurrogate(text.charCodeAt(end - 1)) && isHighSurrogate(text.charCodeAt(end - 2));
    end -= pair ? 2 : 1;
  }
  return text.slice(0, end);
}

const isHighSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** Remove the last n code points from text kept as chunks. */
function dropLastCodePoints(chunks: string[], n: number): void {
  let left = n;
  while (left > 0 && chunks.length > 0) {
    const last = chunks.pop()!;
    const points = [...last].length;
    if (points > left) {
      chunks.push(withoutLastCodePoints(last, left));
      return;
    }
    left -= points;
  }
}

function approvalActions(e: NativeEvent): InputAction[] {
  const decisions = new Map<string, string[]>();
  if (Array.isArray(e.review_configs)) {
    for (const config of e.review_configs) {
      if (isObject(config)) decisions.set(asText(config.action_name), strings(config.allowed_decisions));
    }
  }
  if (!Array.isArray(e.action_requests)) return [];
  return e.action_requests.filter(isObject).map((request) => {
    const name = asText(request.name);
    return {
      name,
      args: objectOrEmpty(request.args),
      description: asText(request.description),
      allowed_decisions: decisions.get(name) ?? [],
    };
  });
}

function questions(v: unknown): InputQuestion[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isObject).map((q) =>
    defined({
      question: asText(q.question),
      type: asText(q.type) || "text",
      choices: Array.isArray(q.choices) ? q.choices : undefined,
      required: bool(q.required),
    }),
  );
}

const RESUME = /\b(EvoSci|evosci|EvoScientist|evoscientist)\s+--resume\s+(\S+)/;

/** EvoSci ends its stderr with "EvoSci --resume <id>". */
function resumeHint(stderrTail: string[]): ResumeHint | undefined {
  for (let i = stderrTail.length - 1; i >= 0; i--) {
    const match = RESUME.exec(stderrTail[i]!);
    // Its words again, the id quoted: the line is the backend's, the id may be anything but spaces.
    if (match) return { session_id: match[2]!, hint: `${match[1]} --resume ${pastedValue(match[2]!, "SESSION")}` };
  }
  return undefined;
}
