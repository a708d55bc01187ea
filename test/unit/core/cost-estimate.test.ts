// Estimated costs from @pydantic/genai-prices (pinned), for models as the real binaries name them.
import { readFileSync } from "node:fs";
import type { CanonicalEvent } from "../../../src/canonical/events.js";
import { describe, expect, it } from "vitest";
import { CanonicalStream } from "../../../src/core/canonical-stream.js";
import { steppingClock } from "../../../src/core/clock.js";
import { estimateCost, PRICE_DATA } from "../../../src/core/cost-estimate.js";
import { translate } from "../../helpers/translate.js";

const AT = new Date("2026-12-01T00:00:00Z");

describe("estimateCost", () => {
  it("prices input (cache included), cache reads and writes, output (reasoning included) at the model's rates", () => {
    const usage = {
      input_tokens: 1000,
      output_tokens: 500,
      cache_read_input_tokens: 200,
      cache_write_input_tokens: 100,
    };
    // claude-sonnet-4-5: 3 / 3.75 (write) / 0.30 (read) / 15 USD per million.
    expect(estimateCost(usage, "claude-sonnet-4-5", AT)).toBeCloseTo(
      (700 * 3 + 100 * 3.75 + 200 * 0.3 + 500 * 15) / 1e6,
      12,
    );
    // gpt-5: 1.25 / 0.125 (read) / 10.
    expect(
      estimateCost(
        { input_tokens: 1000, output_tokens: 500, cache_read_input_tokens: 200, reasoning_tokens: 300 },
        "gpt-5",
        AT,
      ),
    ).toBeCloseTo((800 * 1.25 + 200 * 0.125 + 500 * 10) / 1e6, 12);
    expect(estimateCost({ input_tokens: 1000, output_tokens: 500 }, "gemini-2.5-pro", AT)).toBeCloseTo(
      (1000 * 1.25 + 500 * 10) / 1e6,
      12,
    );
  });

  it("a dated model id is the same model; an unknown model has no price", () => {
    expect(estimateCost({ input_tokens: 10, output_tokens: 1 }, "claude-sonnet-4-5-20250929", AT)).toBe(
      estimateCost({ input_tokens: 10, output_tokens: 1 }, "claude-sonnet-4-5", AT),
    );
    expect(estimateCost({ input_tokens: 10, output_tokens: 1 }, "fake-model", AT)).toBeUndefined();
  });

  it("a run's total of many calls is priced per call: the long-prompt tier is not reached by the sum", () => {
    // gemini-2.5-pro costs more for a prompt above 200k tokens; ten calls of 50k are each below it.
    const total = { input_tokens: 500_000, output_tokens: 1000 };
    expect(estimateCost(total, "gemini-2.5-pro", AT, 10)).toBeCloseTo((500_000 * 1.25 + 1000 * 10) / 1e6, 9);
    expect(estimateCost(total, "gemini-2.5-pro", AT, 1)!).toBeGreaterThan(
      estimateCost(total, "gemini-2.5-pro", AT, 10)!,
    );
  });

  it("PRICE_DATA names the installed, pinned version", () => {
    const installed = JSON.parse(
      readFileSync(new URL("../../../node_modules/@pydantic/genai-prices/package.json", import.meta.url), "utf8"),
    ) as { version: string };
    const pinned = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
      dependencies: Record<string, string>;
    };
    expect(PRICE_DATA).toBe(`genai-prices ${installed.version}`);
    expect(pinned.dependencies["@pydantic/genai-prices"]).toBe(installed.version);
  });
});

describe("usage in the canonical stream", () => {
  const line = (o: object) => `${JSON.stringify(o)}\n`;
  it("a reported cost says reported; an estimate says estimated with its price data; a total of both is mixed", () => {
    const native =
      line({ type: "session", version: 3, id: "s1", timestamp: "2026-12-01T00:00:00.000Z", cwd: "/w" }) +
      line({ type: "agent_start" }) +
      line({
        type: "message_end",
        message: {
          role: "assistant",
          content: [],
          model: "claude-sonnet-4-5",
          provider: "anthropic",
          usage: { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 110, cost: { total: 0.01 } },
        },
      });
    const { events } = translate(native, { from: "pi" });
    const usage = events.find((e) => e.type === "usage");
    expect(usage).toMatchObject({ cost_usd: 0.01, cost_source: "reported" });
    expect(usage).not.toHaveProperty("price_data");
  });

  it("pi's 0 USD for tokens it counted is no price: the call is estimated (or has no cost for an unknown model)", () => {
    const message = (model: string, cost: number, tokens: number) =>
      line({
        type: "message_end",
        message: {
          role: "assistant",
          content: [],
          model,
          provider: "x",
          usage: {
            input: tokens,
            output: tokens,
            cacheRead: 0,
            cacheWrite: 0,
            totalTokens: 2 * tokens,
            cost: { total: cost },
          },
        },
      });
    const native =
      line({ type: "session", version: 3, id: "s1", timestamp: "2026-12-01T00:00:00.000Z", cwd: "/w" }) +
      line({ type: "agent_start" }) +
      message("gpt-5", 0, 1000) +
      message("fake-model", 0, 10) +
      message("free-model", 0, 0);
    const usages = translate(native, { from: "pi" }).events.filter((e) => e.type === "usage");
    expect(usages).toHaveLength(2);
    expect(usages[0]).toMatchObject({ model: "gpt-5", cost_usd: 0.01125, cost_source: "estimated" });
    expect(usages[1]).toMatchObject({ model: "fake-model" });
    expect(usages[1]).not.toHaveProperty("cost_usd");
  });

  it("a run total summing reported and estimated costs is mixed, with the estimate's price data", () => {
    const stream = new CanonicalStream({ backend: "pi", runId: "r", clock: steppingClock() });
    const usage = (extra: object) =>
      stream.push({ type: "usage", payload: { scope: "message", input_tokens: 1000, output_tokens: 100, ...extra } });
    expect(usage({ model: "x", cost_usd: 0.5 })[0]).toMatchObject({ cost_source: "reported" });
    expect(usage({ model: "gpt-5" })[0]).toMatchObject({
      cost_source: "estimated",
      cost_usd: 0.00225,
      price_data: PRICE_DATA,
    });
    const finished = stream.finish({
      status: "succeeded",
      exitCode: 0,
      resultText: null,
      backendExit: null,
      stderrTail: [],
      usageComplete: true,
      backendGone: false,
    });
    expect(finished.at(-1)).toMatchObject({
      usage: { cost_usd: 0.50225, cost_source: "mixed", price_data: PRICE_DATA },
    });
  });

  it("Gemini CLI reports no cost: estimated from the model it names", () => {
    const native = readFileSync(new URL("../../fixtures/golden/gemini/priced.native.jsonl", import.meta.url));
    const { events } = translate(native, { from: "gemini" });
    const finished = events.at(-1)!;
    expect(finished.type === "run.finished" && finished.usage).toMatchObject({
      cost_usd: (80 * 1.25 + 18 * 10) / 1e6,
      cost_source: "estimated",
      price_data: PRICE_DATA,
    });
  });
});

describe("the Markdown report shows an estimate as one", () => {
  it("cost … (estimated: genai-prices 0.1.8)", async () => {
    const { runCli } = await import("../../helpers/cli.js");
    const stream = new URL("../../fixtures/golden/gemini/priced.canonical.jsonl", import.meta.url).pathname;
    const md = await runCli(["report", "--format", "md", stream]);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain(`(estimated: ${PRICE_DATA})`);
    const reported = await runCli([
      "report",
      "--format",
      "md",
      new URL("../../fixtures/golden/claude/priced.canonical.jsonl", import.meta.url).pathname,
    ]);
    expect(reported.stdout).not.toContain("estimated");
  });
});

describe("a model for usage whose stream names none", () => {
  const codex = new URL("../../../examples/codex/tool.native.jsonl", import.meta.url).pathname;

  it("normalize --model prices a Codex recording as that model; without it, no cost", async () => {
    const { parseJsonl, runCli } = await import("../../helpers/cli.js");
    const priced = await runCli(["normalize", "--from", "codex", "--backend-exit", "0", "--model", "gpt-5", codex]);
    expect(priced.code, priced.stderr).toBe(0);
    const usage = parseJsonl(priced.stdout).find((e) => e.type === "usage");
    expect(usage).toMatchObject({ model: "gpt-5", cost_usd: 0.00028, cost_source: "estimated" });
    const plain = await runCli(["normalize", "--from", "codex", "--backend-exit", "0", codex]);
    expect(parseJsonl(plain.stdout).find((e) => e.type === "usage")).not.toHaveProperty("cost_usd");
  });

  it("normalizeStream({ model }) does the same; a model that is no string is refused", async () => {
    const { normalizeStream } = await import("../../../src/lib/normalize.js");
    const { createReadStream } = await import("node:fs");
    const events: CanonicalEvent[] = [];
    for await (const e of normalizeStream(createReadStream(codex), { from: "codex", model: "gpt-5" })) events.push(e);
    expect(events.find((e) => e.type === "usage")).toMatchObject({ model: "gpt-5", cost_source: "estimated" });
    const refused = normalizeStream([], { model: 5 as unknown as string });
    await expect(refused.next()).rejects.toThrow("option model");
  });

  it("a model the backend switched to (model.changed) is the one its later usage is of", () => {
    const stream = new CanonicalStream({ backend: "codex", runId: "r", clock: steppingClock(), model: () => "o3" });
    const usage = () =>
      stream.push({ type: "usage", payload: { scope: "run", input_tokens: 1000, output_tokens: 100 } })[0];
    expect(usage()).toMatchObject({ model: "o3", cost_source: "estimated" });
    stream.push({ type: "model.changed", payload: { model: "gpt-5", previous_model: "o3", reason: "fallback" } });
    expect(usage()).toMatchObject({ model: "gpt-5", cost_usd: 0.00225 });
  });

  it("a model the table does not know is named, with no cost", () => {
    const stream = new CanonicalStream({ backend: "codex", runId: "r", clock: steppingClock(), model: () => "fake" });
    const [usage] = stream.push({ type: "usage", payload: { scope: "run", input_tokens: 10, output_tokens: 1 } });
    expect(usage).toMatchObject({ model: "fake" });
    expect(usage).not.toHaveProperty("cost_usd");
  });
});
