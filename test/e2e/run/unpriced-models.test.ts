// Models the price table does not know, named by the backend: the run says so
// once on stderr however many there are, and a name is shown cut however long
// it is (a hostile or broken stream must not flood stderr).
import { writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { parseJsonl, runCli } from "../../helpers/cli.js";
import { expectNoneLeftRunning, Scratch, STAND_IN } from "../../helpers/stand-in.js";

const scratch = new Scratch();
afterAll(() => scratch.remove());

/** An Atomic stream of one model call per model, each with tokens and no price of its own. */
function callsOf(models: string[]): string {
  const lines: unknown[] = [{ type: "session", version: 3, id: "s-unpriced", cwd: "/tmp" }, { type: "agent_start" }];
  for (const model of models) {
    const usage = { input: 10, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 11, cost: { total: 0 } };
    const message = { role: "assistant", content: [{ type: "text", text: "ok" }], model, usage, stopReason: "stop" };
    lines.push({ type: "turn_start" }, { type: "message_end", message }, { type: "turn_end", message });
  }
  lines.push({ type: "agent_end", messages: [] });
  const file = scratch.path(`calls-${models.length}.jsonl`);
  writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  return file;
}

async function runOn(file: string, flags: string[] = []) {
  const record = scratch.recordPath();
  const result = await runCli(["run", "--backend", "atomic", "--bin", STAND_IN, ...flags, "hello"], {
    env: { STANDIN_RECORD: record, STANDIN_TRANSCRIPT: file },
  });
  expectNoneLeftRunning(record);
  return result;
}

describe("agentstream run: models it cannot price", () => {
  it("2,000 distinct unknown models: one note on stderr, naming the first", async () => {
    const models = Array.from({ length: 2000 }, (_, i) => `no-such-model-${i}`);
    const result = await runOn(callsOf(models));
    expect(result.code, result.stderr).toBe(0);
    const notes = result.stderr.split("\n").filter((line) => line.includes("no cost for model"));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain("no cost for model no-such-model-0:");
    expect(parseJsonl(result.stdout).filter((e) => e.type === "usage")).toHaveLength(2000);
  });

  it("a 100,000-character model name under --max-cost-usd is shown cut, on stderr and in run.finished", async () => {
    const result = await runOn(callsOf(["m".repeat(100_000)]), ["--max-cost-usd", "1"]);
    expect(result.code).toBe(1);
    const finished = parseJsonl(result.stdout).at(-1) as { error?: { code?: string; message?: string } };
    expect(finished.error?.code).toBe("budget");
    expect(finished.error?.message).toMatch(/^max-cost-usd 1: cannot price model m+…$/);
    expect(finished.error!.message!.length).toBeLessThan(200);
    expect(result.stderr.length).toBeLessThan(3000);
  });
});
