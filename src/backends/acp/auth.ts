// How agentstream answers an agent that wants a login (session/new answered -32000 "auth required"): with a
// method that needs no user, or not at all (the run then fails `auth`, exit 77, naming how to log in).
// The spec's methods (SDK 2.4 `AuthMethod`): `agent` (the default type: the agent logs in by itself, which
// may open a browser or wait for a person) and `terminal` (an interactive login the client runs in a
// terminal). An agent before the spec dropped it may still offer `env_var` (variables the agent reads).
import { asText, isObject, nonEmpty, objectOrEmpty } from "../../core/fields.js";
import { ownTable } from "../../core/own-table.js";

/**
 * The `agent` methods that read an API key from the environment and nothing else, as the agent's own docs
 * say: by agent name (`agentInfo.name`), the method's id and the variables it reads (any one set will do).
 * Any other `agent` method may open a browser or wait for a person: never tried by a headless run.
 */
const KEY_FROM_ENV = ownTable<Readonly<Record<string, readonly string[]>>>({
  // Its README, "Authentication": "API key via CODEX_API_KEY or OPENAI_API_KEY" (2.6.0; its source reads
  // the first of them set). Its `chat-gpt` method opens a browser.
  "@agentclientprotocol/codex-acp": { "api-key": ["CODEX_API_KEY", "OPENAI_API_KEY"] },
});

/** The auth methods an `initialize` response offers. */
function methodsOf(initializeResult: unknown): Record<string, unknown>[] {
  const methods = objectOrEmpty(initializeResult).authMethods;
  return Array.isArray(methods) ? methods.filter(isObject) : [];
}

/** The variables an `env_var` method reads (the spec's former AuthMethodEnvVar: `vars: [{name}]`). */
function varsOf(method: Record<string, unknown>): string[] {
  const vars = Array.isArray(method.vars) ? method.vars.filter(isObject) : [];
  return vars.map((v) => asText(v.name)).filter((name) => name !== "");
}

/** What a method reads of the environment: an `env_var` method's variables (all), a known `agent` method's (any one). */
function keyVarsOf(method: Record<string, unknown>, agentName: string | undefined): { vars: string[]; all: boolean } {
  if (method.type === "env_var") return { vars: varsOf(method), all: true };
  // `agent` is the type a method without one has.
  if (method.type !== undefined && method.type !== "agent") return { vars: [], all: false };
  const known = agentName === undefined ? undefined : KEY_FROM_ENV[agentName];
  const id = asText(method.id);
  return { vars: [...((known && Object.hasOwn(known, id) ? known[id] : undefined) ?? [])], all: false };
}

const agentNameOf = (initializeResult: unknown) =>
  nonEmpty(objectOrEmpty(objectOrEmpty(initializeResult).agentInfo).name);

/**
 * The method agentstream may `authenticate` with when the agent demands it: one that only reads a key from the
 * environment, where that key is set: an `env_var` method whose variables are all set (an agent of the spec
 * before 2026-07-27: it names them, and reads nothing else), or an `agent` method the agent's docs say reads an
 * API key from named variables (KEY_FROM_ENV). Never a `terminal` method (a person's login in a TUI), nor any
 * other `agent` method (it may open a browser or wait for a person).
 */
export function usableAuthMethod(initializeResult: unknown, env: NodeJS.ProcessEnv): string | undefined {
  const agentName = agentNameOf(initializeResult);
  for (const method of methodsOf(initializeResult)) {
    const { vars, all } = keyVarsOf(method, agentName);
    const set = (name: string) => (env[name] ?? "") !== "";
    if (vars.length > 0 && (all ? vars.every(set) : vars.some(set))) return nonEmpty(method.id);
  }
  return undefined;
}

/**
 * The agent's auth methods as a failure names them, each with how to use it headless where there is a way:
 * `api-key (API Key: set CODEX_API_KEY or OPENAI_API_KEY), chat-gpt (ChatGPT: log in with the agent itself before the run)`.
 * Only names and variable names: never a value.
 */
export function authMethodsText(initializeResult: unknown): string | undefined {
  const agentName = agentNameOf(initializeResult);
  const said = methodsOf(initializeResult).map((method) => {
    const id = asText(method.id) || "?";
    const name = nonEmpty(method.name);
    const { vars, all } = keyVarsOf(method, agentName);
    const how =
      vars.length > 0
        ? `set ${vars.join(all ? ", " : " or ")}`
        : method.type === "terminal"
          ? "a person's login in a terminal, before the run"
          : "log in with the agent itself before the run";
    return `${id} (${[name, how].filter((w) => w !== undefined).join(": ")})`;
  });
  return said.length > 0 ? said.join(", ") : undefined;
}
