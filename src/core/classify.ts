import type { ErrorCode } from "../canonical/events.js";

export interface ClassifiedError {
  code: ErrorCode;
  retryable: boolean;
  http_status?: number;
}

const RETRYABLE: ReadonlySet<ErrorCode> = new Set(["rate_limit", "overloaded", "network"]);

// Where providers put the HTTP status: "Error code: 529 - {...}" (EvoSci, via the
// Python SDKs), "400: {...}" (Atomic, pi >= 0.84), "400 Invalid request" (pi 0.73),
// "CAPIError: 400 The requested model ..." (Copilot CLI, its API's error class first),
// "status code 503", "HTTP 502", "... (code: 429)" (OpenRouter's errors, in EvoSci), "API Error: 400 ..." (Claude Code).
const STATUS_PATTERNS = [
  /^\s*(?:[A-Za-z]*(?:API|Api|HTTP|Http)[A-Za-z]*Error:\s*)?(?:Error code:\s*)?([1-5]\d\d)\b[\s:-]/,
  /\b(?:status(?: code)?|HTTP)[\s:]+([1-5]\d\d)\b/i,
  // Google APIs' error body, quoted in the message: {"error":{"code":400,...}} (Gemini CLI).
  /"code"\s*:\s*([1-5]\d\d)\b/,
  /\(code:\s*([1-5]\d\d)\)/,
  // Claude Code's own words for a failed API call, anywhere in a message ("Internal error: API Error: 400 ...",
  // Claude's ACP adapter).
  /\bAPI Error:\s*([1-5]\d\d)\b/,
];

// A used-up quota or credit comes as a 429 (OpenAI) or 400 (Anthropic), but waiting does not help.
const NO_QUOTA = /insufficient_quota|exceeded your current quota|credit balance is too low/i;

// Phrases, in order; the retryable flag is the code's unless given. EvoScientist's own
// retry (middleware/model_retry.py) treats a response that ended with finish_reason=error,
// Anthropic's api_error and OpenAI's server_error as transient, like a 5xx.
const PHRASES: Array<[RegExp, ErrorCode, boolean?]> = [
  [
    /context[_ ]length|context[_ ]window|maximum context|prompt is too long|too many tokens|string_too_long|max_tokens_exceeded|output too large/i,
    "context_length",
  ],
  [NO_QUOTA, "provider", false],
  [/rate[_ ]limit|too many requests|resource[_ ]exhausted/i, "rate_limit"],
  [/overloaded/i, "overloaded"],
  // gRPC status names, as Google APIs write them (case matters: "unavailable" is an ordinary word).
  [/\bUNAVAILABLE\b/, "overloaded"],
  // Credentials the model API refused: Google's gRPC PERMISSION_DENIED and Anthropic's permission_error are its 403s.
  [/\bPERMISSION_DENIED\b|\bpermission_error\b/, "auth"],
  // A file the agent or its tool may not touch ("Permission denied: cannot write to /path", EACCES): the tool failed,
  // the credentials are fine. Before the auth phrases, which a path or a tool's output can contain too.
  [/permission denied|operation not permitted|read-only file system|\bEACCES\b|\bEPERM\b|\bEROFS\b/i, "tool"],
  // "forbidden" alone is not here: a 403 says so with its status, and a tool or sandbox says it of files too.
  [/api[_ -]key|unauthori[sz]ed|authentication|invalid credentials|\/login\b/i, "auth"],
  [
    /ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|fetch failed|socket hang up|network[_ ]error|connection (?:error|refused|reset|aborted)|timed? ?out|peer closed connection|incomplete chunked read|server disconnected|remote end closed connection|cannot connect to host|name resolution|name or service not known/i,
    "network",
  ],
  [/finish_reason\s*[=:]\s*['"]?error\b|\bapi_error\b|\bserver_error\b|internal server error/i, "provider", true],
  [/exhausted its output budget/i, "provider", false],
  [/\baborted\b/i, "aborted"],
];

function codeForStatus(status: number, message: string): ErrorCode {
  if (status === 401 || status === 403) return "auth";
  if (NO_QUOTA.test(message)) return "provider";
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
  for (const [pattern, code, retryable] of PHRASES) {
    if (pattern.test(message)) return { code, retryable: retryable ?? RETRYABLE.has(code) };
  }
  return { code: "unknown", retryable: false };
}

/**
 * Why a backend refused to start, read from its stderr: credentials → auth,
 * anything else → backend_startup (both mean "fix your set-up, do not retry").
 */
export function classifyStartupFailure(stderrText: string): "auth" | "config" | "backend_startup" {
  if (/no api key|api[_ ]key|unauthori[sz]ed|authentication|\/login\b|credentials/i.test(stderrText)) return "auth";
  if (
    /unknown (?:provider|option|model|flag)|usage:|invalid (?:option|value|choice)|no such option|error: option/i.test(
      stderrText,
    )
  )
    return "config";
  return "backend_startup";
}
