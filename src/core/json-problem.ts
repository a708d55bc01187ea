// Why JSON.parse refused a text, in words that quote none of it. V8 quotes a slice
// of the input, cut short ("Unexpected token 'Q', "{"a": Qm4plain-v"... is not valid
// JSON"): cut, a secret in it is no longer the secret, and no redactor finds it.

/** The parse error's message, the slice of the input it quotes left out. */
export function jsonProblem(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (!/ is not valid JSON$/.test(message)) return message;
  // `Unexpected token 'x', "…"… is not valid JSON`, or only `"…" is not valid JSON`.
  const quote = message.indexOf(', "');
  const said = quote !== -1 ? message.slice(0, quote) : message.startsWith('"') ? "" : message;
  return said === "" ? "not valid JSON" : `${said}: not valid JSON`;
}
