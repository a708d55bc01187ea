// A run missing a value it cannot go without is refused before anything starts (exit 2, nothing on stdout,
// the option named as each side names it), never a crash: `run --backend acp` without --bin was a TypeError
// with OPENAI_API_KEY set, and a stream `verify` rejects (command [null]) without it (issue 45).
import { describe, expect, it } from "vitest";
import { planRun, type AgentRequest } from "../../../src/app/agent-run.js";
import { BACKEND_NAMES } from "../../../src/backends/registry.js";
import { TRANSPORTS } from "../../../src/backends/definition.js";
import { UsageError } from "../../../src/core/errors.js";
import { run } from "../../../src/index.js";
import { runCli } from "../../helpers/cli.js";

// No AGENTSTREAM_*_BIN variable (the caller's may set one), no PATH to find a backend on.
const BARE = { PATH: "/nonexistent", AGENTSTREAM_ACP_BIN: undefined };

describe("run --backend acp without --bin", () => {
  for (const secrets of [{}, { OPENAI_API_KEY: "sk-test-not-a-key-0123456789" }]) {
    it(`is exit 2 naming --bin, nothing on stdout (${Object.keys(secrets).join() || "no secrets"})`, async () => {
      const result = await runCli(["run", "--backend", "acp", "--", "hi"], { env: { ...BARE, ...secrets } });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain("--bin is required with --backend acp");
      expect(result.stderr).toContain("AGENTSTREAM_ACP_BIN=PATH");
      expect(result.stderr).not.toMatch(/internal error|bug:|TypeError|\s{4}at /);
    });
  }

  it("an empty --bin is refused the same way", async () => {
    const result = await runCli(["run", "--backend", "claude", "--bin", "", "--", "hi"], { env: BARE });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain('--bin "": is empty');
  });

  it("the library's run() throws a UsageError naming option bin", async () => {
    const running = run({ backend: "acp", prompt: "hi", env: BARE });
    await expect(running.next()).rejects.toThrow(UsageError);
    await expect(run({ backend: "acp", prompt: "hi", env: BARE }).next()).rejects.toThrow(
      "run(): option bin is required with option backend acp",
    );
  });

  it("run --help says so, and names no empty executable to look for", async () => {
    const help = (await runCli(["run", "--help"])).stdout.replace(/\s+/g, " ");
    expect(help).toContain("required for acp");
    expect(help).not.toMatch(/, ,|,\s+on PATH/);
  });

  it("AGENTSTREAM_ACP_BIN stands in for it", async () => {
    const plan = await planRun(
      { backend: "acp", env: { AGENTSTREAM_ACP_BIN: "/no/such/agent" }, graceMs: 0 },
      () => "hi",
    );
    expect(plan.command).toEqual(["/no/such/agent"]);
  });
});

/** Options a run can be given, each alone: every one the plan reads a value for. */
const REQUESTS: Partial<AgentRequest>[] = [
  {},
  { model: "m" },
  { provider: "p" },
  { workdir: "/tmp/w" },
  { resume: "s" },
  { autoMode: false },
  { allowTools: ["shell"] },
  { denyTools: ["shell"] },
  { approvals: "never" },
  { approvals: "auto" },
  { maxTurns: 1 },
  { maxTokens: 1 },
  { maxCostUsd: 1 },
  { outputSchema: { type: "object" } },
  { backendArgs: ["--x"] },
  { onPermissionRequest: () => "allow" as never },
];

describe("every backend, transport and option, with no executable to be found", () => {
  it("is refused as a usage error or planned whole: a command of strings, an executable named", async () => {
    const wrong: string[] = [];
    for (const backend of BACKEND_NAMES)
      for (const transport of [undefined, ...TRANSPORTS])
        for (const extra of REQUESTS)
          for (const env of [BARE, { ...BARE, OPENAI_API_KEY: "sk-test-not-a-key-0123456789" }]) {
            const request = { backend, transport, env, ...extra };
            const said = `${backend} ${transport ?? ""} ${JSON.stringify(extra)} ${Object.keys(env).join()}`;
            try {
              const plan = await planRun({ ...request, graceMs: 0 }, () => "hi");
              const named = plan.executable.found || !/looked for +on PATH/.test(plan.executable.message);
              if (!plan.command.every((word) => typeof word === "string") || plan.file === "" || !named)
                wrong.push(`${said}: ${JSON.stringify(plan.command)} ${JSON.stringify(plan.executable)}`);
            } catch (err) {
              if (!(err instanceof UsageError)) wrong.push(`${said}: ${String(err)}`);
            }
          }
    expect(wrong).toEqual([]);
  });
});
