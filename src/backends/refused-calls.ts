// Tool calls a backend's permission system refused because no one could
// approve them (headless, no allow rule): the approvals the run needs. A run
// that refused one did not do its work: it ends needs_input with the calls in
// run.finished.pending, not a silent success.
import type { AgentRef } from "../canonical/events.js";
import { draft, type Draft, type Outcome, type ResumeHint } from "../core/translator.js";

export class RefusedCalls {
  /** Tool name of each refused call, by call id, in the order they came. */
  private readonly calls = new Map<string, string>();

  /** Whether any call was refused. */
  get any(): boolean {
    return this.calls.size > 0;
  }

  /** Whether this call was refused already (a backend may say so twice: as it happens, and in its result). */
  has(id: string): boolean {
    return this.calls.has(id);
  }

  /**
   * input.requested for one refused call: the approval it lacked (`agent`: the sub-agent that made the call).
   * `id` names the request; the call is named by it too unless `callKnown` is false (a denial that named no call).
   */
  request(
    id: string,
    name: string,
    args: Record<string, unknown>,
    reason: string,
    native: string,
    agent?: AgentRef,
    callKnown = true,
  ): Draft {
    this.calls.set(id, name);
    const action = {
      name,
      args,
      description: reason || `${name} needs permission`,
      allowed_decisions: ["approve", "reject"],
    };
    return draft(
      "input.requested",
      { request_id: id, kind: "approval", ...(callKnown ? { tool_call_id: id } : {}), actions: [action] },
      agent ? { native, agent } : { native },
    );
  }

  /** The run's outcome: a success that refused a call needs input; any other outcome stands. */
  settle(outcome: Outcome | undefined): Outcome | undefined {
    if (this.calls.size === 0 || outcome?.status !== "succeeded") return outcome;
    return { status: "needs_input", resultText: outcome.resultText };
  }

  /**
   * How to go on once the refused tools are allowed; `hint` writes the backend's command for the tools
   * and the session, each value in it quoted for the shell (src/core/shell-word.ts).
   */
  resume(
    outcome: Outcome | undefined,
    sessionId: string | undefined,
    hint: (tools: string[], sessionId: string) => string,
  ): ResumeHint | undefined {
    if (outcome?.status !== "needs_input" || sessionId === undefined) return undefined;
    return { session_id: sessionId, hint: hint([...new Set(this.calls.values())], sessionId) };
  }
}
