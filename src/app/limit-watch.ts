// The limits of a run (--max-turns, --max-tokens, --max-cost-usd): the same on every backend,
// watched on the canonical events as they are written.
import type { CanonicalEvent } from "../canonical/events.js";
import { clip } from "../core/clip.js";
import type { Words } from "../core/errors.js";
import type { Part } from "./request.js";

/**
 * The limits of a run, the option table's rows of lifetime limits: at most maxTurns turns (model calls: the run
 * stops when one more begins); stop once input + output tokens (as the canonical usage counts them) reach
 * maxTokens, or the run's cost (reported, else estimated) maxCostUsd.
 */
export type RunLimits = Part<"run", "limits">;

/** Whether any limit is set. */
function hasLimits(limits: RunLimits | undefined): limits is RunLimits {
  return limits !== undefined && Object.values(limits).some((v) => v !== undefined);
}

/**
 * Sees each canonical event of a run. When a limit is crossed it says so once
 * (`reached`: the run is then stopped and ends failed, code budget); a model
 * it cannot price it notes once a run on stderr (a stream may name thousands).
 */
export class LimitWatch {
  private turns = 0;
  private tokens = 0;
  private cost = 0;
  private done = false;
  private saidUnpriced = false;

  constructor(
    private readonly limits: RunLimits,
    private readonly reached: (message: string) => void,
    private readonly note: (note: Words) => void,
    usageComplete: boolean,
  ) {
    if (!usageComplete && (limits.maxCostUsd !== undefined || limits.maxTokens !== undefined))
      note(
        (name) =>
          `this backend does not report all of its model calls' usage: ${name("maxTokens")} and ${name("maxCostUsd")} count only what it reports`,
      );
  }

  see(event: CanonicalEvent): void {
    if (event.type === "turn.started" && event.agent === undefined) {
      this.turns++;
      const max = this.limits.maxTurns;
      if (max !== undefined && this.turns > max) this.reach(`max-turns ${max} reached: turn ${this.turns} began`);
      return;
    }
    if (event.type !== "usage") return;
    this.tokens += event.input_tokens + event.output_tokens;
    const { maxTokens, maxCostUsd } = this.limits;
    if (maxTokens !== undefined && this.tokens >= maxTokens)
      this.reach(`max-tokens ${maxTokens} reached: ${this.tokens} tokens ${this.after()}`);
    if (event.cost_usd !== undefined) {
      this.cost += event.cost_usd;
      if (maxCostUsd !== undefined && this.cost >= maxCostUsd)
        this.reach(`max-cost-usd ${maxCostUsd} reached: ${usd(this.cost)} USD ${this.after()}`);
      return;
    }
    if (event.input_tokens + event.output_tokens === 0) return;
    // A model name is the backend's text: shown cut, however long it is.
    const model = event.model === undefined ? "(unnamed)" : clip(event.model, MAX_SHOWN_MODEL);
    // Fail closed: a cost that cannot be known cannot be kept under a limit.
    if (maxCostUsd !== undefined) this.reach(`max-cost-usd ${maxCostUsd}: cannot price model ${model}`);
    // A usage that names no model (EvoScientist's) is no model the table lacks: nothing to say.
    else if (event.model !== undefined && !this.saidUnpriced) {
      this.saidUnpriced = true;
      this.note(
        `no cost for model ${model}: the price table does not know it (said once a run, for the first model it lacks)`,
      );
    }
  }

  private after(): string {
    return `after ${this.turns} turn${this.turns === 1 ? "" : "s"}`;
  }

  private reach(message: string): void {
    if (this.done) return;
    this.done = true;
    this.reached(message);
  }
}

/** Longest model name a message shows (real ones are under 60 characters). */
const MAX_SHOWN_MODEL = 120;

/** A cost as people read it: cents for a dollar figure, more digits for small ones. */
function usd(x: number): string {
  return x >= 0.1 ? x.toFixed(2) : x.toPrecision(2);
}

/** A watch of the run's limits (and of models it cannot price), when there is anything to watch or note. */
export function watchLimits(
  limits: RunLimits | undefined,
  hooks: { reached: (message: string) => void; note?: (note: Words) => void; usageComplete: boolean },
): ((event: CanonicalEvent) => void) | undefined {
  if (!hasLimits(limits) && hooks.note === undefined) return undefined;
  const watch = new LimitWatch(limits ?? {}, hooks.reached, hooks.note ?? (() => {}), hooks.usageComplete);
  return (event) => watch.see(event);
}
