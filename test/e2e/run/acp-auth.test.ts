// ACP authentication end to end (issue 47 item 5): the built CLI drives the fake ACP agent (test/fixtures/acp/fake-agent.mjs)
// that answers session/new "authentication required" until authenticated. Each of its methods would log it in;
// agentstream uses only one that reads a key from the environment: an `env_var` method (the spec before it dropped
// the type) or an `agent` method the agent's own docs say reads one (Codex's adapter's api-key). Never a browser
// login (another `agent` method) nor a `terminal` one: the run fails auth (exit 77), naming how to log in. No key
// reaches any output.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseJsonl, runCli } from "../../helpers/cli.js";

const FAKE_AGENT = fileURLToPath(new URL("../../fixtures/acp/fake-agent.mjs", import.meta.url));
const ARGV_AGENT = fileURLToPath(new URL("../../fixtures/acp/argv-agent.mjs", import.meta.url));
const SECRET = "sk-agentstream-test-7f3a9c";

/** The fake agent as `--backend acp` (its own name) or as Codex's adapter under `--backend codex --transport acp`. */
const AS = {
  generic: { args: ["--backend", "acp", "--bin", process.execPath, "--backend-arg", FAKE_AGENT], env: {} },
  codex: {
    args: ["--backend", "codex", "--transport", "acp", "--bin", ARGV_AGENT],
    env: { FAKE_ACP_NAME: "@agentclientprotocol/codex-acp" },
  },
};

async function run(as: keyof typeof AS, env: Record<string, string>, ...flags: string[]) {
  const { args, env: named } = AS[as];
  const done = await runCli(["run", ...args, ...flags, "--", "say text"], {
    env: { FAKE_ACP_AUTH: "1", FAKE_ACP_KEY: "", CODEX_API_KEY: "", OPENAI_API_KEY: "", ...named, ...env },
  });
  return { ...done, events: parseJsonl(done.stdout) };
}

describe("acp auth: a method that reads a key from the environment, where it is set", () => {
  const cases = [
    { as: "generic", env: { FAKE_ACP_KEY: SECRET }, why: "an env_var method whose variables are set" },
    { as: "codex", env: { CODEX_API_KEY: SECRET }, why: "Codex's adapter's api-key, CODEX_API_KEY set" },
    { as: "codex", env: { OPENAI_API_KEY: SECRET }, why: "Codex's adapter's api-key, OPENAI_API_KEY set" },
  ] as const;
  for (const { as, env, why } of cases) {
    it(`${why}: authenticated, the run succeeds, the key on no output (not even with --raw --verbose)`, async () => {
      const done = await run(as, env, "--raw", "--verbose");
      expect(done.code, done.stderr).toBe(0);
      expect(done.events.at(-1)).toMatchObject({ status: "succeeded", result: { text: "Hello from the fake agent." } });
      expect(done.stdout).not.toContain(SECRET);
      expect(done.stderr).not.toContain(SECRET);
    });
  }
});

describe("acp auth: no method agentstream may use (each would log the fake agent in): auth, exit 77", () => {
  const cases = [
    {
      as: "generic",
      why: "a browser login (agent), a terminal login, an env_var method with its variable unset",
      offers:
        "fake-agent offers: login (Log in with a browser: log in with the agent itself before the run), tui (Log in in a terminal: a person's login in a terminal, before the run), api-key (API key: set FAKE_ACP_KEY)",
    },
    {
      as: "codex",
      why: "Codex's adapter with neither key set (its chat-gpt method opens a browser)",
      offers:
        "@agentclientprotocol/codex-acp offers: api-key (API Key: set CODEX_API_KEY or OPENAI_API_KEY), chat-gpt (ChatGPT: log in with the agent itself before the run)",
    },
  ] as const;
  for (const { as, why, offers } of cases) {
    it(`${why}: names each method and how to log in`, async () => {
      const done = await run(as, { FAKE_ACP_KEY_UNUSED: SECRET });
      expect(done.code, done.stderr).toBe(77);
      expect(done.events.at(-1)).toMatchObject({
        status: "failed",
        exit_code: 77,
        error: { code: "auth", message: expect.stringContaining(offers) },
      });
      expect(done.stdout).not.toContain(SECRET);
      expect(done.stderr).not.toContain(SECRET);
    });
  }

  it("a key in a variable the agent's docs do not name is not a reason to try an agent method", async () => {
    // Codex's adapter reads only CODEX_API_KEY and OPENAI_API_KEY: FAKE_ACP_KEY set changes nothing.
    const done = await run("codex", { FAKE_ACP_KEY: SECRET });
    expect(done.code).toBe(77);
  });

  it("a login found missing at the prompt (Claude's adapter, which offers no method headless): auth, exit 77, how to log in", async () => {
    const done = await runCli(["run", ...AS.generic.args, "--", "login"], { env: { ANTHROPIC_API_KEY: "" } });
    expect(done.code).toBe(77);
    expect(parseJsonl(done.stdout).at(-1)).toMatchObject({
      error: {
        code: "auth",
        message:
          "Authentication required (fake-agent offers no method: log in with it, or give it its API key in the environment)",
      },
    });
  });
});
