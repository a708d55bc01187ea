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
