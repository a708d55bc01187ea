import type { EventPayloads } from "../canonical/events.js";
import type { NativeEvent } from "./translator.js";

export type ParsedLine =
  | { ok: true; event: NativeEvent }
  | { ok: false; reason: EventPayloads["backend.unparsed"]["reason"] };

/**
 * Deepest nesting of arrays and objects a native line may have. Real events
 * stay under ten; far deeper JSON overflows the stack of every recursive
 * JSON.stringify downstream, and jq 1.6 refuses lines nested past 256.
 */
export const MAX_NATIVE_DEPTH = 128;

/** A native line is usable when it is a JSON object with a string `type`, nested at most MAX_NATIVE_DEPTH deep. */
export function parseNativeLine(text: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: "invalid_json" };
  }
  // Rejected as strict JSON parsers do past their nesting limit. Nesting n deep
  // takes at least 2n characters, so a shorter line need not be walked.
  if (text.length > 2 * MAX_NATIVE_DEPTH && nestedDeeperThan(value, MAX_NATIVE_DEPTH)) return { ok: false, reason: "invalid_json" };
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, reason: "not_an_object" };
  if (typeof (value as { type?: unknown }).type !== "string" || (value as { type: string }).type === "") {
    return { ok: false, reason: "missing_type" };
  }
  return { ok: true, event: value as NativeEvent };
}

export const UNPARSED_LINE_CAP = 4096;

/** Cap a line for backend.unparsed without cutting a surrogate pair in half. */
export function capLine(text: string, cap = UNPARSED_LINE_CAP): string {
  if (text.length <= cap) return text;
  let end = cap;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end);
}

/** Whether arrays and objects nest deeper than `limit` (walked without recursion, stopping early). */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (typeof node !== "object" || node === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(node)) if (typeof child === "object" && child !== null) pending.push([child, depth + 1]);
  }
  return false;
}
