// A document written step by step (each step spilled to a temporary file once it can no longer change, then
// copied through) is byte for byte the document atifText writes whole, for the streams where a spilled step is
// changed after all (a second result for a call, a call id used again, a sub-agent started by an old call, a
// prompt after empty turns) and for one whose spill goes past the 64 KiB kept in memory; the file is removed.
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CanonicalEvent } from "../../../../src/canonical/events.js";
import { atifText } from "../../../../src/export/atif/document.js";
import { AtifRuns } from "../../../../src/export/atif/runs.js";

type Partial = Record<string, unknown> & { type: string };

function stream(events: Partial[], mode: "run" | "normalize" = "run"): CanonicalEvent[] {
  const all: Partial[] = [{ type: "run.started", agentstream_version: "9.9.9", mode }, ...events];
  return all.map(
    (e, seq) =>
      ({
        v: 1,
        seq,
        ts: `2026-01-01T00:00:${String(seq % 60).padStart(2, "0")}.000Z`,
        elapsed_ms: seq,
        run_id: "r1",
        backend: "pi",
        ...e,
      }) as unknown as CanonicalEvent,
  );
}

const turn = (n: number, text = `said ${n}`, call = `c${n}`, output: string | undefined = "ok"): Partial[] => [
  { type: "turn.started", turn: n },
  { type: "message.completed", message_id: `m${n}`, text },
  { type: "tool.started", tool_call_id: call, name: "bash", args: { n } },
  ...(output === undefined
    ? []
    : [{ type: "tool.completed", tool_call_id: call, name: "bash", status: "succeeded", output }]),
  { type: "usage", scope: "call", input_tokens: 10 * n, output_tokens: n, cost_usd: 0.5, cost_source: "estimated" },
  { type: "turn.completed", turn: n, stop_reason: "tool_use" },
];
const turns = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => turn(from + i)).flat();
const done: Partial = {
  type: "run.finished",
  status: "succeeded",
  exit_code: 0,
  backend_exit: { code: 0, signal: null },
  duration_ms: 5,
  result: { text: "done" },
  usage: { input_tokens: 1, output_tokens: 1 },
  counts: {
    turns: 1,
    messages: 1,
    tool_calls: 1,
    tool_failures: 0,
    errors: 0,
    retries: 0,
    unknown_events: 0,
    unparsed_lines: 0,
  },
};
const sub = (id: string, call?: string): Partial[] => [
  { type: "subagent.started", instance_id: id, name: "helper", tool_call_id: call, description: "look" },
  { type: "message.completed", message_id: `s-${id}`, text: "sub says", agent: { instance_id: id, name: "helper" } },
  { type: "subagent.completed", instance_id: id, duration_ms: 3 },
];

const CASES: [string, Partial[]][] = [
  ["turns with a call and its result each", [{ type: "prompt.submitted", text: "go" }, ...turns(1, 5), done]],
  [
    "a second result for a call whose step was spilled",
    [
      ...turns(1, 4),
      { type: "tool.completed", tool_call_id: "c1", name: "bash", status: "failed", output: "again" },
      ...turns(5, 6),
      done,
    ],
  ],
  [
    "a call id used again on a later step, then its result",
    [
      ...turns(1, 3),
      ...turn(4, "again", "c1", undefined),
      { type: "tool.completed", tool_call_id: "c1", name: "bash", status: "succeeded", output: "second" },
      ...turns(5, 6),
      done,
    ],
  ],
  [
    "an id used twice in one turn, and two calls open under one id, past 64 KiB",
    [
      ...turn(1, "a", "d", undefined),
      { type: "tool.completed", tool_call_id: "d", name: "bash", status: "succeeded", output: "one" },
      { type: "tool.started", tool_call_id: "d", name: "bash", args: { again: true } },
      { type: "tool.completed", tool_call_id: "d", name: "bash", status: "succeeded", output: "two" },
      ...turn(2, "b", "e", undefined),
      { type: "tool.started", tool_call_id: "e", name: "bash", args: { again: true } },
      ...Array.from({ length: 100 }, (_, i) => turn(i + 3, "z".repeat(1000))).flat(),
      { type: "tool.completed", tool_call_id: "e", name: "bash", status: "succeeded", output: "first e" },
      { type: "tool.completed", tool_call_id: "e", name: "bash", status: "succeeded", output: "second e" },
      { type: "tool.completed", tool_call_id: "e", name: "bash", status: "failed", output: "third e" },
      ...turns(103, 104),
      done,
    ],
  ],
  [
    "a result for a spilled call without output, then one with",
    [
      ...turn(1, "a", "c1", undefined),
      { type: "tool.completed", tool_call_id: "c1", name: "bash", status: "succeeded" },
      ...turns(2, 4),
      { type: "tool.completed", tool_call_id: "c1", name: "bash", status: "succeeded", output: "late" },
      done,
    ],
  ],
  [
    "sub-agents started by a spilled call, by a call used again, and by none",
    [
      ...turns(1, 3),
      ...sub("s1", "c2"),
      ...turn(4, "x", "c2", undefined),
      ...sub("s2", "c2"),
      ...sub("s3"),
      ...turns(5, 6),
      done,
    ],
  ],
  [
    "a prompt after empty turns, and one after the agent's output",
    [
      { type: "turn.started", turn: 1 },
      { type: "turn.started", turn: 2 },
      { type: "prompt.submitted", text: "late prompt" },
      ...turns(3, 5),
      { type: "prompt.submitted", text: "follow-up" },
      ...turns(6, 7),
      done,
    ],
  ],
  [
    "a result whose call the stream never showed, errors, a compaction",
    [
      ...turns(1, 2),
      { type: "tool.completed", tool_call_id: "zz", name: "bash", status: "succeeded", output: "?" },
      { type: "error", message: "boom" },
      { type: "compaction.completed", summary: "less", tokens_before: 9, tokens_after: 1 },
      ...turns(3, 4),
      done,
    ],
  ],
  ["calls never answered, cut", [...turn(1, "a", "c1", undefined), ...turn(2, "b", "c2", undefined), ...turns(3, 4)]],
  [
    "a spill past 64 KiB, then a second result for the first call",
    [
      ...Array.from({ length: 300 }, (_, i) => turn(i + 1, `é${"x".repeat(1000)}`)).flat(),
      { type: "tool.completed", tool_call_id: "c1", name: "bash", status: "failed", output: "late" },
      ...turns(301, 303),
      done,
    ],
  ],
];

let dir: string;
let tmp: string | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "agentstream-spill-"));
  tmp = process.env.TMPDIR;
  process.env.TMPDIR = dir;
});
afterEach(() => {
  if (tmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = tmp;
  rmSync(dir, { recursive: true, force: true });
});

describe("ATIF written step by step", () => {
  it.each(CASES)("%s: the same bytes as the whole document", (_name, events) => {
    const whole: string[] = [];
    const spilled: string[] = [];
    const runs = new AtifRuns((run) => whole.push(atifText(run.document)));
    const stepwise = AtifRuns.spilling((run) => {
      spilled.push(Buffer.concat([...run.document.chunks()].map((c) => Buffer.from(c))).toString("utf8"));
      run.document.dispose();
    });
    for (const event of stream(events)) {
      runs.event(event);
      stepwise.event(event);
    }
    runs.end();
    stepwise.end();
    expect(whole).toHaveLength(1);
    expect(spilled).toEqual(whole);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("spills to a file in the temporary folder while the run goes on, and removes it", () => {
    const stepwise = AtifRuns.spilling(() => {});
    for (const event of stream(Array.from({ length: 200 }, (_, i) => turn(i + 1, "y".repeat(1000))).flat()))
      stepwise.event(event);
    expect(readdirSync(dir)).toEqual([expect.stringMatching(/^agentstream-atif-\d+-[0-9a-f]+\.part$/)]);
    stepwise.discard();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("a process that exits while a run is open leaves no spill file", () => {
    const runs = fileURLToPath(new URL("../../../../dist/export/atif/runs.js", import.meta.url));
    const events = JSON.stringify(stream(Array.from({ length: 200 }, (_, i) => turn(i + 1, "y".repeat(1000))).flat()));
    const script = `const { readdirSync, readFileSync } = await import("node:fs");
      const { AtifRuns } = await import(${JSON.stringify(runs)});
      const runs = AtifRuns.spilling(() => {});
      for (const e of JSON.parse(readFileSync(0, "utf8"))) runs.event(e);
      console.log(readdirSync(process.env.TMPDIR).length);
      process.exit(0);`;
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      input: events,
      env: { ...process.env, TMPDIR: dir },
      encoding: "utf8",
    });
    expect(child.stderr).toBe("");
    expect(child.stdout).toBe("1\n");
    expect(readdirSync(dir)).toEqual([]);
  });

  /** A process with a run open (its spill file made), told `signal` once it says so; how it ended, and what it said. */
  async function signalled(
    signal: NodeJS.Signals,
    hears: boolean,
  ): Promise<{ signal: string | null; code: number | null; out: string }> {
    const runs = fileURLToPath(new URL("../../../../dist/export/atif/runs.js", import.meta.url));
    const events = JSON.stringify(stream(Array.from({ length: 200 }, (_, i) => turn(i + 1, "y".repeat(1000))).flat()));
    const script = `const { readdirSync, readFileSync } = await import("node:fs");
      const { AtifRuns } = await import(${JSON.stringify(runs)});
      ${hears ? `process.on(${JSON.stringify(signal)}, () => { console.log("heard", readdirSync(process.env.TMPDIR).length); process.exit(3); });` : ""}
      const runs = AtifRuns.spilling(() => {});
      for (const e of JSON.parse(readFileSync(${JSON.stringify(join(dir, "events.json"))}, "utf8"))) runs.event(e);
      console.log(readdirSync(process.env.TMPDIR).length);
      setInterval(() => {}, 1000);`;
    writeFileSync(join(dir, "events.json"), events);
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      env: { ...process.env, TMPDIR: join(dir, "tmp") },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out === "1\n") child.kill(signal);
    });
    const [code, by] = (await once(child, "close")) as [number | null, NodeJS.Signals | null];
    return { signal: by, code, out };
  }

  it.each(["SIGINT", "SIGTERM", "SIGHUP"] as const)(
    "a process %s kills while a run is open (export atif) dies of it as before, its spill file removed",
    async (signal) => {
      mkdirSync(join(dir, "tmp"));
      expect(await signalled(signal, false)).toEqual({ signal, code: null, out: "1\n" });
      expect(readdirSync(join(dir, "tmp"))).toEqual([]);
    },
  );

  it("a process that hears the signal itself (run, normalize, a library's caller) decides: the file stays until it exits", async () => {
    mkdirSync(join(dir, "tmp"));
    expect(await signalled("SIGINT", true)).toEqual({ signal: null, code: 3, out: "1\nheard 1\n" });
    expect(readdirSync(join(dir, "tmp"))).toEqual([]);
  });
});
