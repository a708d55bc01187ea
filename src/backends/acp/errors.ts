import type { ErrorInfo } from "../../canonical/events.js";
import { classifyError, type ClassifiedError } from "../../core/classify.js";
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
 * OpenCode's says only `data.errorName`; ACP's -32000 is "authentication required".
 */
export function rpcError(value: unknown): AcpError {
  const error = objectOrEmpty(value);
  const code = typeof error.code === "number" ? error.code : undefined;
  const data = objectOrEmpty(error.data);
  const message = detail(error, data);
  if (code === AUTH_REQUIRED) return { code: "auth", message, retryable: false };
  // An HTTP status as the JSON-RPC code (Gemini CLI).
  if (code !== undefined && code >= 400 && code < 600) return info(classifyError(`HTTP ${code}: ${message}`), message);
  const status = count(data.statusCode) ?? count(data.status);
  if (status !== undefined && status >= 400 && status < 600)
    return info(classifyError(`HTTP ${status}: ${message}`), message);
  const c = classifyError(message);
  // An internal error that names nothing (OpenCode's APIError): the provider failed, not the agent.
  if (c.code === "unknown" && code === INTERNAL_ERROR && nonEmpty(data.errorName) !== undefined)
    return info({ code: "provider", retryable: false }, message);
  return info(c, message);
}

/** The most telling text of an error: its details, the provider's message inside its JSON, else its message. */
function detail(error: Record<string, unknown>, data: Record<string, unknown>): string {
  const said = nonEmpty(data.details) ?? nonEmpty(data.message) ?? asText(error.message);
  const named = nonEmpty(data.errorName);
  if (said === "Internal error" && named !== undefined) return `${named}: ${said}`;
  return providerMessage(said) ?? (said || "the agent answered with an error");
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
export function textError(text: string): AcpError {
  const body = text.replace(/^Error:\s*/, "");
  const last = /Last error:\s*(.*)$/s.exec(body);
  const said = (last?.[1] ?? body).trim();
  return info(classifyError(said), body);
}

function info(c: ClassifiedError, message: string): AcpError {
  return { code: c.code, message, retryable: c.retryable, ...(c.http_status ? { http_status: c.http_status } : {}) };
}
