// Calls an agent ran though their permission request was refused: the facts the outcome rule
// "no refused call ends in success" (outcome.ts, docs/canonical-stream.md "Outcome rules") reads.
// A translator reports only what the stream shows (input.answered, tool.completed.unapproved);
// what it means for the run is decided once, in the core.
import type { AnsweredBy, CanonicalEvent } from "../canonical/events.js";
import { answerLeavesPending } from "./canonical-stream.js";
import type { RefusedRuns } from "./outcome.js";

type Refusal = { by: AnsweredBy } | "undecided";

/** Watches the events written, one at a time; its memory is the refused calls still open. */
export class RefusedRunWatch {
  /** The refusal of each call whose request was refused and which has not completed yet, by call id. */
  private readonly refusals = new Map<string, Refusal>();
  private readonly seen: RefusedRuns = { rejectedCount: 0, undecided: false };

  see(event: CanonicalEvent): void {
    if (event.type === "input.answered") {
      const id = event.tool_call_id;
      if (id === undefined) return;
      if (answerLeavesPending(event)) this.refusals.set(id, "undecided");
      else if (event.decision === "reject") this.refusals.set(id, { by: event.by });
      // Allowed (a later request for the same call): no longer refused.
      else this.refusals.delete(id);
    } else if (event.type === "tool.completed") {
      const id = event.tool_call_id;
      const refusal = this.refusals.get(id);
      this.refusals.delete(id);
      if (event.unapproved !== true) return;
      // Marked unapproved with no answer seen: no one decided it.
      if (refusal === undefined || refusal === "undecided") {
        this.seen.undecided = true;
        return;
      }
      this.seen.rejectedCount++;
      this.seen.rejected ??= { tool_call_id: id, name: event.name, by: refusal.by };
    }
  }

  get facts(): RefusedRuns {
    return this.seen;
  }
}
