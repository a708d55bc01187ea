import { asText, isObject, nonEmpty, objectOrEmpty } from "../../core/fields.js";

/** The auth methods an `initialize` response offers. */
function methodsOf(initializeResult: unknown): Record<string, unknown>[] {
  const methods = objectOrEmpty(initializeResult).authMethods;
  return Array.isArray(methods) ? methods.filter(isObject) : [];
}

/** The variables an `env_var` method reads (ACP's unstable AuthMethodEnvVar: `vars: [{name}]`). */
function varsOf(method: Record<string, unknown>): string[] {
  const vars = Array.isArray(method.vars) ? method.vars.filter(isObject) : [];
  return vars.map((v) => asText(v.name)).filter((name) => name !== "");
}

/**
 * The method agentstream may `authenticate` with when the agent demands it (session/new answered
 * -32000): an `env_var` method whose variables are all set, which needs no user. An `agent` method may
 * open a browser or wait for a login and a `terminal` one is a TUI: neither is tried.
 */
export function usableAuthMethod(initializeResult: unknown, env: NodeJS.ProcessEnv): string | undefined {
  for (const method of methodsOf(initializeResult)) {
    const vars = varsOf(method);
    if (method.type === "env_var" && vars.length > 0 && vars.every((name) => (env[name] ?? "") !== ""))
      return nonEmpty(method.id);
  }
  return undefined;
}

/** The agent's auth methods as a failure names them: `oauth (Log in with Google), api-key (API key: set GEMINI_API_KEY)`. */
export function authMethodsText(initializeResult: unknown): string | undefined {
  const said = methodsOf(initializeResult).map((method) => {
    const id = asText(method.id) || "?";
    const name = nonEmpty(method.name);
    const vars = varsOf(method);
    const how = vars.length > 0 ? `set ${vars.join(", ")}` : undefined;
    const words = [name, how].filter((w) => w !== undefined).join(": ");
    return words === "" ? id : `${id} (${words})`;
  });
  return said.length > 0 ? said.join(", ") : undefined;
}
