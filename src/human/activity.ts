import type { CanonicalEvent } from "../canonical/events.js";
import { attemptOf } from "./format.js";

/** What the agent is doing now, in a few words, for the spinner. */
export class Activity {
  private readonly runningTools = new Map<string, string>();
  private state = "starting";
  private override: string | undefined;

  update(e: CanonicalEvent): void {
    switch (e.type) {
      case "turn.started":
        this.state = "waiting for the model";
        break;
      case "reasoning.delta":
        this.state = "thinking";
        break;
      case "message.delta":
        this.state = e.agent ? `${e.agent.name}: writing` : "writing";
        break;
      case "tool.started":
        this.runningTools.set(e.tool_call_id, e.agent ? `${e.agent.name} › ${e.name}` : e.name);
        break;
      case "tool.completed":
        this.runningTools.delete(e.tool_call_id);
        if (this.runningTools.size === 0) this.state = "thinking";
        break;
      case "subagent.started":
        this.state = `sub-agent ${e.name} working`;
        break;
      case "compaction.started":
        this.state = "compacting the context";
        break;
      case "retry.started":
        this.state = `retrying (attempt ${attemptOf(e)})`;
        break;
      case "input.requested":
        this.state = "stopped: needs input";
        break;
      case "input.answered":
        // Answered live (ACP): the agent goes on, unless no rule allowed the call.
        if (e.by !== "default") this.state = "thinking";
        break;
    }
  }

  /** Something outside the stream: waiting for the backend to exit, stopping it. */
  set(state: string): void {
    this.override = state;
  }

  describe(): string {
    if (this.override !== undefined) return this.override;
    return this.runningTools.size > 0 ? `running ${[...this.runningTools.values()].join(", ")}` : this.state;
  }
}
