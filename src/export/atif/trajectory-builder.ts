import { ENVELOPE_KEYS } from "../../canonical/envelope.js";
import type { CanonicalEvent, EventOf } from "../../canonical/events.js";
import { defined } from "../../core/fields.js";
import { type AtifResult, type AtifStep, type AtifToolCall, type Extra, someExtra } from "./document.js";
import type { SpilledRange, StepSpill } from "./step-spill.js";

/** Token and cost sums of the usage reports (scope call or message) that one step holds. */
interface StepUsage {
  calls: number;
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  reasoning?: number;
  reportedCost?: number;
  estimatedCost?: number;
  priceData?: string;
  model?: string;
}

/** One tool call (tool.started), whatever its id: the stream may use an id again for a later call. */
interface CallRecord {
  id: string;
  /** The step that made it, or that step's index once it is spilled. */
  step: OpenStep | number;
  /** Its result once one came (the entry on its step), or true while its step is spilled. */
  result?: AtifResult | true;
}

interface OpenStep {
  /** Its place in the trajectory, from 0 (its step_id less one). */
  index: number;
  source: AtifStep["source"];
  timestamp?: string;
  /** The model its own events name (the first). */
  model?: string;
  /** The model in effect when it opened (the last one the trajectory named before), where it names none. */
  inherited?: string;
  messages: string[];
  reasoning: string[];
  calls: AtifToolCall[];
  /** Its calls' ids: one id is never twice in a step (its results find their call within the step). */
  ids: Set<string>;
  /** Its calls that can still change (not those whose id a later call took over). */
  records: CallRecord[];
  /** How many of its calls wait for their result. */
  unanswered: number;
  results: AtifResult[];
  usage?: StepUsage;
  extra: Extra;
  events: Extra[];
  /** A turn.completed closed it, or a tool result came back (where the stream has no turns): the next output is a new step. */
  closed: boolean;
}

/** Events that say something about the step they happen in, kept whole (envelope aside) in its `extra.events`. */
const NOTED = new Set([
  "error",
  "retry.started",
  "retry.completed",
  "compaction.started",
  "model.changed",
  "model.fallback",
  "session.updated",
  "input.requested",
  "input.answered",
]);

// The envelope's keys but its type, which the payload keeps to say what it is.
const ENVELOPE = new Set<string>(ENVELOPE_KEYS.filter((key) => key !== "type"));

/** An event's payload with its type, without the envelope. */
export function payloadOf(event: CanonicalEvent): Extra {
  return Object.fromEntries(Object.entries(event).filter(([k]) => !ENVELOPE.has(k)));
}

/**
 * The steps of one trajectory (the run's main agent, or one sub-agent), built as its events come: one agent
 * step per turn (turn.started opens it); where the stream has no turns (a sub-agent's events), a model
 * output after a tool result opens the next; a call whose id the step already holds opens the next too.
 * Tool results go back onto the step that made the call: a result answers the oldest call of its id still
 * waiting (else the latest call of its id), so an id used again keeps each result with its own call.
 * Deltas and tool.updated are not kept (the completed events carry the whole text).
 */
export class TrajectoryBuilder {
  /** The steps: those still open, and where each spilled one is in the spill. */
  private readonly steps: (OpenStep | SpilledRange)[] = [];
  /** The calls still waiting for their result, by id, oldest first. */
  private readonly waiting = new Map<string, CallRecord[]>();
  /** The latest call of each id (a second result for it replaces the first). */
  private readonly latest = new Map<string, CallRecord>();
  private readonly refs: { step: OpenStep; call?: CallRecord; trajectoryId: string }[] = [];
  /** Steps a sub-agent's reference will go onto when the trajectory ends: never spilled. */
  private readonly pinned = new Set<OpenStep>();
  /** A step after the first that held something was spilled (it held something for good). */
  private laterNonEmpty = false;
  model: string | undefined;
  /** The model the trajectory named last: the one a step naming none is of. */
  private current: string | undefined;
  /** The first step waits for the prompt (the run's user step), which the stream's first prompt.submitted fills. */
  private awaitingPrompt: boolean;

  constructor(
    /** The step that opens it: the user's prompt, or the task a sub-agent was given. */
    first: { source: "user" | "system"; message: string; timestamp?: string; extra?: Extra; awaitsPrompt?: true },
    /** The time an event stands for in ATIF, or undefined where the stream does not know it. */
    private readonly timeOf: (event: CanonicalEvent) => string | undefined,
    /** Where the steps that can no longer change go as text (else they are all held until the end). */
    private readonly spill?: StepSpill,
  ) {
    const step = this.open(first.source, first.timestamp);
    step.messages.push(first.message);
    Object.assign(step.extra, first.extra);
    this.awaitingPrompt = first.awaitsPrompt === true;
  }

  event(event: CanonicalEvent): void {
    switch (event.type) {
      case "turn.started":
        this.agentStep(event, true);
        return;
      case "turn.completed": {
        const step = this.last();
        if (step.source === "agent") {
          if (event.stop_reason !== undefined) step.extra.stop_reason ??= event.stop_reason;
          step.closed = true;
        }
        return;
      }
      case "message.completed": {
        const step = this.agentStep(event);
        step.messages.push(event.text);
        if (event.model !== undefined) this.modelOf(step, event.model);
        if (event.stop_reason !== undefined) step.extra.stop_reason = event.stop_reason;
        return;
      }
      case "reasoning.completed":
        this.agentStep(event).reasoning.push(event.text);
        return;
      case "tool.started":
        this.toolStarted(event);
        return;
      case "tool.completed":
        this.toolCompleted(event);
        return;
      case "usage":
        if (event.scope !== "run") this.usage(event);
        return;
      case "compaction.completed":
        this.compaction(event);
        return;
      case "model.changed": {
        this.current = event.model;
        const step = this.last();
        if (step.source === "agent" && !step.closed && step.model === undefined) step.inherited = event.model;
        this.last().events.push(payloadOf(event));
        return;
      }
      case "prompt.submitted":
        this.prompt(event);
        return;
      default:
        if (NOTED.has(event.type)) this.last().events.push(payloadOf(event));
    }
  }

  /** A sub-agent started here: the result of the call that started it (else a result of its own) will point at it. */
  subagent(trajectoryId: string, toolCallId: string | undefined): void {
    const call =
      toolCallId === undefined ? undefined : (this.waiting.get(toolCallId)?.[0] ?? this.latest.get(toolCallId));
    const step = call ? this.stepOf(call) : this.last();
    this.refs.push({ step, call, trajectoryId });
    this.pinned.add(step);
  }

  /** The steps, numbered from 1 (none spilled). */
  finish(): AtifStep[] {
    this.addRefs();
    return this.steps.map((step) => {
      if (!isOpen(step)) throw new Error("a spilled trajectory is written with finishText");
      return finishStep(step, step.index + 1);
    });
  }

  /**
   * The steps as the text of the document's `steps` array between its brackets, each step as `atifText` writes it
   * there: the spilled ones copied from the spill, the others serialized. `count` is how many.
   */
  finishText(): { count: number; chunks: () => Generator<string | Buffer> } {
    this.addRefs();
    const steps = this.steps;
    const spill = this.spill;
    return {
      count: steps.length,
      *chunks() {
        for (const step of steps) {
          if (isOpen(step)) yield stepText(step);
          else yield* spill!.bytes(step);
        }
      },
    };
  }

  private addRefs(): void {
    for (const ref of this.refs) {
      const result = ref.call?.step === ref.step ? this.resultFor(ref.call, ref.step) : pushed(ref.step.results, {});
      result.subagent_trajectory_ref = [...(result.subagent_trajectory_ref ?? []), { trajectory_id: ref.trajectoryId }];
    }
    this.refs.length = 0;
  }

  private toolStarted(event: EventOf<"tool.started">): void {
    const id = event.tool_call_id;
    let step = this.agentStep(event);
    // One id twice in a step is refused by atif-scan and agentpile (a result finds its call within its step).
    if (step.ids.has(id)) step = this.open("agent", this.timeOf(event));
    step.calls.push(
      defined({
        tool_call_id: event.tool_call_id,
        function_name: event.name,
        arguments: event.args,
        extra: event.kind === undefined ? undefined : { kind: event.kind },
      }),
    );
    step.ids.add(id);
    const call: CallRecord = { id, step };
    step.records.push(call);
    step.unanswered++;
    this.latest.set(id, call);
    const waiting = this.waiting.get(id);
    if (waiting) waiting.push(call);
    else this.waiting.set(id, [call]);
  }

  /** The oldest call of this id still waiting for its result, no longer waiting. */
  private answered(id: string): CallRecord | undefined {
    const waiting = this.waiting.get(id);
    const call = waiting?.shift();
    if (waiting?.length === 0) this.waiting.delete(id);
    if (call) (call.step as OpenStep).unanswered--;
    return call;
  }

  private toolCompleted(event: EventOf<"tool.completed">): void {
    const extra = someExtra({
      status: event.status,
      duration_ms: event.duration_ms,
      reason: event.reason,
      unapproved: event.unapproved,
    });
    const call = this.answered(event.tool_call_id) ?? this.latest.get(event.tool_call_id);
    if (!call) {
      // A result whose call the stream never showed: kept on the current step, pointing at no call.
      this.last().results.push({
        content: event.output,
        extra: { ...extra, tool_call_id: event.tool_call_id, name: event.name },
      });
      return;
    }
    const step = this.stepOf(call);
    const result = this.resultFor(call, step);
    result.content = event.output;
    result.extra = extra;
    const current = this.last();
    if (current === step && !this.inTurn) step.closed = true;
    this.trySpill(step);
  }

  /** A call's result entry on its step (open), made where none is yet. */
  private resultFor(call: CallRecord, step: OpenStep): AtifResult {
    if (call.result === undefined || call.result === true)
      call.result = pushed(step.results, { source_call_id: call.id } as AtifResult);
    return call.result;
  }

  private usage(event: EventOf<"usage">): void {
    const step = this.agentStep(event);
    const u = (step.usage ??= { calls: 0, input: 0, output: 0 });
    u.calls++;
    u.input += event.input_tokens;
    u.output += event.output_tokens;
    u.cacheRead = plus(u.cacheRead, event.cache_read_input_tokens);
    u.cacheWrite = plus(u.cacheWrite, event.cache_write_input_tokens);
    u.reasoning = plus(u.reasoning, event.reasoning_tokens);
    if (event.cost_source === "estimated") {
      u.estimatedCost = plus(u.estimatedCost, event.cost_usd);
      u.priceData = event.price_data ?? u.priceData;
    } else u.reportedCost = plus(u.reportedCost, event.cost_usd);
    if (event.model !== undefined) this.modelOf(step, event.model);
  }

  /**
   * What the user asked: the first user step's message while the agent has said nothing yet (pi writes its
   * prompt inside the first turn); a prompt after the agent's output (a recording's follow-up) is a user step
   * of its own.
   */
  private prompt(event: EventOf<"prompt.submitted">): void {
    const first =
      this.awaitingPrompt && !this.laterNonEmpty && this.steps.every((s, i) => i === 0 || !isOpen(s) || isEmpty(s))
        ? (this.steps[0] as OpenStep)
        : undefined;
    const wasAwaiting = this.awaitingPrompt;
    this.awaitingPrompt = false;
    const step = first ?? this.open("user", this.timeOf(event));
    step.messages = [event.text];
    step.timestamp ??= this.timeOf(event);
    delete step.extra.prompt;
    if (event.bytes !== undefined) step.extra.prompt_bytes = event.bytes;
    const firstStep = this.steps[0]!;
    if (wasAwaiting && isOpen(firstStep)) this.trySpill(firstStep);
  }

  private compaction(event: EventOf<"compaction.completed">): void {
    const step = this.open("system", this.timeOf(event));
    step.messages.push(event.summary ?? "");
    const { type: _type, summary: _summary, tokens_before, tokens_after, ...rest } = payloadOf(event);
    step.extra.context_management = defined({ type: "compaction", boundary: "replace", tokens_before, tokens_after });
    Object.assign(step.extra, rest);
  }

  private inTurn = false;

  /** The agent step an output belongs to: the open one, or a new one. */
  private agentStep(event: CanonicalEvent, turn = false): OpenStep {
    const current = this.last();
    if (turn) this.inTurn = true;
    if (!turn && current.source === "agent" && !current.closed) {
      current.timestamp ??= this.timeOf(event);
      return current;
    }
    return this.open("agent", this.timeOf(event));
  }

  private open(source: OpenStep["source"], timestamp: string | undefined): OpenStep {
    const before = this.steps[this.steps.length - 1];
    const step: OpenStep = {
      index: this.steps.length,
      source,
      timestamp,
      inherited: source === "agent" ? this.current : undefined,
      messages: [],
      reasoning: [],
      calls: [],
      ids: new Set(),
      records: [],
      unanswered: 0,
      results: [],
      extra: {},
      events: [],
      closed: false,
    };
    this.steps.push(step);
    if (before !== undefined && isOpen(before)) this.trySpill(before);
    return step;
  }

  /** The step that made a call, read back from the spill if it was spilled. */
  private stepOf(call: CallRecord): OpenStep {
    return typeof call.step === "number" ? this.revive(call.step) : call.step;
  }

  /**
   * Spills a step that nothing is expected to change any more: not the last (whatever comes next may go
   * onto it), not the first while it waits for the prompt, no sub-agent reference to go onto it, every
   * call of it answered. Should something change it after all (a second result for a call, a sub-agent
   * started by an old call), it is read back (`revive`), so the document is the one `finish` makes.
   */
  private trySpill(step: OpenStep): void {
    if (!this.spill || step === this.last() || this.pinned.has(step)) return;
    if (step.index === 0 && this.awaitingPrompt) return;
    if (step.unanswered > 0) return;
    if (step.index > 0 && !isEmpty(step)) this.laterNonEmpty = true;
    this.steps[step.index] = this.spill.append(stepText(step));
    // Only the latest call of an id can change now: the others are forgotten with the step.
    for (const call of step.records)
      if (this.latest.get(call.id) === call) {
        call.step = step.index;
        call.result &&= true;
      }
  }

  /** A spilled step, read back from the spill and open again (held until it can be spilled again). */
  private revive(index: number): OpenStep {
    const range = this.steps[index] as SpilledRange;
    const step = openedAgain(JSON.parse(this.spill!.text(range).slice(index === 0 ? 0 : 1)) as AtifStep, index);
    this.steps[index] = step;
    for (const { tool_call_id: id } of step.calls) {
      const call = this.latest.get(id);
      if (call?.step !== index) continue;
      call.step = step;
      step.records.push(call);
      if (call.result === true) call.result = step.results.find((r) => r.source_call_id === id);
    }
    return step;
  }

  private modelOf(step: OpenStep, model: string): void {
    step.model ??= model;
    this.model ??= model;
    this.current = model;
  }

  private last(): OpenStep {
    return this.steps[this.steps.length - 1] as OpenStep;
  }
}

function isOpen(step: OpenStep | SpilledRange): step is OpenStep {
  return "source" in step;
}

/** A step as `atifText` writes it in the `steps` array: after a comma (but the first), on a line of its own, indented. */
function stepText(step: OpenStep): string {
  const text = JSON.stringify(finishStep(step, step.index + 1), null, 2).replaceAll("\n", "\n    ");
  return `${step.index === 0 ? "" : ","}\n    ${text}`;
}

/**
 * A spilled step as it was before `finishStep` wrote it, so that it finishes into the same text: a result's
 * keys in the order they were made (source_call_id, content, extra), an empty message as no message.
 */
function openedAgain(s: AtifStep, index: number): OpenStep {
  const m = s.metrics;
  const { events, ...extra } = s.extra ?? {};
  return {
    index,
    source: s.source,
    timestamp: s.timestamp,
    model: s.model_name,
    messages: s.message === "" ? [] : [s.message],
    reasoning: s.reasoning_content === undefined ? [] : [s.reasoning_content],
    calls: s.tool_calls ?? [],
    ids: new Set((s.tool_calls ?? []).map((c) => c.tool_call_id)),
    records: [],
    unanswered: 0,
    results: (s.observation?.results ?? []).map((r) => {
      // content and extra stay keys where absent: a later result fills them in their place.
      const result: AtifResult =
        r.source_call_id === undefined
          ? { content: r.content, extra: r.extra }
          : { source_call_id: r.source_call_id, content: r.content, extra: r.extra };
      if (r.subagent_trajectory_ref !== undefined) result.subagent_trajectory_ref = r.subagent_trajectory_ref;
      return result;
    }),
    usage: m && {
      calls: s.llm_call_count ?? 1,
      input: m.prompt_tokens,
      output: m.completion_tokens,
      cacheRead: m.cached_tokens,
      cacheWrite: m.extra?.cache_creation_input_tokens as number | undefined,
      reasoning: m.extra?.reasoning_tokens as number | undefined,
      reportedCost: m.cost_usd,
      estimatedCost: m.extra?.estimated_cost_usd as number | undefined,
      priceData: m.extra?.price_data as string | undefined,
    },
    extra,
    events: (events as Extra[] | undefined) ?? [],
    closed: true,
  };
}

function finishStep(step: OpenStep, id: number): AtifStep {
  const agent = step.source === "agent";
  const u = step.usage;
  return defined({
    step_id: id,
    timestamp: step.timestamp,
    source: step.source,
    model_name: agent ? (step.model ?? step.inherited) : undefined,
    message: step.messages.join("\n\n"),
    reasoning_content: agent && step.reasoning.length > 0 ? step.reasoning.join("\n\n") : undefined,
    tool_calls: agent && step.calls.length > 0 ? step.calls : undefined,
    observation: step.results.length > 0 ? { results: step.results } : undefined,
    metrics:
      agent && u
        ? defined({
            prompt_tokens: u.input,
            completion_tokens: u.output,
            cached_tokens: u.cacheRead,
            cost_usd: u.reportedCost,
            extra: someExtra({
              cache_creation_input_tokens: u.cacheWrite,
              reasoning_tokens: u.reasoning,
              estimated_cost_usd: u.estimatedCost,
              price_data: u.estimatedCost === undefined ? undefined : u.priceData,
            }),
          })
        : undefined,
    llm_call_count: agent && u ? u.calls : undefined,
    extra: someExtra({ ...step.extra, events: step.events.length > 0 ? step.events : undefined }),
  });
}

/** A step that holds nothing yet (a turn just opened). */
function isEmpty(step: OpenStep): boolean {
  return (
    step.messages.length + step.reasoning.length + step.calls.length + step.results.length + step.events.length === 0 &&
    step.usage === undefined
  );
}

function plus(sum: number | undefined, value: number | undefined): number | undefined {
  return value === undefined ? sum : (sum ?? 0) + value;
}

function pushed<T>(list: T[], item: T): T {
  list.push(item);
  return item;
}
