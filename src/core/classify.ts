import type { ErrorCode } from "../canonical/events.js";

export interface ClassifiedError {
  code: ErrorCode;
  retryable: boolean;
  http_status?: number;
}

const RETRYABLE: ReadonlySet<ErrorCode> = new Set(["rate_limit", "overloaded", "network"]);

// Where providers put the HTTP status: "Error code: 529 - {...}" (EvoSci, via the
// Python SDKs), "400: {...}" (Atomic, pi >= 0.84), "400 Invalid request" (pi 0.73),
// "status code 503", "HTTP 502".
const STATUS_PATTERNS = [
  /^\s*(?:Error code:\s*)?([1-5]\d\d)\b[\s:-]/,
  /\b(?:status(?: code)?|HTTP)[\s:]+([1-5]\d\d)\b/i,
  // Google APIs' error body, quoted in the message: {"error":{"code":400,...}} (Gemini CLI).
  /"code"\s*:\s*([1-5]\d\d)\b/,
];

const PHRASES: Array<[RegExp, ErrorCode]> = [
  [/context[_ ]length|context window|maximum context|prompt is too long|too many tokens|context_length_exceeded/i, "context_length"],
  [/rate[_ ]limit|too many requests|RESOURCE_EXHAUSTED|quota exceeded/i, "rate_limit"],
  [/overloaded/i, "overloaded"],
  // gRPC status names, as Google APIs write them (case matters: "unavailable" is an ordinary word).
  [/\bUNAVAILABLE\b/, "overloaded"],
  [/api[_ ]key|unauthori[sz]ed|authentication|permission denied|forbidden|\/login\b/i, "auth"],
  [/ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|fetch failed|socket hang up|network[_ ]error|connection (?:error|refused|reset)|timed? ?out/i, "network"],
  [/\baborted\b/i, "aborted"],
];

function codeForStatus(status: number, message: string): ErrorCode {
  if (status === 401 || status === 403) return "auth";
  if (status === 429) return "rate_limit";
  if (status === 503 || status === 529) return "overloaded";
  if (status === 408) return "network";
  if (status >= 400 && status < 500 && PHRASES[0]![0].test(message)) return "context_length";
  return "provider";
}

/** Classify a backend's error message: by HTTP status where it carries one, then by well-known phrases. */
export function classifyError(message: string): ClassifiedError {
  for (const pattern of STATUS_PATTERNS) {
    const match = pattern.exec(message);
    if (!match) continue;
    const status = Number(match[1]);
    const code = codeForStatus(status, message);
    const retryable = RETRYABLE.has(code) || (code === "provider" && status >= 500);
    return { code, retryable, http_status: status };
  }
  for (const [pattern, code] of PHRASES) {
    if (pattern.test(message)) return { code, retryable: RETRYABLE.has(code) };
  }
  return { code: "unknown", retryable: false };
}

/**
 * Why a backend refused to start, read from its stderr: credentials → auth,
 * anything else → backend_startup (both mean "fix your set-up, do not retry").
 */
export function classifyStartupFailure(stderrText: string): "auth" | "config" | "backend_startup" {
  if (/no api key|api[_ ]key|unauthori[sz]ed|authentication|\/login\b|credentials/i.test(stderrText)) return "auth";
  if (/unknown (?:provider|option|model|flag)|usage:|invalid (?:option|value|choice)|no such option|error: option/i.test(stderrText)) return "config";
  return "backend_startup";
}
