// A TOML basic string, for what agentstream hands a backend in TOML (Gemini CLI's policy file,
// Codex's -c KEY=VALUE, whose VALUE it parses as TOML).

/** The escapes TOML has a short form for. */
const SHORT: Record<string, string> = {
  "\b": "\\b",
  "\t": "\\t",
  "\n": "\\n",
  "\f": "\\f",
  "\r": "\\r",
  '"': '\\"',
  "\\": "\\\\",
};

/**
 * TEXT as a TOML basic string: `"`, `\` and every control character TOML forbids raw (U+0000 to
 * U+001F, U+007F) escaped. (A JSON string is not one: JSON leaves DEL raw, which TOML refuses.)
 * TEXT must be well-formed Unicode: TOML has no escape for half a surrogate pair.
 */
export function tomlString(text: string): string {
  const escaped = text.replace(
    /["\\\u0000-\u001f\u007f]/g,
    (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`,
  );
  return `"${escaped}"`;
}
