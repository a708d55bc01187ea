// What every strict JSON reader takes: I-JSON (RFC 7493) strings and a bounded nesting.

/**
 * Deepest nesting of arrays and objects in a written canonical line, the line
 * itself counting as one. The smallest default among common readers: .NET's
 * System.Text.Json and Json.NET stop past 64, Ruby's JSON past 100, serde_json
 * past 127, jq 1.6 past 128 objects (it counts an open object twice) or 256 arrays.
 */
export const MAX_LINE_DEPTH = 64;

/**
 * `value` with every array or object that would sit more than `levels` levels
 * down (this one being the first) written as its JSON text instead. What needs
 * no change is returned as it is; what does is copied, never changed in place.
 */
export function capNesting(value: unknown, levels: number): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (levels <= 0) return JSON.stringify(value);
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const capped = capNesting(value[i], levels - 1);
      if (capped !== value[i]) (copy ??= value.slice())[i] = capped;
    }
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const [key, child] of Object.entries(value)) {
    const capped = capNesting(child, levels - 1);
    if (capped !== child) setOwn((copy ??= { ...value }), key, capped);
  }
  return copy ?? value;
}

// A lone UTF-16 surrogate: a high one not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
// JSON text that may decode to a lone surrogate: some \uD800-\uDFFF escape (a raw one cannot survive UTF-8 decoding).
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** Whether JSON.parse(text) may hold a lone surrogate somewhere (false means surely not). */
export function mayHoldLoneSurrogate(text: string): boolean {
  return SURROGATE_ESCAPE.test(text);
}

/** A string with each lone surrogate replaced by U+FFFD, as I-JSON asks. */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, "\ufffd");
}

/** A freshly parsed JSON value with every string and key made well-formed, changed in place where it can be. */
export function wellFormedJson(value: unknown): unknown {
  if (typeof value === "string") return wellFormed(value);
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = wellFormedJson(value[i]);
    return value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.every((key) => wellFormed(key) === key)) {
    for (const key of keys) setOwn(record, key, wellFormedJson(record[key]));
    return record;
  }
  // A key changes: rebuild the object so the keys keep their order.
  const out: Record<string, unknown> = {};
  for (const key of keys) setOwn(out, wellFormed(key), wellFormedJson(record[key]));
  return out;
}

/** Set an own data property, also one named __proto__ (which plain assignment would take as the prototype). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
