// The bench's datasets: issue 19's stream of EvoScientist calls without ids is
// what the bench says it is, and agentstream pairs every call with its result.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseJsonl, runCli } from "./helpers/cli.js";
import { verifyEvents } from "./helpers/verify.js";

interface Stream {
  path: string;
  bytes: number;
  lines: number;
}
const { emptyIdStream } = (await import(new URL("./bench/datasets.mjs", import.meta.url).href)) as {
  emptyIdStream: (calls: number, log: (message: string) => void) => Promise<Stream>;
};
const RUN_BENCH = fileURLToPath(new URL("./bench/run-bench.mjs", import.meta.url));

describe("bench dataset: EvoScientist calls without ids (issue 19)", () => {
  it("holds N tool_call lines with an empty id, their results and done; normalize pairs them in order", { timeout: 60_000 }, async () => {
    const calls = 300;
    const stream = await emptyIdStream(calls, () => {});
    const native = parseJsonl(readFileSync(stream.path, "utf8"));
    expect(native).toHaveLength(stream.lines);
    expect(native.filter((e) => e.type === "tool_call" && e.id === "")).toHaveLength(calls);
    expect(native.at(-1)).toMatchObject({ type: "done" });

    const run = await runCli(["normalize", "--from", "evosci", stream.path]);
    expect(run.code).toBe(0);
    const events = parseJsonl(run.stdout);
    expect(verifyEvents(events)).toEqual([]);
    const started = events.filter((e) => e.type === "tool.started").map((e) => e.tool_call_id);
    const completed = events.filter((e) => e.type === "tool.completed").map((e) => [e.tool_call_id, e.output]);
    expect(new Set(started).size).toBe(calls);
    expect(completed).toEqual(started.map((id, i) => [id, String(i)]));
  });

  it("the bench refuses an unknown --only part before measuring anything", () => {
    const run = spawnSync(process.execPath, [RUN_BENCH, "--only", "everything"], { encoding: "utf8" });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/--only everything: expected one of 40mb, 1gb, empty-ids, startup, latency/);
  });
});
