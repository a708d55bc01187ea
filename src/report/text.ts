import type { AgentRef } from "../canonical/events.js";
import { clip } from "../core/clip.js";
import { REPORT_LIMITS } from "./report-v1.js";

/** A name or id cut to REPORT_LIMITS.nameChars. */
export function clipName(text: string): string {
  return clip(text, REPORT_LIMITS.nameChars);
}

/** An agent as a report keeps it: its name and id only, each cut as a name. */
export function clipAgent(agent: AgentRef): AgentRef {
  return { name: clipName(agent.name), instance_id: clipName(agent.instance_id) };
}
