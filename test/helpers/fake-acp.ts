import { fileURLToPath } from "node:url";

/** The fake ACP agent (test/fixtures/acp/fake-agent.mjs): a tiny agent on the SDK's agent side. */
export const FAKE_AGENT = fileURLToPath(new URL("../fixtures/acp/fake-agent.mjs", import.meta.url));

/** `run` of the fake agent: node as --bin, its script as the agent's own argument, then `more`. */
export const fakeAcpArgs = (...more: string[]): string[] => [
  "run",
  "--backend",
  "acp",
  "--bin",
  process.execPath,
  "--backend-arg",
  FAKE_AGENT,
  ...more,
];

/** The hand-written hostile ACP agent (test/fixtures/acp/hostile-agent.mjs): it breaks the protocol as an SDK never would. */
export const HOSTILE_AGENT = fileURLToPath(new URL("../fixtures/acp/hostile-agent.mjs", import.meta.url));

/** `run` of the hostile agent: `agent` its own arguments (the scenario first), then `flags`. */
export const hostileAcpArgs = (agent: string[], flags: string[]): string[] => [
  "run",
  "--backend",
  "acp",
  "--bin",
  process.execPath,
  ...[HOSTILE_AGENT, ...agent].flatMap((arg) => ["--backend-arg", arg]),
  ...flags,
];
