import { JSON_RPC_ERROR, JSON_RPC_RESULT } from "../../core/native-line.js";

/** A JSON-RPC id as JSON-RPC 2.0 allows it (the SDK's own test: a finite number, a string or null). */
export type JsonRpcId = string | number | null;

/** One line of an ACP agent's stdout read as the JSON-RPC message it is. */
export type AcpMessage =
  | { kind: "request"; id: JsonRpcId; method: string }
  | { kind: "notification"; method: string }
  | { kind: "response"; id: JsonRpcId; failed: boolean };

/**
 * The one reading of an agent's line as a JSON-RPC 2.0 message, shared by the translation and the
 * driver (which hands the SDK only what this accepts): a request, a notification or a response as
 * the SDK tells them (core/jsonrpc.js isRequestMessage, isNotificationMessage, isResponseMessage).
 * A member of its own (`"type"`) changes nothing: the method says what a message is. Anything else
 * (no `"jsonrpc":"2.0"`, an id of another kind, a response with both or neither of result and error,
 * an error with no integer code and text message) is no message: it is kept as data, and never answered.
 */
export function acpMessage(line: Record<string, unknown>): AcpMessage | undefined {
  if (line.jsonrpc !== "2.0") return undefined;
  const hasId = "id" in line;
  const id = line.id;
  if (hasId && !isJsonRpcId(id)) return undefined;
  if ("method" in line) {
    if (typeof line.method !== "string") return undefined;
    return hasId
      ? { kind: "request", id: id as JsonRpcId, method: line.method }
      : { kind: "notification", method: line.method };
  }
  if (!hasId) return undefined;
  const hasResult = Object.hasOwn(line, "result");
  const hasError = Object.hasOwn(line, "error");
  if (hasResult === hasError) return undefined;
  if (hasError && !isErrorObject(line.error)) return undefined;
  return { kind: "response", id: id as JsonRpcId, failed: hasError };
}

/**
 * What the translator reads a line as: a message's method, or JSON_RPC_RESULT / JSON_RPC_ERROR for a
 * response; a line that is no JSON-RPC message keeps its own type (the driver's told events); a
 * `"jsonrpc":"2.0"` line that is no message, undefined (kept as data).
 */
export function acpType(line: Record<string, unknown> & { type: string }): string | undefined {
  const message = acpMessage(line);
  if (message === undefined) return line.jsonrpc === "2.0" ? undefined : line.type;
  if (message.kind !== "response") return message.method;
  return message.failed ? JSON_RPC_ERROR : JSON_RPC_RESULT;
}

function isJsonRpcId(value: unknown): value is JsonRpcId {
  return value === null || typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

function isErrorObject(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const { code, message } = value as Record<string, unknown>;
  return typeof code === "number" && Number.isInteger(code) && typeof message === "string";
}

/**
 * The id and method of a request from the start of a line too long to be read (its preview): the members before
 * the first whose value is an object or array (`params`, which the SDK and every agent observed write last), read
 * as JSON. Undefined where the start shows no request (no `"jsonrpc":"2.0"`, no valid id or no method before it).
 */
export function requestOfStart(preview: string): { id: JsonRpcId; method: string } | undefined {
  const member =
    /\s*"((?:[^"\\]|\\.)*)"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|null|true|false)\s*,/y;
  const start = /^\s*\{/.exec(preview);
  if (start === null) return undefined;
  member.lastIndex = start[0].length;
  const members: Record<string, unknown> = {};
  for (let m = member.exec(preview); m !== null; m = member.exec(preview)) {
    try {
      members[JSON.parse(`"${m[1]}"`) as string] = JSON.parse(m[2]!);
    } catch {
      return undefined;
    }
  }
  const message = acpMessage({ ...members });
  return message?.kind === "request" ? { id: message.id, method: message.method } : undefined;
}
