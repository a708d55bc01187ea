// How deep a JSON value nests, found without recursing deeper than a bound: for a native line, a user's
// schema, an answer, before anything recursive (JSON.stringify, a validator) meets them.

/**
 * How deep arrays and objects nest, or limit + 1 as soon as it is found deeper.
 * Recursive, but never more than limit + 1 calls deep; no allocation per node
 * (it runs on nearly every native line).
 */
export function nestingDepth(value: unknown, limit: number): number {
  if (typeof value !== "object" || value === null) return 0;
  if (limit === 0) return 1;
  let deepest = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && deepest < limit; i++)
      deepest = Math.max(deepest, nestingDepth(value[i], limit - 1));
  } else {
    const record = value as Record<string, unknown>;
    for (const key in record) {
      if (deepest >= limit) break;
      deepest = Math.max(deepest, nestingDepth(record[key], limit - 1));
    }
  }
  return deepest + 1;
}
