// --backend qwen and --transport acp end to end: the built CLI drives the fake ACP agent under the agent's
// own name (test/fixtures/acp/argv-agent.mjs writes the arguments it was started with), and refuses the
// transport where the backend does not speak ACP.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { run as runAgentLibrary } from "../../../src/index.js";
import { parseJsonl, runCli } from "../../helpers/cli.js";

const ARGV_AGENT = fileURLToPath(new URL("../../fixtures/acp/argv-agent.mjs", import.meta.url));
const QWEN_TEXT = fileURLToPath(new URL("../../fixtures/live/qwen-acp-0.24.4/text.jsonl", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "agentstream-acp-transport-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let runs = 0;
/** Run the CLI with the fake agent as --bin; what it wrote, and the arguments and environment the agent was started with. */
async function runAgent(args: string[], prompt: string, env: NodeJS.ProcessEnv = {}) {
  const argvFile = join(tmp, `argv-${++runs}.json`);
  const envFile = join(tmp, `env-${runs}.json`);
  const run = await runCli(["run", "--bin", ARGV_AGENT, ...args, "--", prompt], {
    env: { ...env, FAKE_ACP_ARGV_FILE: argvFile, FAKE_ACP_ENV_FILE: envFile },
  });
  const events = parseJsonl(run.stdout);
  const argv = run.code === 2 ? undefined : (JSON.parse(readFileSync(argvFile, "utf8")) as string[]);
  const agentEnv =
    run.code === 2 ? undefined : (JSON.parse(readFileSync(envFile, "utf8")) as Record<string, string | undefined>);
  return { run, events, argv, agentEnv, started: events[0], finished: events.at(-1)! };
}

describe("--backend qwen", () => {
  it("starts qwen --acp with its model and drives it over ACP; every event says qwen, run.started says acp", async () => {
    const { run, events, argv, started, finished } = await runAgent(
      ["--backend", "qwen", "--model", "qwen3-coder", "--backend-arg=--auth-type=openai"],
      "say text",
    );
    expect(run.code).toBe(0);
    expect(argv).toEqual(["--acp", "--model", "qwen3-coder", "--auth-type=openai"]);
    expect(new Set(events.map((e) => e.backend))).toEqual(new Set(["qwen"]));
    expect(started).toMatchObject({ type: "run.started", transport: "acp" });
    expect(events.find((e) => e.type === "session.started")).toMatchObject({
      agent_info: { name: "fake-agent", version: "1.0.0" },
    });
    expect(finished).toMatchObject({ status: "succeeded", result: { text: "Hello from the fake agent." } });
  });

  it("answers its permission requests live by the rules", async () => {
    const { run, finished } = await runAgent(["--backend", "qwen", "--deny-tool", "shell"], "ask");
    expect(run.code).toBe(0);
    expect(finished).toMatchObject({ status: "succeeded", result: { text: "I was not allowed." } });
  });

  it("refuses --provider (exit 2, nothing started)", async () => {
    const { run } = await runAgent(["--backend", "qwen", "--provider", "openai"], "say text");
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("Qwen Code has no provider flag");
  });

  it("normalize --from qwen reads its ACP recording under its name; --from auto still finds acp", async () => {
    const asQwen = await runCli(["normalize", "--from", "qwen", QWEN_TEXT]);
    expect(asQwen.code).toBe(0);
    const events = parseJsonl(asQwen.stdout);
    expect(events[0]).toMatchObject({ backend: "qwen", transport: "acp", detection: "given" });
    expect(events.find((e) => e.type === "session.started")).toMatchObject({
      agent_info: { name: "qwen-code", version: "0.24.4" },
    });
    // The content is ACP, which is what Qwen Code writes: no "try --from acp".
    expect(asQwen.stderr).not.toContain("looks like");
    const auto = parseJsonl((await runCli(["normalize", QWEN_TEXT])).stdout);
    expect(auto[0]).toMatchObject({ backend: "acp", detection: "detected" });
    expect(auto[0]).not.toHaveProperty("transport");
  });
});

describe("--transport acp", () => {
  const cases = [
    { backend: "gemini", model: true, argv: ["--acp", "--model", "m1"] },
    { backend: "copilot", model: true, argv: ["--acp", "--model", "m1"] },
    { backend: "opencode", model: true, argv: ["acp"] },
  ];
  for (const { backend, model, argv: expected } of cases) {
    it(`${backend}: started in ACP mode, its rules answered live, events named ${backend}`, async () => {
      const { run, events, argv, started, finished } = await runAgent(
        ["--backend", backend, "--transport", "acp", ...(model ? ["--model", "m1"] : []), "--allow-tool", "shell"],
        "ask",
      );
      expect(run.code).toBe(0);
      expect(argv).toEqual(expected);
      expect(new Set(events.map((e) => e.backend))).toEqual(new Set([backend]));
      expect(started).toMatchObject({ transport: "acp", command: [ARGV_AGENT, ...expected] });
      expect(events.find((e) => e.type === "input.requested")).toMatchObject({ kind: "approval" });
      expect(finished).toMatchObject({ status: "succeeded", result: { text: "Made x." } });
    });
  }

  it("a request no rule allows ends the run needs_input (exit 3), as with --backend acp", async () => {
    const { run, finished } = await runAgent(["--backend", "gemini", "--transport", "acp"], "ask");
    expect(run.code).toBe(3);
    expect(finished).toMatchObject({ status: "needs_input" });
  });

  it("OpenCode over ACP takes --model in its config variable (opencode acp has no model flag), over the caller's config", async () => {
    const { run, argv, agentEnv } = await runAgent(
      ["--backend", "opencode", "--transport", "acp", "--model", "fake/m1"],
      "say text",
      { OPENCODE_CONFIG_CONTENT: '{"model":"fake/m0","share":"disabled"}' },
    );
    expect(run.code).toBe(0);
    expect(argv).toEqual(["acp"]);
    expect(JSON.parse(agentEnv!.OPENCODE_CONFIG_CONTENT!)).toEqual({ model: "fake/m1", share: "disabled" });
    // Without --model, the caller's config is left as it was.
    const plain = await runAgent(["--backend", "opencode", "--transport", "acp"], "say text", {
      OPENCODE_CONFIG_CONTENT: '{"model":"fake/m0"}',
    });
    expect(plain.agentEnv!.OPENCODE_CONFIG_CONTENT).toBe('{"model":"fake/m0"}');
  });

  // pi-acp never asks (rules stay refused for it under --backend acp): pi has no --transport acp.
  for (const backend of ["evosci", "atomic", "pi"]) {
    it(`is refused for ${backend}, which does not speak ACP (exit 2, nothing on stdout)`, async () => {
      const { run } = await runAgent(["--backend", backend, "--transport", "acp"], "say text");
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(/--transport acp: .* does not speak the Agent Client Protocol/);
      expect(run.stderr).toContain("Gemini CLI, Codex, Claude Code, OpenCode, Copilot CLI speak it");
    });
  }

  it("an unknown transport is refused (exit 2)", async () => {
    const { run } = await runAgent(["--backend", "gemini", "--transport", "mcp"], "say text");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--transport");
  });

  it("native stays the default: without it (or with native) Gemini CLI runs its own stream-json", async () => {
    for (const flags of [[], ["--transport", "native"]]) {
      const run = await runCli(["run", "--backend", "gemini", "--bin", join(tmp, "no-such-gemini"), ...flags, "hi"]);
      const started = parseJsonl(run.stdout)[0]!;
      expect(started.command).toContain("stream-json");
      expect(started).not.toHaveProperty("transport");
    }
  });

  it("the library's run() takes it as option transport, and words its refusal so", async () => {
    const running = runAgentLibrary({
      backend: "copilot",
      transport: "acp",
      bin: ARGV_AGENT,
      prompt: "ask",
      allowTools: ["shell"],
    });
    let next = await running.next();
    const backends = new Set<string>();
    for (; !next.done; next = await running.next()) backends.add(next.value.backend);
    expect([...backends]).toEqual(["copilot"]);
    expect(next.value).toMatchObject({ status: "succeeded", resultText: "Made x." });
    await expect(runAgentLibrary({ backend: "pi", transport: "acp", prompt: "hi" }).next()).rejects.toThrow(
      "option transport acp: pi does not speak the Agent Client Protocol",
    );
  });

  describe("Claude Code and Codex through their ACP adapters: --bin names the adapter", () => {
    const adapters = [
      {
        backend: "claude",
        variable: "AGENTSTREAM_CLAUDE_ACP_BIN",
        model: (env: Record<string, string | undefined>) => env.ANTHROPIC_MODEL,
      },
      {
        backend: "codex",
        variable: "AGENTSTREAM_CODEX_ACP_BIN",
        model: (env: Record<string, string | undefined>) => JSON.parse(env.CODEX_CONFIG ?? "{}").model,
      },
    ];
    for (const { backend, variable, model } of adapters) {
      it(`${backend}: the adapter started without arguments, --model in its environment, rules answered live`, async () => {
        const { run, events, argv, agentEnv, started, finished } = await runAgent(
          ["--backend", backend, "--transport", "acp", "--model", "m1", "--allow-tool", "shell"],
          "ask",
        );
        expect(run.code, run.stderr).toBe(0);
        expect(argv).toEqual([]);
        expect(model(agentEnv!)).toBe("m1");
        expect(new Set(events.map((e) => e.backend))).toEqual(new Set([backend]));
        expect(started).toMatchObject({ transport: "acp", command: [ARGV_AGENT] });
        expect(events.find((e) => e.type === "input.answered")).toMatchObject({ decision: "allow", by: "rule" });
        expect(finished).toMatchObject({ status: "succeeded", result: { text: "Made x." } });
      });

      it(`${backend}: without --bin, ${variable} names the adapter (never the agent's own variable)`, async () => {
        const run = await runCli(["run", "--backend", backend, "--transport", "acp", "--", "say text"], {
          env: { [variable]: ARGV_AGENT, [`AGENTSTREAM_${backend.toUpperCase()}_BIN`]: join(tmp, "not-the-agent") },
        });
        expect(run.code, run.stderr).toBe(0);
        expect(parseJsonl(run.stdout)[0]).toMatchObject({ command: [ARGV_AGENT], transport: "acp" });
      });
    }

    it("codex: --provider reaches the adapter as MODEL_PROVIDER, --model merged into the caller's CODEX_CONFIG", async () => {
      const { run, agentEnv } = await runAgent(
        ["--backend", "codex", "--transport", "acp", "--model", "m1", "--provider", "fake"],
        "say text",
        { CODEX_CONFIG: '{"model":"m0","model_reasoning_effort":"low"}' },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(agentEnv!.MODEL_PROVIDER).toBe("fake");
      expect(JSON.parse(agentEnv!.CODEX_CONFIG!)).toEqual({ model: "m1", model_reasoning_effort: "low" });
    });

    it("claude: --provider is refused (exit 2): the adapter has no such setting", async () => {
      const { run } = await runAgent(["--backend", "claude", "--transport", "acp", "--provider", "x"], "say text");
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
    });

    it("an adapter not found: exit 69, naming the adapter's package and variable", async () => {
      const run = await runCli(["run", "--backend", "codex", "--transport", "acp", "--", "say text"], {
        env: { PATH: tmp },
      });
      expect(run.code).toBe(69);
      expect(run.stderr).toContain("@agentclientprotocol/codex-acp");
      expect(run.stderr).toContain("AGENTSTREAM_CODEX_ACP_BIN");
    });
  });

  describe("Codex's adapter (as the fake agent names itself): set to read-only so that it asks", () => {
    const codex = { FAKE_ACP_NAME: "@agentclientprotocol/codex-acp" };

    it("a call a rule rejects ends its turn cancelled (Codex aborts on a rejection): the run succeeded, exit 0", async () => {
      const { run, events, finished } = await runAgent(
        ["--backend", "codex", "--transport", "acp", "--deny-tool", "shell"],
        "ask",
        codex,
      );
      expect(run.code, run.stderr).toBe(0);
      expect(events.find((e) => e.type === "input.answered")).toMatchObject({ decision: "reject", by: "rule" });
      expect(events.find((e) => e.type === "tool.completed")).toMatchObject({ status: "failed" });
      expect(finished).toMatchObject({ status: "succeeded", exit_code: 0 });
    });

    it("a call no rule allows ends the run needs_input (exit 3); --approvals auto leaves its own mode, unasked", async () => {
      const norule = await runAgent(["--backend", "codex", "--transport", "acp"], "ask", codex);
      expect(norule.run.code).toBe(3);
      expect(norule.finished).toMatchObject({ status: "needs_input" });
      const free = await runAgent(["--backend", "codex", "--transport", "acp", "--approvals", "auto"], "ask", codex);
      expect(free.events.some((e) => e.type === "input.requested")).toBe(false);
      expect(free.finished).toMatchObject({ status: "succeeded", result: { text: "Made x." } });
    });
  });
});
