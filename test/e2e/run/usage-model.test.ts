// Backends whose streams name no model (Codex, EvoScientist, OpenCode): `run`
// prices their usage as the model it can know — the one asked for, else the
// backend's own config or session record — and names it on the usage.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { CanonicalEvent, EventOf } from "../../../src/canonical/events.js";
import { PRICE_DATA } from "../../../src/core/cost-estimate.js";
import { parseJsonl, runCli } from "../../helpers/cli.js";
import { expectNoneLeftRunning, Scratch, STAND_IN } from "../../helpers/stand-in.js";

const scratch = new Scratch();
afterAll(() => scratch.remove());

const example = (path: string) => fileURLToPath(new URL(`../../../examples/${path}`, import.meta.url));
// Its thread, as thread.started names it; one usage of 80 input and 18 output tokens.
const CODEX = example("codex/tool.native.jsonl");
const CODEX_THREAD = "01a23c13-edd4-7d11-b548-3dac8ebac487";
// gpt-5: 1.25 USD per million input tokens, 10 per million output tokens.
const CODEX_GPT5_USD = (80 * 1.25 + 18 * 10) / 1e6;

async function runStandIn(backend: string, file: string, flags: string[], env: Record<string, string> = {}) {
  const record = scratch.recordPath();
  // No config of this machine's user is read: an empty home unless the test gives one.
  const home = scratch.path("home");
  mkdirSync(home);
  const result = await runCli(["run", "--backend", backend, "--bin", STAND_IN, ...flags, "hello"], {
    env: { HOME: home, XDG_CONFIG_HOME: "", CODEX_HOME: "", STANDIN_RECORD: record, STANDIN_TRANSCRIPT: file, ...env },
  });
  expectNoneLeftRunning(record);
  const events = parseJsonl(result.stdout) as unknown as CanonicalEvent[];
  return {
    result,
    usage: events.filter((e): e is EventOf<"usage"> => e.type === "usage"),
    finished: events.at(-1) as EventOf<"run.finished">,
  };
}

describe("run: a cost for usage whose stream names no model", () => {
  it("Codex with --model: priced as that model, which the usage names", async () => {
    const { result, usage, finished } = await runStandIn("codex", CODEX, ["--model", "gpt-5"]);
    expect(result.code, result.stderr).toBe(0);
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({ model: "gpt-5", cost_source: "estimated", price_data: PRICE_DATA });
    expect(usage[0]!.cost_usd).toBeCloseTo(CODEX_GPT5_USD, 12);
    expect(finished.usage).toMatchObject({ cost_source: "estimated" });
  });

  it("Codex without --model: the model its session record names (the default it chose), the last turn's", async () => {
    const codexHome = scratch.path("codex-home");
    const day = join(codexHome, "sessions", "2026", "12", "03");
    mkdirSync(day, { recursive: true });
    const line = (o: object) => `${JSON.stringify(o)}\n`;
    writeFileSync(
      join(day, `rollout-2026-12-03T12-00-00-${CODEX_THREAD}.jsonl`),
      line({ type: "session_meta", payload: { id: CODEX_THREAD } }) +
        line({ type: "turn_context", payload: { model: "o3" } }) +
        line({ type: "turn_context", payload: { model: "gpt-5" } }) +
        line({ type: "event_msg", payload: { type: "token_count" } }),
    );
    // Another session's record, in a newer day, is not this run's.
    const newer = join(codexHome, "sessions", "2026", "12", "04");
    mkdirSync(newer, { recursive: true });
    writeFileSync(
      join(newer, "rollout-2026-12-04T00-00-00-01a2ffff-0000-7000-8000-000000000000.jsonl"),
      line({ type: "turn_context", payload: { model: "o3" } }),
    );
    const { usage } = await runStandIn("codex", CODEX, [], { CODEX_HOME: codexHome });
    expect(usage[0]).toMatchObject({ model: "gpt-5", cost_source: "estimated" });
    expect(usage[0]!.cost_usd).toBeCloseTo(CODEX_GPT5_USD, 12);
  });

  it("Codex with no model known: no cost, as before", async () => {
    const { usage } = await runStandIn("codex", CODEX, []);
    expect(usage[0]).not.toHaveProperty("cost_usd");
    expect(usage[0]).not.toHaveProperty("model");
  });

  it("EvoScientist: the model of its config.yaml ($XDG_CONFIG_HOME/evoscientist)", async () => {
    const config = scratch.path("config");
    mkdirSync(join(config, "evoscientist"), { recursive: true });
    writeFileSync(
      join(config, "evoscientist", "config.yaml"),
      'provider: anthropic\nmodel: "claude-sonnet-4-5"  # chosen at onboarding\nauxiliary_model: gpt-5\n',
    );
    const { result, usage, finished } = await runStandIn("evosci", example("evosci/research.native.jsonl"), [], {
      XDG_CONFIG_HOME: config,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(usage.length).toBeGreaterThan(0);
    for (const u of usage) expect(u).toMatchObject({ model: "claude-sonnet-4-5", cost_source: "estimated" });
    // claude-sonnet-4-5: 3 USD per million input tokens, 15 per million output tokens.
    const sum = usage.reduce((s, u) => s + (u.input_tokens * 3 + u.output_tokens * 15) / 1e6, 0);
    expect(finished.usage?.cost_usd).toBeCloseTo(sum, 9);
  });

  it("OpenCode --model PROVIDER/MODEL: priced as MODEL", async () => {
    const { usage } = await runStandIn("opencode", example("opencode/tool.native.jsonl"), [
      "--model",
      "anthropic/claude-sonnet-4-5",
    ]);
    expect(usage.length).toBeGreaterThan(0);
    for (const u of usage) expect(u).toMatchObject({ model: "claude-sonnet-4-5", cost_source: "estimated" });
  });

  it("--max-cost-usd acts on the estimate: Codex stopped with the figure it reached", async () => {
    const { result, finished } = await runStandIn("codex", CODEX, ["--model", "gpt-5", "--max-cost-usd", "0.0001"], {
      STANDIN_END: "hang",
    });
    expect(result.code).toBe(1);
    expect(finished.error).toMatchObject({
      code: "budget",
      message: expect.stringMatching(/^max-cost-usd 0\.0001 reached: 0\.00028 USD after \d+ turns?$/),
    });
  });
});
