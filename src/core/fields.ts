// Native values can be any JSON: read them defensively, never trusting a type.

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

/** A non-empty string, or undefined. */
export function nonEmpty(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** Text for a field that must be a string: other JSON is kept as its JSON text. */
export function asText(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === undefined || v === null) return "";
  return JSON.stringify(v);
}

// Beyond 2^53 a number is no exact count, and sums of such values overflow to
// Infinity, which JSON writes as null: treat it as not reported.
function plausibleNumber(v: unknown): v is number {
  return typeof v === "number" && v >= 0 && v <= Number.MAX_SAFE_INTEGER;
}

/** A count: a non-negative number up to 2^53, rounded; anything else is "not reported". */
export function count(v: unknown): number | undefined {
  return plausibleNumber(v) ? Math.round(v) : undefined;
}

/** An amount (a cost): a non-negative number up to 2^53; anything else is "not reported". */
export function amount(v: unknown): number | undefined {
  return plausibleNumber(v) ? v : undefined;
}

/**
 * Milliseconds for a field that must be written (a retry's delay): a non-negative
 * number, rounded and capped at 2^53 - 1 (a longer wait is "at least that long");
 * anything else is undefined.
 */
export function cappedMs(v: unknown): number | undefined {
  return typeof v === "number" && v >= 0 ? Math.min(Math.round(v), Number.MAX_SAFE_INTEGER) : undefined;
}

/** cappedMs of a duration given in seconds. */
export function cappedMsFromSeconds(v: unknown): number | undefined {
  return typeof v === "number" ? cappedMs(v * 1000) : undefined;
}

export function bool(v: unknown): boolean | undefined {
  return typeof v === "boolean" ? v : undefined;
}

/** The text of a native error: an error object's non-empty `message`, or the error itself when it is non-empty text. */
export function errorMessage(error: unknown): string | undefined {
  return isObject(error) ? nonEmpty(error.message) : nonEmpty(error);
}

export function objectOrEmpty(v: unknown): Record<string, unknown> {
  return isObject(v) ? v : {};
}

export function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.map(asText) : [];
}

/**
 * The object with its undefined fields deleted, in place, so a key is absent where nothing was said
 * (optional fields are absent, never undefined; JSON and the schemas leave them out). Every caller,
 * translators, report and ATIF export alike, hands it an object literal of its own: none is copied.
 */
export function defined<T extends object>(o: T): T {
  for (const [k, v] of Object.entries(o)) if (v === undefined) Reflect.deleteProperty(o, k);
  return o;
}

// RFC 3339 with a time zone, as backends write their own times.
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
// Years 0000-9999: what a four-digit RFC 3339 year can say.
const EARLIEST_MS = Date.parse("0000-01-01T00:00:00.000Z");
const LATEST_MS = Date.parse("9999-12-31T23:59:59.999Z");
// UTC with milliseconds, hours 00-23: Date writes such a string back unchanged when its day exists.
const UTC_MS = /^\d{4}-\d{2}-\d{2}T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
/** "YYYY-MM-DDT" of the last such string Date wrote back unchanged: a day that exists. */
let knownDay = "-";

/**
 * A backend's own time as the envelope's native_ts: UTC with milliseconds, like ts.
 * Read from an RFC 3339 string or from epoch milliseconds; anything else is "not reported".
 */
export function nativeTime(v: unknown): string | undefined {
  // Gemini CLI and Atomic stamp every line, already in this form: kept as is, without a Date,
  // once its day is known to be one (2026-02-30 would become 2026-03-02).
  if (typeof v === "string" && v.length === 24 && UTC_MS.test(v) && v.startsWith(knownDay)) return v;
  const ms = typeof v === "number" ? v : typeof v === "string" && RFC3339.test(v) ? Date.parse(v) : NaN;
  if (!(ms >= EARLIEST_MS && ms <= LATEST_MS)) return undefined;
  const utc = new Date(ms).toISOString();
  if (utc === v) knownDay = utc.slice(0, 11);
  return utc;
}
