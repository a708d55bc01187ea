import type { ErrorCode } from "../canonical/events.js";

export interface ClassifiedError {
  code: ErrorCode;
  retryable: boolean;
  http_status?: number;
}

/** What a backend said of an error, beside its message: whose words, its error's name or kind, its HTTP status. */
export interface ErrorClues {
  /** Whose words (a backend's name, src/backends/classification.ts): its own rows apply, besides everyone's. */
  dialect?: string;
  /** The error's name or kind as the backend writes it (OpenCode's `error.name`, Gemini CLI's `error.type`, ...). */
  type?: string;
  /** The HTTP status where the backend gives it apart from its message. */
  status?: number;
}

/**
 * One row of the classification table: what an error says (its type, its status, words in its message) and
 * what it is. `example` is words (or a type) that reach this row, as a backend wrote them where one did: the
 * table test feeds each through every reading of its backend, native and ACP.
 */
export interface ClassificationRow {
  /** One backend's words only; everyone's where absent. */
  of?: string;
  type?: string;
  /** An HTTP status, or an inclusive range of them. */
  status?: number | readonly [number, number];
  text?: RegExp;
  code: ErrorCode;
  /** The code's own (rate_limit, overloaded, network) unless given. */
  retryable?: boolean;
  example: string;
}

const RETRYABLE: ReadonlySet<ErrorCode> = new Set(["rate_limit", "overloaded", "network"]);

// Where providers put the HTTP status: "Error code: 529 - {...}" (EvoSci, via the
// Python SDKs), "400: {...}" (Atomic, pi >= 0.84), "400 Invalid request" (pi 0.73),
// "CAPIError: 400 The requested model ..." (Copilot CLI, its API's error class first),
// "status code 503", "HTTP 502", "... (code: 429)" (OpenRouter's errors, in EvoSci), "API Error: 400 ..." (Claude Code),
// "Token refresh failed: 401" (OpenCode).
const STATUS_PATTERNS = [
  /^\s*(?:[A-Za-z]*(?:API|Api|HTTP|Http)[A-Za-z]*Error:\s*)?(?:Error code:\s*)?([1-5]\d\d)\b[\s:-]/,
  /\b(?:status(?: code)?|HTTP)[\s:]+([1-5]\d\d)\b/i,
  // Google APIs' error body, quoted in the message: {"error":{"code":400,...}} (Gemini CLI).
  /"code"\s*:\s*([1-5]\d\d)\b/,
  /\(code:\s*([1-5]\d\d)\)/,
  // Claude Code's own words for a failed API call, anywhere in a message ("Internal error: API Error: 400 ...",
  // Claude's ACP adapter).
  /\bAPI Error:\s*([1-5]\d\d)\b/,
  // A status after "failed: " (OpenCode's "Token refresh failed: 401"), the status alone or before its words.
  /\bfailed:\s*([1-5]\d\d)(?:$|[\s:.,;)-])/i,
];

// A used-up quota or credit comes as a 429 (OpenAI) or 400 (Anthropic), but waiting does not help.
const NO_QUOTA = /insufficient_quota|exceeded your current quota|credit balance is too low/i;
const CONTEXT =
  /context[_ ]length|context[_ ]window|maximum context|prompt is too long|too many tokens|string_too_long|max_tokens_exceeded|output too large/i;

/** The HTTP status, where an error has one: a status always decides (the last row takes any). */
export const STATUS_ROWS: readonly ClassificationRow[] = [
  { status: [401, 401], code: "auth", example: "401 Unauthorized" },
  { status: [403, 403], code: "auth", example: "403 Forbidden" },
  {
    status: [100, 599],
    text: NO_QUOTA,
    code: "provider",
    retryable: false,
    example: "Error code: 429 - You exceeded your current quota, please check your plan and billing details.",
  },
  { status: [429, 429], code: "rate_limit", example: "429 Too Many Requests" },
  { status: [503, 503], code: "overloaded", example: "503 Service Unavailable" },
  { status: [529, 529], code: "overloaded", example: "API Error: 529 Overloaded" },
  { status: [408, 408], code: "network", example: "408 Request Timeout" },
  {
    status: [400, 499],
    text: CONTEXT,
    code: "context_length",
    example: "400 prompt is too long: 210000 tokens > 200000 maximum",
  },
  { status: [500, 599], code: "provider", retryable: true, example: "500 Internal Server Error" },
  { status: [100, 599], code: "provider", retryable: false, example: "400 Invalid request" },
];

/** Words anyone's error may hold. */
export const WORD_ROWS: readonly ClassificationRow[] = [
  { text: CONTEXT, code: "context_length", example: "prompt is too long: 210000 tokens > 200000 maximum" },
  {
    text: NO_QUOTA,
    code: "provider",
    retryable: false,
    example: "Your credit balance is too low to access the Anthropic API.",
  },
  {
    text: /rate[_ ]limit|too many requests|resource[_ ]exhausted/i,
    code: "rate_limit",
    example: "Rate limit reached for requests",
  },
  { text: /overloaded/i, code: "overloaded", example: "Overloaded" },
  // gRPC status names, as Google APIs write them (case matters: "unavailable" is an ordinary word).
  { text: /\bUNAVAILABLE\b/, code: "overloaded", example: "UNAVAILABLE: The service is currently unavailable." },
  // Credentials the model API refused: Google's gRPC PERMISSION_DENIED and Anthropic's permission_error are its 403s.
  {
    text: /\bPERMISSION_DENIED\b|\bpermission_error\b/,
    code: "auth",
    example: "PERMISSION_DENIED: The caller does not have permission",
  },
  // A file the agent or its tool may not touch ("Permission denied: cannot write to /path", EACCES): the tool failed,
  // the credentials are fine. Before the auth phrases, which a path or a tool's output can contain too.
  {
    text: /permission denied|operation not permitted|read-only file system|\bEACCES\b|\bEPERM\b|\bEROFS\b/i,
    code: "tool",
    example: "EACCES: permission denied, open '/etc/shadow'",
  },
  // "forbidden" alone is not here: a 403 says so with its status, and a tool or sandbox says it of files too.
  {
    text: /api[_ -]key|unauthori[sz]ed|authentication|invalid credentials|\/login\b/i,
    code: "auth",
    example: "No API key found for openai.",
  },
  {
    text: /ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|fetch failed|socket hang up|network[_ ]error|connection (?:error|refused|reset|aborted)|timed? ?out|peer closed connection|incomplete chunked read|server disconnected|remote end closed connection|cannot connect to host|name resolution|name or service not known/i,
    code: "network",
    example: "connect ECONNREFUSED 127.0.0.1:443",
  },
  // EvoScientist's own retry (middleware/model_retry.py) treats a response that ended with finish_reason=error,
  // Anthropic's api_error and OpenAI's server_error as transient, like a 5xx.
  {
    text: /finish_reason\s*[=:]\s*['"]?error\b|\bapi_error\b|\bserver_error\b|internal server error/i,
    code: "provider",
    retryable: true,
    example: "the response ended with finish_reason=error",
  },
  {
    text: /exhausted its output budget/i,
    code: "provider",
    retryable: false,
    example: "the model exhausted its output budget",
  },
  // No row reads `aborted` from words: a run whose backend named its user's abort ends cancelled (outcome.ts), and
  // only a backend's structured field says that ("Aborted: required dependency `npm` is missing" is a failure).
];

/** The HTTP status a message carries, where it says one. */
function statusIn(message: string): number | undefined {
  for (const pattern of STATUS_PATTERNS) {
    const match = pattern.exec(message);
    if (match) return Number(match[1]);
  }
  return undefined;
}

function matches(row: ClassificationRow, message: string, clues: ErrorClues, status: number | undefined): boolean {
  if (row.of !== undefined && row.of !== clues.dialect) return false;
  if (row.type !== undefined && row.type !== clues.type) return false;
  if (row.status !== undefined) {
    const [low, high] = typeof row.status === "number" ? [row.status, row.status] : row.status;
    if (status === undefined || status < low || status > high) return false;
  }
  return row.text === undefined || row.text.test(message);
}

/**
 * Classify a backend's error by a table (src/backends/classification.ts holds the one every reading uses): the
 * first row that matches its type, its HTTP status (given, or in its message) and its words; `unknown` where none does.
 */
export function classifyBy(
  table: readonly ClassificationRow[],
  message: string,
  clues: ErrorClues = {},
): ClassifiedError {
  const status = clues.status ?? statusIn(message);
  const row = table.find((r) => matches(r, message, clues, status));
  if (!row) return { code: "unknown", retryable: false };
  return {
    code: row.code,
    retryable: row.retryable ?? RETRYABLE.has(row.code),
    ...(status !== undefined ? { http_status: status } : {}),
  };
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
