// `agentstream export atif` as a real process: every example run as an ATIF document (goldens), checked by
// others' code (the `atif` models in strict mode, atif-scan), a cut stream, several runs, and refusals.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { ATIF_CHECK, atifPython } from "../../helpers/atif-python.js";
import { runCli } from "../../helpers/cli.js";

const EXAMPLES = fileURLToPath(new URL("../../../examples/", import.meta.url));
const GOLDEN = fileURLToPath(new URL("../../fixtures/atif/", import.meta.url));
const FIXTURES = fileURLToPath(new URL("../../fixtures/golden/", import.meta.url));
const STREAMS = readdirSync(EXAMPLES, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".canonical.jsonl"))
  .sort();
const goldenName = (stream: string) => `${stream.replace(/\.canonical\.jsonl$/, "").replace(/\//g, "-")}.json`;
const lines = (file: string) => readFileSync(join(EXAMPLES, file), "utf8").trimEnd().split("\n");

const dir = mkdtempSync(join(tmpdir(), "agentstream-atif-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("agentstream export atif: every example", () => {
  it("has examples of every backend to export", () => {
    expect(STREAMS.length).toBeGreaterThanOrEqual(9);
  });

  it.each(STREAMS)("%s: one document on stdout, equal to its golden", async (stream) => {
    const result = await runCli(["export", "atif", join(EXAMPLES, stream)]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
    const golden = join(GOLDEN, goldenName(stream));
    if (process.env.UPDATE_GOLDEN === "1") {
      mkdirSync(GOLDEN, { recursive: true });
      writeFileSync(golden, result.stdout);
    }
    expect(result.stdout).toBe(readFileSync(golden, "utf8"));
  });
});

describe("agentstream export atif: bad input", () => {
  it("a cut stream (no run.finished) is exported with the outcome unknown, said on stderr", async () => {
    const cut = join(dir, "cut.jsonl");
    writeFileSync(cut, `${lines("pi/tool.canonical.jsonl").slice(0, -1).join("\n")}\n`);
    const result = await runCli(["export", "atif", cut]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/cut\.jsonl: run run-test: no run\.finished: exported with the outcome unknown\n$/);
    const doc = JSON.parse(result.stdout) as { extra: { outcome: { status: string } }; final_metrics: unknown };
    expect(doc.extra.outcome.status).toBe("unknown");
    expect(doc.final_metrics).toEqual({
      total_steps: 3,
      extra: { usage: expect.stringMatching(/without run\.finished/) },
    });
  });

  it("several runs interleaved in one stream: refused without --out (exit 2, stdout empty), one file each with it", async () => {
    const a = lines("pi/tool.canonical.jsonl").map((l) => l.replace('"run_id":"run-test"', '"run_id":"run-a"'));
    const b = lines("opencode/tool.canonical.jsonl").map((l) => l.replace(/"run_id":"[^"]*"/, '"run_id":"run/b"'));
    const mixed: string[] = [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) mixed.push(...[a[i], b[i]].filter((l) => l !== undefined));
    const file = join(dir, "mixed.jsonl");
    writeFileSync(file, `${mixed.join("\n")}\n`);

    const refused = await runCli(["export", "atif", file]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(/more than one run[^\n]*\n[^\n]*--out DIR/);

    const out = join(dir, "runs");
    const result = await runCli(["export", "atif", "--out", out, file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/2 ATIF documents written to /);
    expect(readdirSync(out).sort()).toEqual(["run-a.json", "run_b.json"]);
    // Each equals the run exported alone, but for its id.
    const alone = (await runCli(["export", "atif", join(EXAMPLES, "pi/tool.canonical.jsonl")])).stdout;
    expect(readFileSync(join(out, "run-a.json"), "utf8")).toBe(alone.replace('"run-test"', '"run-a"'));
  });

  it.each([
    [
      "a native stream",
      "pi/tool.native.jsonl",
      /is not a canonical stream: event 1 has no "v": 1, seq, run_id\n.*normalize/s,
    ],
    ["a line that is not JSON", "broken", /is not a canonical stream: line 3: not a JSON object/],
    [
      "an event before its run.started",
      "headless",
      /is not a canonical stream: event seq 2 \(session\.started\) is of run run-test, whose run\.started the stream does not hold/,
    ],
  ])("%s: refused with exit 2, nothing on stdout", async (_what, source, message) => {
    let file = join(EXAMPLES, source);
    if (source === "broken" || source === "headless") {
      const pi = lines("pi/tool.canonical.jsonl");
      file = join(dir, `${source}.jsonl`);
      writeFileSync(
        file,
        `${(source === "broken" ? [pi[0], pi[1], "{oops", ...pi.slice(2)] : pi.slice(1)).join("\n")}\n`,
      );
    }
    const result = await runCli(["export", "atif", file]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(message);
  });
});

// Third-party readers: skipped with a notice where Python >= 3.11 or PyPI is missing (AGENTSTREAM_REQUIRE_ATIF=1 in CI).
const py = atifPython();
describe.skipIf(!py)("agentstream export atif: read by others' code", () => {
  it("every example's document passes the atif models (strict) and atif-scan reads each", async () => {
    const out = join(dir, "checked");
    const result = await runCli(["export", "atif", "--out", out, ...STREAMS.map((s) => join(EXAMPLES, s))]);
    expect(result.code, result.stderr).toBe(0);
    const files = readdirSync(out).map((f) => join(out, f));
    expect(files).toHaveLength(STREAMS.length);

    const check = spawnSync(py!.python, [ATIF_CHECK, ...files], { encoding: "utf8" });
    expect(check.status, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toEqual({ files: files.length, problems: [] });

    const scan = spawnSync(py!.atifScan, ["--pattern", "*.json", out], { encoding: "utf8", maxBuffer: 1 << 28 });
    expect(scan.status, scan.stderr).toBe(0);
    const report = JSON.parse(scan.stdout) as {
      inputs: { input_id: string; input_status: string; assessments: { id: string; status: string }[] }[];
    };
    expect(report.inputs.map((i) => [i.input_id, i.input_status]).sort()).toEqual(
      files.map((f) => [basename(f), "available"]).sort(),
    );
    // What atif-scan checks of a document's shape finds nothing in ours.
    const shape = [
      "integrity.agent_only_fields",
      "integrity.orphan_observation",
      "integrity.observation_pairing_unresolved",
      "integrity.step_sequence",
      "integrity.trace_head_missing",
      "integrity.timestamp_invalid",
    ];
    for (const input of report.inputs)
      for (const a of input.assessments.filter((a) => shape.includes(a.id)))
        expect([input.input_id, a.id, a.status]).toEqual([input.input_id, a.id, expect.not.stringMatching(/^match$/)]);
  });

  it("every golden fixture's runs (every protocol, sub-agents, compactions, errors), and a cut run, pass the atif models (strict)", async () => {
    const streams = readdirSync(FIXTURES, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".canonical.jsonl"))
      .map((f) => join(FIXTURES, f));
    expect(streams.length).toBeGreaterThan(100);
    const cut = join(dir, "cut-for-python.jsonl");
    writeFileSync(cut, `${lines("evosci/research.canonical.jsonl").slice(0, 12).join("\n")}\n`);
    const out = join(dir, "fixtures");
    const result = await runCli(["export", "atif", "--out", out, ...streams, cut]);
    expect(result.code, result.stderr).toBe(0);
    const files = readdirSync(out).map((f) => join(out, f));
    expect(files.length).toBeGreaterThan(streams.length);
    const check = spawnSync(py!.python, [ATIF_CHECK, ...files], { encoding: "utf8", maxBuffer: 1 << 26 });
    expect(check.status, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toEqual({ files: files.length, problems: [] });
  });

  it("call ids used again (in later turns, twice in one turn) and no session named: both readers read it, each call with its own result, a session_id (before: atif-scan's duplicate_call_id, no session_id)", async () => {
    const tool = (kind: "tool_call" | "tool_result", command: string, extra: Record<string, unknown> = {}) =>
      JSON.stringify({
        type: kind,
        name: "bash",
        id: "call_1",
        ...(kind === "tool_call" ? { args: { command } } : { content: command, success: true }),
        ...extra,
      });
    const text = (content: string) => JSON.stringify({ type: "text", content });
    const natives = {
      later: [
        text("look"),
        tool("tool_call", "ls"),
        tool("tool_result", "a"),
        tool("tool_call", "ls -a"),
        tool("tool_result", "b"),
        text("again"),
        tool("tool_call", "pwd"),
        tool("tool_result", "c"),
      ],
      together: [
        text("look twice"),
        tool("tool_call", "ls"),
        tool("tool_call", "ls -a"),
        tool("tool_result", "a"),
        tool("tool_result", "b"),
      ],
    };
    const out = join(dir, "ids-again");
    const streams: string[] = [];
    for (const [name, native] of Object.entries(natives)) {
      writeFileSync(
        join(dir, `${name}.native.jsonl`),
        `${[...native, JSON.stringify({ type: "done", content: "x" })].join("\n")}\n`,
      );
      const normalized = await runCli(["normalize", "--from", "evosci", join(dir, `${name}.native.jsonl`)]);
      streams.push(join(dir, `${name}.canonical.jsonl`));
      writeFileSync(streams.at(-1)!, normalized.stdout);
    }
    const result = await runCli(["export", "atif", "--out", out, ...streams]);
    expect(result.code, result.stderr).toBe(0);
    const files = readdirSync(out).map((f) => join(out, f));
    expect(files).toHaveLength(2);
    for (const file of files) {
      const doc = JSON.parse(readFileSync(file, "utf8")) as {
        session_id?: string;
        trajectory_id: string;
        steps: { tool_calls?: { tool_call_id: string }[]; observation?: { results: { source_call_id?: string }[] } }[];
      };
      expect(doc.session_id).toBe(doc.trajectory_id);
      for (const step of doc.steps) {
        const ids = (step.tool_calls ?? []).map((c) => c.tool_call_id);
        expect(new Set(ids).size).toBe(ids.length);
        expect((step.observation?.results ?? []).map((r) => r.source_call_id)).toEqual(ids);
      }
    }
    const check = spawnSync(py!.python, [ATIF_CHECK, ...files], { encoding: "utf8" });
    expect(JSON.parse(check.stdout)).toEqual({ files: 2, problems: [] });
    const scan = spawnSync(py!.atifScan, ["--pattern", "*.json", out], { encoding: "utf8", maxBuffer: 1 << 28 });
    expect(scan.status, scan.stderr).toBe(0);
    const report = JSON.parse(scan.stdout) as { inputs: { input_status: string }[] };
    expect(report.inputs.map((i) => i.input_status)).toEqual(["available", "available"]);
  });

  it("the check itself refuses what ATIF refuses (an unknown key) and a ref that names no sub-trajectory", () => {
    const doc = JSON.parse(readFileSync(join(GOLDEN, "evosci-research.json"), "utf8")) as Record<string, unknown> & {
      steps: Record<string, unknown>[];
      subagent_trajectories: unknown[];
    };
    const unknownKey = join(dir, "unknown-key.json");
    writeFileSync(
      unknownKey,
      JSON.stringify({ ...doc, steps: [{ ...doc.steps[0], complete: true }, ...doc.steps.slice(1)] }),
    );
    const dangling = join(dir, "dangling.json");
    writeFileSync(dangling, JSON.stringify({ ...doc, subagent_trajectories: doc.subagent_trajectories.slice(1) }));
    const check = spawnSync(py!.python, [ATIF_CHECK, unknownKey, dangling], { encoding: "utf8" });
    const { problems } = JSON.parse(check.stdout) as { problems: string[] };
    expect(problems).toEqual([
      expect.stringMatching(/unknown-key\.json: [\s\S]*steps\.0\.complete\s+Extra inputs are not permitted/),
      expect.stringMatching(/dangling\.json: step 2: ref .*inst-a7.* names no embedded sub-trajectory/),
    ]);
  });
});
