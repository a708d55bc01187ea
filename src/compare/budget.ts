// --max-total-cost-usd: one budget across the cells. Every usage event of every running cell counts (its
// cost reported, else estimated, as run.finished sums it); once the total reaches the cap no cell starts,
// and each running one is stopped as a run is at --max-cost-usd (failed, error budget). A usage that cannot
// be priced cannot be kept under a cap: its cell is stopped at once, as --max-cost-usd does.
import type { CanonicalEvent } from "../canonical/events.js";
import { HostStop } from "../run/host.js";

export class Budget {
  private spent = 0;
  private readonly running = new Set<AbortController>();
  private reachedWith: string | undefined;

  constructor(private readonly capUsd: number | undefined) {}

  /** Spent: no cell may start. */
  get reached(): string | undefined {
    return this.reachedWith;
  }

  get spentUsd(): number {
    return this.spent;
  }

  /** A cell started: the budget may stop it. */
  add(controller: AbortController): () => void {
    this.running.add(controller);
    return () => this.running.delete(controller);
  }

  /** Counts a cell's event; `stopCell` stops that cell alone (a cost it cannot know). */
  see(event: CanonicalEvent, stopCell: (stop: HostStop) => void): void {
    if (this.capUsd === undefined || event.type !== "usage") return;
    if (event.cost_usd === undefined) {
      if (event.input_tokens + event.output_tokens === 0) return;
      const model = event.model === undefined ? "(unnamed)" : event.model.slice(0, 120);
      stopCell(
        new HostStop({ kind: "budget", message: `max-total-cost-usd ${this.capUsd}: cannot price model ${model}` }),
      );
      return;
    }
    this.spent += event.cost_usd;
    if (this.spent < this.capUsd || this.reachedWith !== undefined) return;
    this.reachedWith = `max-total-cost-usd ${this.capUsd} reached: ${this.spent.toPrecision(3)} USD across the cells`;
    const stop = new HostStop({ kind: "budget", message: this.reachedWith });
    for (const controller of this.running) controller.abort(stop);
  }
}
