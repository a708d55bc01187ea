import fc from "fast-check";

const WORDS = [
  "Let me",
  " list",
  " the files.",
  "Done",
  "résumé",
  "日本語",
  "🙂",
  "\n",
  "\t",
  "  ",
  "Error: ",
  "429 Too Many Requests",
];

/** Text a model could plausibly write. */
export const plausibleText = fc.array(fc.constantFrom(...WORDS), { maxLength: 5 }).map((parts) => parts.join(""));

/** Characters that break naive framing or decoding: line separators, CR, NUL, BOM, lone surrogates. */
const trickyChar = fc.constantFrom(
  "\u2028",
  "\u2029",
  "\r",
  "\n",
  "\u0000",
  "\ufeff",
  "\ud800",
  "\udfff",
  "\u0085",
  "\u3000",
  "\u00a0",
);

/** A long string (tens of kilobytes): sizes past any small buffer, without slowing every case. */
const hugeText = fc
  .tuple(fc.constantFrom("x", "é", "😀", "\u2028", " "), fc.integer({ min: 10_000, max: 60_000 }))
  .map(([unit, n]) => unit.repeat(n));

/** Any text a field might hold: plausible, non-ASCII, tricky, whitespace-only, occasionally huge. */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: plausibleText, weight: 6 },
  { arbitrary: fc.string({ unit: "grapheme", maxLength: 12 }), weight: 2 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 12 }), weight: 2 },
  {
    arbitrary: fc.string({
      unit: fc.oneof(trickyChar, fc.string({ unit: "grapheme-ascii", maxLength: 3 })),
      maxLength: 8,
    }),
    weight: 2,
  },
  { arbitrary: fc.constantFrom("", " ", "\n\n", "\t"), weight: 1 },
  { arbitrary: hugeText, weight: 1 },
);

/** An error message as providers word them, or anything else. */
export const errorMessage = fc.oneof(
  fc.constantFrom(
    "",
    "Error code: 529 - {'type': 'error', 'error': {'type': 'overloaded_error'}}",
    "Error code: 401 - invalid x-api-key",
    '400: {"error":{"message":"prompt is too long"}}',
    "503 Service Unavailable",
    "fetch failed",
    "Request was aborted",
    "rate limit exceeded",
  ),
  anyText,
);

/** Ids from a small pool, so that duplicates, mismatches and empty ids happen often. */
export const pooledId = (prefix: string) =>
  fc.oneof(
    { arbitrary: fc.constantFrom(`${prefix}1`, `${prefix}2`, `${prefix}3`, "", "__proto__"), weight: 4 },
    { arbitrary: anyText, weight: 1 },
  );
