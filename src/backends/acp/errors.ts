import type { ErrorInfo } from "../../canonical/events.js";
import { classifyError, type ClassifiedError, type ErrorDialect } from "../classification.js";
import { asText, count, nonEmpty, objectOrEmpty } from "../../core/fields.js";

/** ACP's own error codes (its schema's ErrorCode) that say more than the message. */
export const AUTH_REQUIRED = -32000;
const INTERNAL_ERROR = -32603;

export interface AcpError extends ErrorInfo {
  http_status?: number;
}

/**
 * A JSON-RPC error answering a request (the prompt, mostly), in the shapes real agents use
 * (docs/protocols/acp.md "Errors"): Gemini CLI's code is the HTTP status and its message the
 * provider's JSON; Qwen Code's -32603 "Internal error" has the detail in `data.details`;
 * OpenCode's says only `data.errorName`; codex-acp's has Codex's message in `data.message` and its
 * kind in `data.codex_error_info`; ACP's -32000 is "authentication required". Classified by the
 * table in the words of the agent's native backend (`dialect`, known from its `agentInfo`).
 */
export function rpcError(value: unknown, dialect?: ErrorDialect): AcpError {
  const error = objectOrEmpty(value);
  const code = typeof error.code === "number" ? error.code : undefined;
  const data = objectOrEmpty(error.data);
  const message = detail(error, data);
  if (code === AUTH_REQUIRED) return { code: "auth", message, retryable: false };
  const kind = errorKind(data);
  // An HTTP status as the JSON-RPC code (Gemini CLI), or in its data.
  const status = [code, count(data.statusCode), count(data.status), kind.status].find(
    (n): n is number => n !== undefined && n >= 400 && n < 600,
  );
  // The SDK's wording for an internal error with a message ("Internal error: <the agent's words>"): its words decide.
  const c = classifyError(message.replace(/^Internal error:\s*/, ""), {
    ...(dialect !== undefined ? { dialect } : {}),
    ...(kind.type !== undefined ? { type: kind.type } : {}),
    ...(status !== undefined ? { status } : {}),
  });
  // An internal error that names nothing (OpenCode's APIError): the provider failed, not the agent.
  if (c.code === "unknown" && code === INTERNAL_ERROR && nonEmpty(data.errorName) !== undefined)
    return info({ code: "provider", retryable: false }, message);
  return info(c, message);
}

/**
 * The error's name where the agent gives one: OpenCode's `data.errorName`; codex-acp's `data.codex_error_info`,
 * a name ("server_overloaded") or a name with details ({"response_stream_disconnected":{"http_status_code":502}}).
 */
function errorKind(data: Record<string, unknown>): { type?: string; status?: number } {
  const named = nonEmpty(data.errorName);
  if (named !== undefined) return { type: named };
  const codex = data.codex_error_info;
  if (typeof codex === "string") return codex === "" ? {} : { type: codex };
  const [name, details] = Object.entries(objectOrEmpty(codex))[0] ?? [];
  if (name === undefined) return {};
  const status = count(objectOrEmpty(details).http_status_code);
  return { type: name, ...(status !== undefined ? { status } : {}) };
}

/** The most telling text of an error: its details, the provider's message inside its JSON, else its message. */
function detail(error: Record<string, unknown>, data: Record<string, unknown>): string {
  const said = nonEmpty(data.details) ?? nonEmpty(data.message) ?? asText(error.message);
  const named = nonEmpty(data.errorName);
  if (said === "Internal error" && named !== undefined) return `${named}: ${said}`;
  return providerMessage(said) ?? (said || "the agent answered with an error");
}

/**
 * A provider's error body as Codex's adapter tells it in message text (`{"error":{"message":...,"type":...}}`, the
 * HTTP status dropped): its message, classified with its type; other words as they are.
 */
export function bodyTextError(text: string, dialect?: ErrorDialect): AcpError {
  const said = text.trim();
  const message = providerMessage(said);
  if (message === undefined) return textError(said, dialect);
  const type = nonEmpty(objectOrEmpty(objectOrEmpty(JSON.parse(said)).error).type);
  const clues = { ...(dialect !== undefined ? { dialect } : {}), ...(type !== undefined ? { type } : {}) };
  return info(classifyError(message, clues), message);
}

/** Google's error body as the message ({"error":{"code":400,"message":"..."}}): its message, with its status. */
function providerMessage(text: string): string | undefined {
  if (!text.startsWith("{")) return undefined;
  try {
    const inner = objectOrEmpty(objectOrEmpty(JSON.parse(text)).error);
    const message = nonEmpty(inner.message);
    const code = count(inner.code);
    if (message === undefined) return undefined;
    return code !== undefined ? `${code} ${message}` : message;
  } catch {
    return undefined;
  }
}

/** An error an agent tells only in its message text ("Error: ... Last error: 503 ..."): the last error named. */
export function textError(text: string, dialect?: ErrorDialect): AcpError {
  const body = text.replace(/^Error:\s*/, "");
  const last = /Last error:\s*(.*)$/s.exec(body);
  const said = (last?.[1] ?? body).trim();
  return info(classifyError(said, dialect !== undefined ? { dialect } : {}), body);
}

function info(c: ClassifiedError, message: string): AcpError {
  return { code: c.code, message, retryable: c.retryable, ...(c.http_status ? { http_status: c.http_status } : {}) };
}
