import type {
  AgentRef,
  CanonicalEvent,
  EventPayloads,
  ExitCode,
  InputAnswer,
  InputRequest,
  UsageTotals,
} from "../canonical/events.js";
import type { Draft } from "./translator.js";
import { RunCounter } from "../canonical/run-counts.js";
import { capNesting, MAX_LINE_DEPTH, wellFormed } from "../canonical/strict-json.js";
import { estimateCost, PRICE_DATA } from "./cost-estimate.js";
import type { Clock } from "./clock.js";
import type { RunOutcome } from "./outcome.js";

export interface CanonicalStreamOptions {
  /** The backend's name (one of the registry's). */
  backend: string;
  runId: string;
  clock: Clock;
  /** Attach the native object as `raw` to events translated from it. */
  includeRaw?: boolean;
  /** Drop message.delta / reasoning.delta / tool.updated. */
  deltas?: boolean;
  /** Measure tool durations with our own clock (live runs); recordings only report the backend's. */
  liveDurations?: boolean;
  /**
   * The model of a usage that names none (Codex, EvoScientist, OpenCode): `--model`, or what the backend's
   * own files say (given the session, once known). Asked when a usage needs it; such a usage is priced as
   * that model and names it.
   */
  model?: (sessionId: string | undefined) => string | undefined;
}

interface OpenTool {
  name: string;
  startedMs: number;
  agent?: AgentRef;
}

const DELTA_TYPES = new Set(["message.delta", "reasoning.delta", "tool.updated"]);

/**
 * The shared half of every translation: stamps the envelope (seq, ts,
 * elapsed_ms, run_id, session_id), keeps the counts and usage totals, and
 * closes whatever the backend left open before run.finished.
 */
export class CanonicalStream {
  private seq = 0;
  private readonly startMono: number;
  private readonly startWall: number;
  private lastElapsed = 0;
  private tsElapsed = -1;
  private tsText = "";
  private sessionId: string | undefined;
  /** The backend sessions the stream held, counted from the second (a translator's newSession). */
  private sessions = 1;
  private readonly openTools = new Map<string, OpenTool>();
  private readonly openSubagents = new Map<string, AgentRef>();
  private readonly pending: InputRequest[] = [];
  private readonly counter = new RunCounter();
  private usage: UsageTotals | undefined;
  /** A usage total reached 2^53 - 1 and stopped there. */
  private usageCapped = false;
  /** Where the total's cost came from: the backend's reports, agentstream's estimates, or both. */
  private readonly costSources = new Set<"reported" | "estimated">();
  private finished = false;
  /** A main-agent model call began after the last usage the backend reported: its usage is not known (yet). */
  private callUnreported = false;
  /** The model the backend switched to (model.changed), which a usage naming none is of. */
  private changedModel: string | undefined;
  /** A native line came nested deep: from then on, every event is checked against MAX_LINE_DEPTH. */
  private capping = false;

  constructor(private readonly options: CanonicalStreamOptions) {
    this.startMono = options.clock.monoMs();
    this.startWall = options.clock.wallMs();
  }

  get backend(): string {
    return this.options.backend;
  }

  start(payload: EventPayloads["run.started"]): CanonicalEvent {
    return this.stamp({ type: "run.started", payload, synthetic: undefined });
  }

  /**
   * Stamp one translated event. Returns the events to write, in order: usually
   * just the one, none when filtered (--no-deltas), or a synthetic tool.started
   * first when the backend reported a result for a call it never announced.
   */
  push(draft: Draft, raw?: unknown): CanonicalEvent[] {
    if (this.finished) throw new Error("CanonicalStream: push after finish");
    if (this.options.deltas === false && DELTA_TYPES.has(draft.type)) return [];
    const out: CanonicalEvent[] = [];
    const fixed = this.keepInvariants(draft, out);
    this.counter.add(fixed.type, (fixed.payload as { status?: unknown }).status);
    if (fixed.agent === undefined) {
      if (fixed.type === "turn.started") this.callUnreported = true;
      else if (fixed.type === "usage") this.callUnreported = false;
    }
    out.push(this.stamp(fixed, raw));
    return out;
  }

  /**
   * The input holds deeply nested data: from now on (a translator may keep it
   * for a later event), what would nest deeper than MAX_LINE_DEPTH is written as its JSON text.
   */
  capNesting(): void {
    this.capping = true;
  }

  /** Close open tool calls and sub-agents, then write run.finished. */
  finish(outcome: RunOutcome): CanonicalEvent[] {
    const out: CanonicalEvent[] = [];
    const reason =
      outcome.status === "needs_input" ? "awaiting_input" : outcome.backendGone ? "backend_exited" : "run_ended";
    for (const [id, tool] of this.openTools) {
      out.push(
        this.stamp({
          type: "tool.completed",
          payload: { tool_call_id: id, name: tool.name, status: "cancelled", output: "", reason },
          synthetic: true,
          ...(tool.agent ? { agent: tool.agent } : {}),
        }),
      );
    }
    for (const agent of this.openSubagents.values()) {
      out.push(this.stamp({ type: "subagent.completed", payload: { ...agent }, synthetic: true }));
    }
    // Stopped during a model call whose usage never came, or the backend told no tokens (context fill only).
    const unreported = (outcome.stopped === true && this.callUnreported) || outcome.usageUntold === true;
    // run.finished's duration is its own elapsed_ms.
    const elapsed = this.elapsed();
    const finished: EventPayloads["run.finished"] = {
      status: outcome.status,
      exit_code: outcome.exitCode as ExitCode,
      backend_exit: outcome.backendExit,
      duration_ms: elapsed,
      result: resultOf(outcome),
      // Usage unreported: the usage so far (zero where none came) is no total.
      ...(this.usage || unreported ? { usage: { ...(this.usage ?? { input_tokens: 0, output_tokens: 0 }) } } : {}),
      counts: this.counter.snapshot(),
      // Native strings are well-formed already; these may come from stderr or a library caller.
      ...(outcome.error ? { error: { ...outcome.error, message: wellFormed(outcome.error.message) } } : {}),
      ...(outcome.status === "needs_input" ? { pending: this.pending } : {}),
      ...(outcome.resume
        ? { resume: { session_id: wellFormed(outcome.resume.session_id), hint: wellFormed(outcome.resume.hint) } }
        : {}),
      ...(outcome.status !== "succeeded" && outcome.stderrTail.length > 0
        ? { stderr_tail: outcome.stderrTail.map(wellFormed) }
        : {}),
      ...(this.sessions > 1 ? { sessions: this.sessions } : {}),
    };
    if (finished.usage && (outcome.usageComplete === false || this.usageCapped || unreported))
      finished.usage.complete = false;
    out.push(this.stamp({ type: "run.finished", payload: finished, synthetic: true }, undefined, elapsed));
    this.finished = true;
    return out;
  }

  private keepInvariants(draft: Draft, out: CanonicalEvent[]): Draft {
    switch (draft.type) {
      case "tool.started": {
        const id = draft.payload.tool_call_id;
        // A second start for a call that is still open cannot be a new call: keep it as data.
        if (this.openTools.has(id)) return this.keepInvariants(asBackendEvent(draft), out);
        this.openTools.set(id, { name: draft.payload.name, startedMs: this.elapsed(), ...agentOf(draft) });
        break;
      }
      case "tool.completed": {
        const id = draft.payload.tool_call_id;
        if (!this.openTools.has(id)) {
          // A result for a call never announced: announce it so every completion has its start.
          out.push(
            this.push({
              type: "tool.started",
              payload: { tool_call_id: id, name: draft.payload.name, args: {} },
              synthetic: true,
              ...agentOf(draft),
            })[0]!,
          );
        }
        const tool = this.openTools.get(id)!;
        this.openTools.delete(id);
        if (draft.payload.duration_ms === undefined && this.options.liveDurations) {
          return {
            ...draft,
            payload: { ...draft.payload, duration_ms: Math.max(0, this.elapsed() - tool.startedMs) },
          };
        }
        break;
      }
      case "subagent.started": {
        const id = draft.payload.instance_id;
        if (this.openSubagents.has(id)) return this.keepInvariants(asBackendEvent(draft), out);
        this.openSubagents.set(id, { name: draft.payload.name, instance_id: id });
        break;
      }
      case "subagent.completed": {
        const id = draft.payload.instance_id;
        if (!this.openSubagents.has(id)) {
          out.push(
            this.push({
              type: "subagent.started",
              payload: { name: draft.payload.name, instance_id: id },
              synthetic: true,
            })[0]!,
          );
        }
        this.openSubagents.delete(id);
        break;
      }
      case "session.started":
        // A stream is one run, whose outcome and usage are its last session's: at a new session the usage total starts again.
        if (draft.newSession) {
          this.sessions++;
          this.restartUsage();
        }
        // session_id never changes once known: a header naming another session is kept as data.
        if (this.sessionId !== undefined && this.sessionId !== draft.payload.session_id)
          return this.keepInvariants(asBackendEvent(draft), out);
        this.sessionId = draft.payload.session_id;
        break;
      case "input.requested":
        this.pending.push(draft.payload);
        break;
      case "input.answered": {
        // Answered by a rule, a mode or the caller with an option: no longer waiting. Else it stays pending.
        if (answerLeavesPending(draft.payload)) break;
        // The latest request under that id: an id used again is a new request (an older one was answered).
        const at = this.pending.findLastIndex((p) => p.request_id === draft.payload.request_id);
        if (at >= 0) this.pending.splice(at, 1);
        break;
      }
      case "model.changed":
        this.changedModel = draft.payload.model;
        break;
      case "usage": {
        const priced = this.priced(draft);
        this.addUsage(priced.payload);
        return priced;
      }
    }
    return draft;
  }

  /** Usage with the source of its cost: the backend's, else estimated from the model and the tokens where the price table knows the model. */
  private priced(d: Draft<"usage">): Draft<"usage"> {
    const u = d.payload;
    if (u.cost_usd !== undefined) return { ...d, payload: { ...u, cost_source: "reported" } };
    if (u.input_tokens + u.output_tokens === 0) return d;
    const model = u.model ?? this.changedModel ?? this.options.model?.(this.sessionId);
    if (model === undefined) return d;
    const named = u.model === undefined ? { ...u, model } : u;
    // A run's total sums its calls: priced per call, so that a tier by prompt size is not reached by the sum.
    const calls = u.scope === "run" ? this.counter.snapshot().turns : 1;
    const cost = estimateCost(u, model, new Date(this.startWall + this.elapsed()), calls);
    if (cost === undefined) return named === u ? d : { ...d, payload: named };
    return { ...d, payload: { ...named, cost_usd: cost, cost_source: "estimated", price_data: PRICE_DATA } };
  }

  private restartUsage(): void {
    this.usage = undefined;
    this.usageCapped = false;
    this.costSources.clear();
  }

  private addUsage(u: EventPayloads["usage"]): void {
    const t = (this.usage ??= { input_tokens: 0, output_tokens: 0 });
    t.input_tokens = this.sum(t.input_tokens, u.input_tokens);
    t.output_tokens = this.sum(t.output_tokens, u.output_tokens);
    if (u.cache_read_input_tokens !== undefined)
      t.cache_read_input_tokens = this.sum(t.cache_read_input_tokens ?? 0, u.cache_read_input_tokens);
    if (u.cache_write_input_tokens !== undefined)
      t.cache_write_input_tokens = this.sum(t.cache_write_input_tokens ?? 0, u.cache_write_input_tokens);
    if (u.reasoning_tokens !== undefined) t.reasoning_tokens = this.sum(t.reasoning_tokens ?? 0, u.reasoning_tokens);
    if (u.total_tokens !== undefined) t.total_tokens = this.sum(t.total_tokens ?? 0, u.total_tokens);
    if (u.cost_usd !== undefined) t.cost_usd = roundCost(this.sum(t.cost_usd ?? 0, u.cost_usd));
    if (u.cost_source !== undefined) {
      this.costSources.add(u.cost_source);
      t.cost_source = this.costSources.size > 1 ? "mixed" : u.cost_source;
      if (u.cost_source === "estimated") t.price_data = PRICE_DATA;
    }
  }

  /** A total stops at 2^53 - 1, beyond which JSON carries no exact integer; it then says complete: false. */
  private sum(total: number, part: number): number {
    const s = total + part;
    if (s <= Number.MAX_SAFE_INTEGER) return s;
    this.usageCapped = true;
    return Number.MAX_SAFE_INTEGER;
  }

  /** `ts` for an elapsed time: events come many to a millisecond, and toISOString is dear. */
  private timestamp(elapsed: number): string {
    if (elapsed !== this.tsElapsed) {
      this.tsElapsed = elapsed;
      this.tsText = new Date(this.startWall + elapsed).toISOString();
    }
    return this.tsText;
  }

  private elapsed(): number {
    // Never decreasing, whatever the clock does.
    const now = Math.floor(this.options.clock.monoMs() - this.startMono);
    if (now > this.lastElapsed) this.lastElapsed = now;
    return this.lastElapsed;
  }

  private stamp(
    d: Omit<Draft, "synthetic"> & { synthetic?: true | undefined },
    raw?: unknown,
    elapsed = this.elapsed(),
  ): CanonicalEvent {
    const event: Record<string, unknown> = {
      v: 1,
      seq: ++this.seq,
      ts: this.timestamp(elapsed),
      elapsed_ms: elapsed,
      run_id: this.options.runId,
      backend: this.options.backend,
      type: d.type,
    };
    if (this.sessionId !== undefined) event.session_id = this.sessionId;
    if (d.agent) event.agent = d.agent;
    Object.assign(event, d.payload);
    if (d.native !== undefined) event.native = d.native;
    if (d.nativeTs !== undefined) event.native_ts = d.nativeTs;
    if (d.synthetic) event.synthetic = true;
    // raw goes only on events translated from that native object (backend.event already carries it).
    if (raw !== undefined && this.options.includeRaw && d.native !== undefined && d.type !== "backend.event")
      event.raw = raw;
    const capped: unknown = this.capping ? capNesting(event, MAX_LINE_DEPTH) : event;
    // Assembled from a draft its translator typed: the envelope, then the payload its type allows.
    return capped as CanonicalEvent;
  }
}

/** run.finished.result: the answer's text, and its JSON value where --output-schema checked it (its JSON text where the backend gave only the value). */
function resultOf({ resultText, resultJson }: RunOutcome): EventPayloads["run.finished"]["result"] {
  if (resultJson === undefined) return resultText === null ? null : { text: resultText };
  return { text: resultText ?? JSON.stringify(resultJson.value), json: resultJson.value };
}

function agentOf(draft: Draft): { agent?: AgentRef } {
  return draft.agent ? { agent: draft.agent } : {};
}

function asBackendEvent(draft: Draft): Draft<"backend.event"> {
  return {
    type: "backend.event",
    payload: { native_type: draft.native ?? draft.type, raw: draft.payload },
    ...(draft.native !== undefined ? { native: draft.native } : {}),
    ...(draft.nativeTs !== undefined ? { nativeTs: draft.nativeTs } : {}),
    ...agentOf(draft),
  };
}

// Sums of float costs drift (0.1 + 0.2); 12 decimals is far below a micro-cent.
function roundCost(x: number): number {
  return Math.round(x * 1e12) / 1e12;
}

/**
 * An answer that leaves its request waiting for the user: rejected by default (no rule allowed the call),
 * or answered cancelled because no option offered could carry the decision (the call did not run as decided);
 * a question's, only where it was cancelled (no answer came: accepted and declined are answers).
 */
export function answerLeavesPending(answer: InputAnswer): boolean {
  if (answer.action !== undefined) return answer.action === "cancel";
  return answer.by === "default" || answer.option_id === undefined;
}
