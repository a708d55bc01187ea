// Gemini CLI's policy file (TOML): the deny rules of one run. Gemini drops every rule of a file it
// cannot parse, so each name is written as a TOML basic string by TOML's own escaping rules.

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

/** A policy that denies each tool; above the built-in rules, yolo's allow-all included. */
export function denyPolicy(tools: readonly string[]): string {
  return tools
    .map((tool) => `[[rule]]\ntoolName = ${tomlString(tool)}\ndecision = "deny"\npriority = 999\n`)
    .join("\n");
}
