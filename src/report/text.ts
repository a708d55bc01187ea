import type { AgentRef } from "../canonical/events.js";
import { REPORT_LIMITS } from "./report-v1.js";

/** `text` cut to at most `max` characters (an ellipsis at the end when cut), never inside a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** A name or id cut to REPORT_LIMITS.nameChars. */
export function clipName(text: string): string {
  return clip(text, REPORT_LIMITS.nameChars);
}

/** An agent as a report keeps it: its name and id only, each cut as a name. */
export function clipAgent(agent: AgentRef): AgentRef {
  return { name: clipName(agent.name), instance_id: clipName(agent.instance_id) };
}
