/**
 * A variable of JSON an agent reads (OpenCode's OPENCODE_CONFIG_CONTENT, Codex's adapter's CODEX_CONFIG): these
 * members over the caller's own (kept, under them, where it is an object).
 */
export function mergedJsonEnv(env: NodeJS.ProcessEnv, name: string, members: Record<string, unknown>): string {
  let given: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(env[name] ?? "{}");
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
      given = parsed as Record<string, unknown>;
  } catch {
    // The agents skip a variable that is not JSON; so do these members.
  }
  return JSON.stringify({ ...given, ...members });
}
