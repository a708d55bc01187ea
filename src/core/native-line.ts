import type { EventPayloads } from "../canonical/events.js";
import type { NativeEvent } from "../translators/translator.js";

export type ParsedLine =
  | { ok: true; event: NativeEvent }
  | { ok: false; reason: EventPayloads["backend.unparsed"]["reason"] };

/** A native line is usable when it is a JSON object with a string `type`. */
export function parseNativeLine(text: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: "invalid_json" };
  }
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
