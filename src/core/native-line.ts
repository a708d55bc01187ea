import type { EventPayloads } from "../canonical/events.js";
import { MAX_LINE_DEPTH, mayHoldLoneSurrogate, wellFormedJson } from "../canonical/strict-json.js";
import { nestingDepth } from "../schema/json-depth.js";
import type { NativeEvent } from "./translator.js";

export type ParsedLine =
  /** deep: nested more than DEEP_NATIVE_LINE, so what is written from here on must have its nesting capped. */
  { ok: true; event: NativeEvent; deep: boolean } | { ok: false; reason: EventPayloads["backend.unparsed"]["reason"] };

/**
 * Deepest nesting of arrays and objects a native line may have. Real events
 * stay under ten; far deeper JSON overflows the stack of every recursive
 * JSON.stringify downstream, and jq 1.6 refuses lines nested past 256.
 */
export const MAX_NATIVE_DEPTH = 128;

/**
 * Past this nesting a native line could put something deeper than
 * MAX_LINE_DEPTH in a canonical line: translators add at most 2 levels (the
 * envelope around a --raw copy, run.finished listing pending requests), and the
 * fuzz suites check every line. Lines shorter than twice this are not walked.
 */
export const DEEP_NATIVE_LINE = MAX_LINE_DEPTH - 8;

/**
 * A native line is usable when it is a JSON object with a string `type` (a JSON-RPC 2.0
 * message is given one: nameJsonRpcMessage), nested
 * at most MAX_NATIVE_DEPTH deep. Lone surrogates in its strings and keys become
 * U+FFFD (I-JSON), so what is written from it is well-formed UTF-8 every reader takes.
 */
export function parseNativeLine(text: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: "invalid_json" };
  }
  // Rejected as strict JSON parsers do past their nesting limit. Nesting n deep
  // takes at least 2n characters, so a shorter line need not be walked.
  const depth = text.length > 2 * DEEP_NATIVE_LINE ? nestingDepth(value, MAX_NATIVE_DEPTH) : 0;
  if (depth > MAX_NATIVE_DEPTH) return { ok: false, reason: "invalid_json" };
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, reason: "not_an_object" };
  if (mayHoldLoneSurrogate(text)) value = wellFormedJson(value);
  if ((value as { type?: unknown }).type === undefined) nameJsonRpcMessage(value as Record<string, unknown>);
  if (typeof (value as { type?: unknown }).type !== "string" || (value as { type: string }).type === "") {
    return { ok: false, reason: "missing_type" };
  }
  return { ok: true, event: value as NativeEvent, deep: depth > DEEP_NATIVE_LINE };
}

/** The type a JSON-RPC 2.0 response is read as: it names no method. */
export const JSON_RPC_RESULT = "jsonrpc.result";
export const JSON_RPC_ERROR = "jsonrpc.error";

/**
 * A JSON-RPC 2.0 message (protocols spoken over stdio, as the Agent Client Protocol) has no `type`:
 * a request or notification is read as its method, a response as JSON_RPC_RESULT or JSON_RPC_ERROR.
 * The name is not enumerable, so a copy of the line (--raw, backend.event) stays as it was written.
 */
function nameJsonRpcMessage(message: Record<string, unknown>): void {
  if (message.jsonrpc !== "2.0") return;
  const type =
    typeof message.method === "string"
      ? message.method
      : "error" in message
        ? JSON_RPC_ERROR
        : "result" in message
          ? JSON_RPC_RESULT
          : undefined;
  if (type !== undefined) Object.defineProperty(message, "type", { value: type, enumerable: false });
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
