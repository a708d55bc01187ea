// Planning is one pass. It refuses what a backend lacks once, over the whole request: a backend lacking two options asked
// together refuses the first of them in the order they have always been refused in, with the words it
// refuses that one alone with; and a driven backend (ACP) is given the rules as asked, in portable names
// (before, a rule went portable name → ACP kind → portable name → ACP kind on its way to the driver, and
// `--allow-tool write` reached it as `edit`); and the run's one redactor is the one that hides secrets in
// the command run.started shows (issue 46).
import { afterEach, describe, expect, it } from "vitest";
import { planRun, type AgentRequest } from "../../../src/app/agent-run.js";
import { cliNaming } from "../../../src/app/options.js";
import { BACKEND_NAMES, backendNamed } from "../../../src/backends/registry.js";
import { OptionError } from "../../../src/core/errors.js";

/** Options asked alone, each named by the option it asks, in the order their refusals are said. */
const ASKED: [string, Partial<AgentRequest>][] = [
  ["model", { model: "m" }],
  ["provider", { provider: "p" }],
  ["workdir", { workdir: "/tmp/w" }],
  ["autoMode", { autoMode: false }],
  ["maxTurns", { maxTurns: 1 }],
  ["maxTokens", { maxTokens: 1 }],
  ["maxCostUsd", { maxCostUsd: 1 }],
  ["allowTools", { allowTools: ["shell"] }],
  ["denyTools", { denyTools: ["shell"] }],
  ["approvals never", { approvals: "never" }],
  ["approvals auto", { approvals: "auto" }],
  ["resume", { resume: "session-1" }],
  ["onPermissionRequest", { onPermissionRequest: () => undefined }],
];

const LIMITS = new Set(["maxTurns", "maxTokens", "maxCostUsd"]);

/** Every backend, natively and over ACP where it speaks it. */
const DRIVEN = BACKEND_NAMES.flatMap((backend) => [{ backend }, { backend, transport: "acp" as const }]);

/** The refusal of a request (as the CLI words it), or undefined where it is planned. */
async function refusalOf(request: AgentRequest): Promise<string | undefined> {
  const env = { PATH: "/nonexistent" };
  try {
    await planRun({ bin: "/nonexistent/agent", env, ...request, graceMs: 0 }, () => "hi");
    return undefined;
  } catch (err) {
    if (!(err instanceof OptionError)) throw err;
    return err.wordedAs(cliNaming).message;
  }
}

function together(a: Partial<AgentRequest>, b: Partial<AgentRequest>): Partial<AgentRequest> {
  return { ...a, ...b };
}

describe("a request a backend lacks two options of", () => {
  it("is refused once, for the first of them, as that one alone is (every backend and transport)", async () => {
    const wrong: string[] = [];
    let pairs = 0;
    for (const driven of DRIVEN) {
      // A transport the backend does not speak is refused whatever is asked.
      if ((await refusalOf(driven)) !== undefined) continue;
      const alone: [string, Partial<AgentRequest>, string][] = [];
      for (const [name, asked] of ASKED) {
        const said = await refusalOf({ ...driven, ...asked });
        if (said !== undefined) alone.push([name, asked, said]);
      }
      for (const [i, [first, a, said]] of alone.entries())
        for (const [second, b] of alone.slice(i + 1)) {
          // Limits the backend lacks for the same reason are named at once.
          if (LIMITS.has(first) && LIMITS.has(second)) continue;
          // Two modes of one choice cannot be asked together.
          if (first.startsWith("approvals") && second.startsWith("approvals")) continue;
          pairs++;
          const both = await refusalOf({ ...driven, ...together(a, b) });
          if (both !== said)
            wrong.push(`${driven.backend} ${driven.transport ?? ""} ${first} + ${second}: ${both} (not ${said})`);
        }
    }
    expect(pairs).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
  });
});

describe("a driven backend (ACP)", () => {
  const acp = backendNamed("acp");
  const driver = acp.driver;
  afterEach(() => {
    acp.driver = driver;
  });

  it("is given the rules as asked, in portable names, and maps them itself", async () => {
    const seen: unknown[] = [];
    acp.driver = (...args: Parameters<NonNullable<typeof driver>>) => {
      seen.push(args[0]);
      return driver!(...args);
    };
    const plan = await planRun(
      {
        backend: "acp",
        bin: "/nonexistent/agent",
        env: { PATH: "/nonexistent" },
        allowTools: ["write", "shell(git *)"],
        denyTools: ["web_fetch"],
        approvals: "auto",
        graceMs: 0,
      },
      () => "hi",
    );
    expect(plan.driver).toBeDefined();
    expect(seen).toEqual([
      expect.objectContaining({ allowTools: ["write", "shell(git *)"], denyTools: ["web_fetch"], approvals: "auto" }),
    ]);
  });

  it("refuses a rule in ACP kinds, which no portable name is (before, `execute` was taken as `shell`)", async () => {
    const planned = planRun(
      { backend: "acp", bin: "/nonexistent/agent", env: { PATH: "/nonexistent" }, allowTools: ["execute"], graceMs: 0 },
      () => "hi",
    );
    await expect(planned).rejects.toThrow(/not a portable tool name/);
  });
});

describe("the command run.started shows", () => {
  it("is hidden by the run's one redactor: a secret flag's value nowhere in it, the prompt included", async () => {
    const secret = "s3cr3t-value-0123";
    const plan = await planRun(
      {
        backend: "claude",
        bin: "/nonexistent/claude",
        env: { PATH: "/nonexistent", GH_TOKEN: "ghtoken-value-0123" },
        backendArgs: ["--api-key", secret],
        graceMs: 0,
      },
      () => `use ${secret} and ghtoken-value-0123`,
    );
    expect(plan.args.join(" ")).toContain(secret);
    expect(plan.command.join(" ")).not.toContain(secret);
    expect(plan.command.join(" ")).not.toContain("ghtoken-value-0123");
    expect(plan.command.map((arg) => plan.redactor.text(arg))).toEqual(plan.command);
  });
});
