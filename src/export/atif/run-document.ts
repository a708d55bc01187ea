import type { AgentInfo, CanonicalEvent, EventOf } from "../../canonical/events.js";
import {
  ATIF_SCHEMA_VERSION,
  type AtifFinalMetrics,
  type AtifStep,
  type AtifTrajectory,
  atifText,
  type Extra,
  someExtra,
} from "./document.js";
import { defined } from "../../core/fields.js";
import { StepSpill } from "./step-spill.js";
import { payloadOf, TrajectoryBuilder } from "./trajectory-builder.js";

const CUT = "the stream ended without run.finished: the outcome is unknown";

/** A document written as it was built: its text in pieces (the spilled steps read back), then `dispose`. */
export interface DocumentText {
  chunks(): Generator<string | Buffer>;
  /** Removes the spill file (also done as the process exits). */
  dispose(): void;
}

interface Sub {
  builder: TrajectoryBuilder;
  name: string;
  /** Whose subagent_trajectories holds it: a sub-agent's parent, else the run's main agent (undefined). */
  parent: string | undefined;
  extra: Extra;
}

/**
 * One run's ATIF document, built as the run's canonical events come (they start with run.started). It holds
 * the document being built and nothing else: deltas, tool.updated and native events are dropped as they come.
 */
export class RunDocument {
  private readonly root: TrajectoryBuilder;
  private readonly subs = new Map<string, Sub>();
  private readonly mode: "run" | "normalize";
  private session: string | undefined;
  private agentInfo: AgentInfo | undefined;
  private tools: string[] | undefined;
  private sawUsage = false;
  finished: EventOf<"run.finished"> | undefined;

  /** With `spill`, the main agent's steps that can no longer change go to a temporary file (`finishText`). */
  private readonly spill: StepSpill | undefined;

  constructor(
    private readonly started: EventOf<"run.started">,
    spill = false,
  ) {
    this.mode = started.mode;
    this.spill = spill ? new StepSpill() : undefined;
    this.root = new TrajectoryBuilder(
      {
        source: "user",
        message: "",
        timestamp: this.timeOf(started),
        extra: { prompt: "the stream holds no prompt.submitted: the prompt is not known" },
        awaitsPrompt: true,
      },
      (e) => this.timeOf(e),
      this.spill,
    );
  }

  /** The time an event stands for: the agent's own (native_ts); in a live run agentstream's (ts); never a replay's. */
  private timeOf(event: CanonicalEvent): string | undefined {
    return event.native_ts ?? (this.mode === "run" ? event.ts : undefined);
  }

  event(event: CanonicalEvent): void {
    // session.started's, else the first event stamped with one.
    this.session ??= event.session_id;
    switch (event.type) {
      case "session.started":
        if (event.agent_info && !event.agent) this.agentInfo ??= event.agent_info;
        return;
      case "tools.selected":
        if (!event.agent) this.tools = event.tools;
        return;
      case "subagent.started":
        this.subagentStarted(event);
        return;
      case "subagent.completed": {
        const sub = this.subs.get(event.instance_id);
        if (sub) Object.assign(sub.extra, { duration_ms: event.duration_ms, paused: event.paused });
        return;
      }
      case "run.finished":
        this.finished = event;
        return;
      case "usage":
        this.sawUsage = true;
        break;
    }
    this.builderOf(event).event(event);
  }

  private subagentStarted(event: EventOf<"subagent.started">): void {
    const parent = event.agent?.instance_id;
    this.builderOf(event).subagent(event.instance_id, event.tool_call_id);
    if (!this.subs.has(event.instance_id)) this.addSub(event.instance_id, event.name, parent, event, event.description);
  }

  private builderOf(event: CanonicalEvent): TrajectoryBuilder {
    if (!event.agent) return this.root;
    const known = this.subs.get(event.agent.instance_id);
    // Events of a sub-agent whose start the stream did not show: a sub-trajectory of the main agent's, no call points at it.
    return (known ?? this.addSub(event.agent.instance_id, event.agent.name, undefined, event, undefined)).builder;
  }

  private addSub(id: string, name: string, parent: string | undefined, event: CanonicalEvent, task?: string): Sub {
    const builder = new TrajectoryBuilder({ source: "user", message: task ?? "", timestamp: this.timeOf(event) }, (e) =>
      this.timeOf(e),
    );
    const sub: Sub = {
      builder,
      name,
      parent: parent !== undefined && this.subs.has(parent) ? parent : undefined,
      extra: {},
    };
    this.subs.set(id, sub);
    return sub;
  }

  /** The document, as far as the stream went. */
  finish(): AtifTrajectory {
    const steps = this.root.finish();
    return this.document(steps, steps.length);
  }

  /**
   * The document as `atifText` writes it, as far as the stream went, its steps copied from the spill: the
   * document without its steps is serialized around a marker that stands for them.
   */
  finishText(): DocumentText {
    const steps = this.root.finishText();
    const marker = `agentstream-atif-steps-${Math.random().toString(36).slice(2)}`;
    const text = atifText(this.document([marker as unknown as AtifStep], steps.count));
    const at = text.indexOf(`\n    ${JSON.stringify(marker)}`);
    const head = text.slice(0, at);
    const tail = text.slice(at + 5 + JSON.stringify(marker).length);
    const spill = this.spill;
    return {
      *chunks() {
        yield head;
        yield* steps.chunks();
        yield tail;
      },
      dispose: () => spill?.dispose(),
    };
  }

  /** Removes what the document spilled, unwritten. */
  dispose(): void {
    this.spill?.dispose();
  }

  private document(steps: AtifStep[], count: number): AtifTrajectory {
    const started = this.started;
    const version = this.agentInfo?.version;
    const notes: string[] = [];
    if (version === undefined) notes.push("agent.version is unknown: the stream does not name the agent's version.");
    const sessions = this.finished?.sessions;
    if (sessions !== undefined)
      notes.push(`The stream held ${sessions} sessions: final_metrics and the outcome are the last session's.`);
    const session = this.sessionId();
    if (session === started.run_id)
      notes.push("session_id is the run's id: the stream names no session of the agent's.");
    const subs = this.subTrajectories(undefined, version ?? "unknown", session);
    return defined({
      schema_version: ATIF_SCHEMA_VERSION,
      session_id: session,
      trajectory_id: started.run_id,
      agent: defined({
        name: this.agentInfo?.name ?? started.backend,
        version: version ?? "unknown",
        model_name: this.root.model,
        extra: someExtra({ backend: started.backend, title: this.agentInfo?.title, tools: this.tools }),
      }),
      steps,
      notes: notes.length > 0 ? notes.join(" ") : undefined,
      final_metrics: this.finalMetrics(count),
      extra: {
        agentstream: defined({
          version: started.agentstream_version,
          mode: started.mode,
          backend: started.backend,
          detection: started.detection,
          transport: started.transport,
          resumed_from: started.resumed_from,
          cwd: started.cwd,
        }),
        outcome: this.outcome(),
      },
      subagent_trajectories: subs.length > 0 ? subs : undefined,
    });
  }

  /**
   * Every document has one (Docent refuses one without; Harbor's model asks producers for it): the stream's
   * session, else the session to resume it by (run.finished's resume), else the one it continues, else the run's id.
   */
  private sessionId(): string {
    return this.session ?? this.finished?.resume?.session_id ?? this.started.resumed_from ?? this.started.run_id;
  }

  private outcome(): Extra {
    const f = this.finished;
    if (!f) return { status: "unknown", reason: CUT };
    const { type: _t, usage: _u, ...rest } = payloadOf(f);
    return rest;
  }

  private finalMetrics(steps: number): AtifFinalMetrics {
    const usage = this.finished?.usage;
    if (!usage || !this.sawUsage)
      return { total_steps: steps, extra: { usage: this.finished ? "the stream reported no usage" : CUT } };
    const complete = usage.complete !== false;
    const reported = usage.cost_usd !== undefined && (usage.cost_source ?? "reported") === "reported";
    const estimated = usage.cost_usd !== undefined && !reported;
    return defined({
      total_prompt_tokens: complete ? usage.input_tokens : undefined,
      total_completion_tokens: complete ? usage.output_tokens : undefined,
      total_cached_tokens: complete ? usage.cache_read_input_tokens : undefined,
      total_cost_usd: complete && reported ? usage.cost_usd : undefined,
      total_steps: steps,
      extra: someExtra({
        llm_usage_calls_complete: complete ? undefined : false,
        usage_so_far: complete ? undefined : usage,
        total_cache_creation_input_tokens: complete ? usage.cache_write_input_tokens : undefined,
        total_reasoning_tokens: complete ? usage.reasoning_tokens : undefined,
        estimated_cost_usd: complete && estimated ? usage.cost_usd : undefined,
        cost_source: complete && estimated ? usage.cost_source : undefined,
        price_data: complete && estimated ? usage.price_data : undefined,
      }),
    });
  }

  private subTrajectories(parent: string | undefined, version: string, session: string): AtifTrajectory[] {
    const out: AtifTrajectory[] = [];
    for (const [id, sub] of this.subs) {
      if (sub.parent !== parent) continue;
      const nested = this.subTrajectories(id, version, session);
      out.push(
        defined({
          schema_version: ATIF_SCHEMA_VERSION,
          session_id: session,
          trajectory_id: id,
          agent: defined({ name: sub.name, version, model_name: sub.builder.model }),
          steps: sub.builder.finish(),
          extra: someExtra(sub.extra),
          subagent_trajectories: nested.length > 0 ? nested : undefined,
        }),
      );
    }
    return out;
  }
}
