// The bench's datasets: the generated stream of every protocol is one its
// translator reads whole (nothing unparsed, a clean verified canonical stream);
// issue 19's stream of EvoScientist calls without ids is what the bench says
// it is, and agentstream pairs every call with its result.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parseJsonl, runCli } from "../helpers/cli.js";
import { verifyEvents } from "../helpers/verify.js";

interface Stream {
  path: string;
  bytes: number;
  lines: number;
}
// The streams are generated into a folder of this file's own, removed after it: npm test leaves no .cache/bench/.
const DATASETS_DIR = mkdtempSync(join(tmpdir(), "agentstream-bench-datasets-"));
process.env.AGENTSTREAM_BENCH_CACHE_DIR = DATASETS_DIR;
afterAll(() => rmSync(DATASETS_DIR, { recursive: true, force: true }));
const { emptyIdStream, nativeStream } = (await import(new URL("../bench/datasets.mjs", import.meta.url).href)) as {
  emptyIdStream: (calls: number, log: (message: string) => void) => Promise<Stream>;
  nativeStream: (protocol: string, megabytes: number, log: (message: string) => void) => Promise<Stream>;
};
const RUN_BENCH = fileURLToPath(new URL("../bench/run-bench.mjs", import.meta.url));

describe("bench dataset: EvoScientist calls without ids (issue 19)", () => {
  it("holds N tool_call lines with an empty id, their results and done; normalize pairs them in order", {
    timeout: 60_000,
  }, async () => {
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
    expect(run.stderr).toMatch(/--only everything: expected one of 40mb, 200mb, 1gb, empty-ids, startup, latency/);
  });
});

const count = (events: Record<string, unknown>[], type: string): number => events.filter((e) => e.type === type).length;

// What each generated stream must show once normalized: its first native line,
// the native lines kept as backend.event (known, with no canonical meaning),
// the canonical events its rounds are there to exercise, and whether some tool
// calls fail (Atomic's never do: its stream is kept as the figures were measured on).
const GENERATED: Record<string, { first: string; passedThrough: string[]; exercises: string[]; failures?: false }> = {
  evosci: { first: "text", passedThrough: [], exercises: ["message.delta", "usage", "subagent.started"] },
  atomic: {
    first: "session",
    passedThrough: [],
    exercises: ["message.delta", "usage", "turn.started"],
    failures: false,
  },
  // system/status "requesting" before each model call.
  claude: {
    first: "system",
    passedThrough: ["system"],
    exercises: [
      "tools.selected",
      "message.delta",
      "reasoning.delta",
      "reasoning.completed",
      "subagent.started",
      "usage",
    ],
  },
  // The unknown-model warning item at the start is an error event (issue 25): nothing is passed through.
  codex: {
    first: "thread.started",
    passedThrough: [],
    exercises: ["reasoning.completed", "turn.started", "turn.completed", "usage"],
  },
  gemini: { first: "init", passedThrough: [], exercises: ["message.delta", "turn.started", "usage"] },
  opencode: { first: "step_start", passedThrough: [], exercises: ["message.completed", "turn.started", "usage"] },
  // Start-up notices and model-call bookkeeping are kept as data; no usage on stdout.
  // JSON-RPC lines have no type: the first is the initialize response; context fill (usage_update) is kept as data.
  acp: {
    first: "response",
    passedThrough: ["session/update"],
    exercises: ["message.delta", "turn.started", "input.requested", "usage"],
  },
  copilot: {
    first: "session.mcp_servers_loaded",
    passedThrough: ["assistant.idle", "model.call_final_result", "session.mcp_servers_loaded", "session.tools_updated"],
    exercises: ["message.delta", "turn.started", "tool.updated"],
  },
};

describe("bench datasets: the generated native streams", () => {
  for (const [protocol, expected] of Object.entries(GENERATED)) {
    it(`${protocol}: normalizes with nothing unparsed into a verified stream that succeeds with the last answer`, {
      timeout: 60_000,
    }, async () => {
      const stream = await nativeStream(protocol, 0.5, () => {});
      expect(stream.bytes).toBeGreaterThanOrEqual(0.5 * 1024 * 1024);
      const native = parseJsonl(readFileSync(stream.path, "utf8"));
      expect(native).toHaveLength(stream.lines);
      expect(native[0]!.type ?? (native[0]!.jsonrpc === "2.0" && "response")).toBe(expected.first);

      const run = await runCli(["normalize", "--from", protocol, stream.path]);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const events = parseJsonl(run.stdout);
      expect(verifyEvents(events)).toEqual([]);
      expect(count(events, "backend.unparsed")).toBe(0);
      const passedThrough = new Set(events.filter((e) => e.type === "backend.event").map((e) => e.native_type));
      expect([...passedThrough].sort()).toEqual(expected.passedThrough);
      for (const type of expected.exercises) expect(count(events, type), type).toBeGreaterThan(0);

      const started = count(events, "tool.started");
      expect(started).toBeGreaterThan(20);
      expect(count(events, "tool.completed")).toBe(started);
      expect(count(events, "subagent.completed")).toBe(count(events, "subagent.started"));
      const failed = events.filter((e) => e.type === "tool.completed" && e.status === "failed").length;
      if (expected.failures === false) expect(failed).toBe(0);
      else expect(failed).toBeGreaterThan(0);
      expect(events.at(-1)).toMatchObject({
        type: "run.finished",
        status: "succeeded",
        result: { text: "Done." },
        counts: { unparsed_lines: 0 },
      });
    });
  }
});
