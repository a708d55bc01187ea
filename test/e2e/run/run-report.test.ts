// run --report FILE and --summary as a real process: the report is built from
// the canonical events as run writes them and written when the run ends; its
// figures equal the run.finished on stdout.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, it } from "vitest";
import { formatDuration } from "../../../src/core/compact-figures.js";
import { parseJsonl } from "../../helpers/cli.js";
import { Scratch, expectCanonical, runStandIn, transcript } from "../../helpers/stand-in.js";

const SCHEMA = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../../schemas/report-v1.schema.json", import.meta.url)), "utf8"),
) as object;
const validate = new Ajv2020({ strict: true }).compile(SCHEMA);
const scratch = new Scratch();
afterAll(() => scratch.remove());

let folders = 0;
function folder(): string {
  const dir = join(scratch.dir, `report-${++folders}`);
  mkdirSync(dir);
  return dir;
}

const SUCCESS = { STANDIN_TRANSCRIPT: transcript("evosci-success.jsonl") };

describe("run --report", () => {
  it("writes a Markdown report whose figures are the run.finished on stdout", async () => {
    const dir = folder();
    const file = join(dir, "report.md");
    const { result } = await runStandIn(scratch, ["--backend", "evosci", "--report", file, "x"], { knobs: SUCCESS });
    expect(result.code, result.stderr).toBe(0);
    expectCanonical(result);
    const finished = parseJsonl(result.stdout).at(-1) as {
      duration_ms: number;
      counts: { tool_calls: number };
      usage?: { input_tokens: number };
    };
    const md = readFileSync(file, "utf8");
    expect(md).toMatch(/^## ✅ agentstream: evosci succeeded\n/);
    expect(md).toContain(`| **status** | succeeded (exit 0) |`);
    expect(md).toContain(`| **duration** | ${formatDuration(finished.duration_ms)} |`);
    expect(md).toContain(`| **tool calls** | ${finished.counts.tool_calls} |`);
    expect(readdirSync(dir)).toEqual(["report.md"]);
  });

  it("writes the JSON report (format from the extension) of a failed run, valid against its schema", async () => {
    const dir = folder();
    const file = join(dir, "report.json");
    const recording = join(dir, "recording.jsonl");
    writeFileSync(recording, '{"type": "error", "message": "Error code: 529 - overloaded"}\n');
    const { result } = await runStandIn(scratch, ["--backend", "evosci", "--report", file, "x"], {
      knobs: { STANDIN_TRANSCRIPT: recording },
    });
    expect(result.code).toBe(75);
    const finished = parseJsonl(result.stdout).at(-1)!;
    const report = JSON.parse(readFileSync(file, "utf8")) as { runs: Record<string, unknown>[] };
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.runs).toHaveLength(1);
    expect(report.runs[0]).toMatchObject({
      mode: "run",
      status: "failed",
      exit_code: 75,
      duration_ms: finished.duration_ms,
      counts: finished.counts,
      error: finished.error,
    });
  });

  it("writes an HTML report for a name ending in .html", async () => {
    const dir = folder();
    const file = join(dir, "report.html");
    const { result } = await runStandIn(scratch, ["--backend", "evosci", "--report", file, "x"], { knobs: SUCCESS });
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(file, "utf8").slice(0, 200).toLowerCase()).toContain("<!doctype html>");
  });

  it("hides the secrets stdout hides", async () => {
    const dir = folder();
    const file = join(dir, "report.md");
    const recording = join(dir, "recording.jsonl");
    writeFileSync(recording, '{"type": "done", "response": "the key is s3cr3t-value-123"}\n');
    const { result } = await runStandIn(scratch, ["--backend", "evosci", "--report", file, "x"], {
      knobs: { STANDIN_TRANSCRIPT: recording },
      env: { MY_API_KEY: "s3cr3t-value-123" },
    });
    expect(result.code).toBe(0);
    expect(readFileSync(file, "utf8")).toContain("the key is [redacted]");
    expect(readFileSync(file, "utf8")).not.toContain("s3cr3t");
  });

  it("refuses a name whose format it cannot tell, or a folder that does not exist, with exit 2 before the backend starts", async () => {
    const dir = folder();
    for (const [file, message] of [
      [
        join(dir, "report.txt"),
        `agentstream: --report ${join(dir, "report.txt")}: cannot tell the format from its name`,
      ],
      [
        join(dir, "missing", "report.md"),
        `agentstream: cannot write --report ${join(dir, "missing", "report.md")}: its folder does not exist`,
      ],
    ] as const) {
      const { result, standIn } = await runStandIn(scratch, ["--backend", "evosci", "--report", file, "x"], {
        knobs: SUCCESS,
      });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(message);
      expect(standIn, "the backend started").toBeUndefined();
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("run --summary", () => {
  it("appends the Markdown report to $GITHUB_STEP_SUMMARY, the same as --report FILE.md", async () => {
    const dir = folder();
    const summary = join(dir, "summary.md");
    writeFileSync(summary, "# earlier step\n");
    const file = join(dir, "report.md");
    const { result } = await runStandIn(scratch, ["--backend", "evosci", "--summary", "--report", file, "x"], {
      knobs: SUCCESS,
      env: { GITHUB_STEP_SUMMARY: summary },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(summary, "utf8")).toBe(`# earlier step\n${readFileSync(file, "utf8")}\n`);
  });

  it("says that GITHUB_STEP_SUMMARY is not set, and the run goes on with its own exit code", async () => {
    const { result } = await runStandIn(scratch, ["--backend", "evosci", "--summary", "x"], {
      knobs: SUCCESS,
      env: { GITHUB_STEP_SUMMARY: "" },
    });
    expect(result.code).toBe(0);
    expectCanonical(result);
    expect(result.stderr).toContain(
      "agentstream: --summary: GITHUB_STEP_SUMMARY is not set (not a GitHub Actions step), so no job summary is written",
    );
  });

  it("refuses a summary file it cannot open with exit 2 before the backend starts", async () => {
    const dir = folder();
    const { result, standIn } = await runStandIn(scratch, ["--backend", "evosci", "--summary", "x"], {
      knobs: SUCCESS,
      env: { GITHUB_STEP_SUMMARY: join(dir, "missing", "summary.md") },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("agentstream: cannot write --summary to GITHUB_STEP_SUMMARY");
    expect(standIn).toBeUndefined();
    expect(existsSync(join(dir, "missing"))).toBe(false);
  });
});
