// `agentstream report` as a real process: files and stdin in, the report on
// stdout or in --out, and clear one-line refusals (exit 2) for inputs that
// cannot be read or are not canonical streams.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";

const example = (path: string): string => fileURLToPath(new URL(`../../../examples/${path}`, import.meta.url));
const RESEARCH = example("evosci/research.canonical.jsonl");
const PI = example("pi/tool.canonical.jsonl");
const SCHEMA = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../../schemas/report-v1.schema.json", import.meta.url)), "utf8"),
) as object;
const validate = new Ajv2020({ strict: true }).compile(SCHEMA);

const dir = mkdtempSync(join(tmpdir(), "agentstream-report-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("agentstream report", () => {
  it("writes one run's Markdown on stdout, exit 0", async () => {
    const result = await runCli(["report", RESEARCH]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^## ✅ agentstream: evosci succeeded\n/);
    expect(result.stdout).toContain("| **tool calls** | 4 (1 failed) |");
  });

  it("reads stdin as -, and a failed run still reports with exit 0", async () => {
    const result = await runCli(["report", "--format", "json", "-"], {
      input: readFileSync(example("evosci/overloaded.canonical.jsonl")),
    });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { runs: { file: string; status: string; exit_code: number }[] };
    expect(report.runs).toEqual([expect.objectContaining({ file: "-", status: "failed", exit_code: 75 })]);
  });

  it("reports several files as one table; --out takes the format from its extension and leaves no temporary file", async () => {
    const out = join(dir, "several", "report.json");
    const md = join(dir, "several", "report.md");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(join(dir, "several"));
    const json = await runCli(["report", "--out", out, RESEARCH, PI]);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).toBe("");
    const report = JSON.parse(readFileSync(out, "utf8")) as {
      runs: unknown[];
      totals: { runs: number; success_rate: number };
    };
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.totals).toMatchObject({ runs: 2, success_rate: 1 });
    const markdown = await runCli(["report", "--out", md, RESEARCH, PI]);
    expect(markdown.code, markdown.stderr).toBe(0);
    expect(readFileSync(md, "utf8")).toContain("## agentstream: 2 runs, 100% succeeded");
    expect(readdirSync(join(dir, "several")).sort()).toEqual(["report.json", "report.md"]);
  });

  it("refuses an input it cannot read, in one line, exit 2, writing nothing", async () => {
    const out = join(dir, "never.md");
    const result = await runCli(["report", "--out", out, PI, join(dir, "missing.jsonl")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`agentstream: cannot read ${join(dir, "missing.jsonl")}: no such file\n`);
    expect(readdirSync(dir).filter((f) => f.includes("never"))).toEqual([]);
  });

  it("refuses a native stream with a hint to normalize it first, exit 2", async () => {
    const native = example("pi/tool.native.jsonl");
    const result = await runCli(["report", native]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      `agentstream: ${native} is not a canonical stream: event 1 has no "v": 1, seq, run_id\nhint: a backend's native stream is translated first: agentstream normalize ${native} | agentstream report -\n`,
    );
  });

  it("refuses a line that is not JSON, and an empty stream", async () => {
    const bad = join(dir, "bad.jsonl");
    writeFileSync(bad, `${readFileSync(PI, "utf8")}not json\n`);
    const notJson = await runCli(["report", bad]);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toBe(
      `agentstream: ${bad} is not a canonical stream: line 16: not a JSON object: not json\n`,
    );
    const empty = await runCli(["report", "-"], { input: "" });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("agentstream: stdin holds no canonical events\n");
  });

  it("refuses an --out whose format it cannot tell, or a bad --format, exit 2", async () => {
    const noExt = await runCli(["report", "--out", join(dir, "report.txt"), PI]);
    expect(noExt.code).toBe(2);
    expect(noExt.stderr).toContain("--out");
    expect(noExt.stderr).toContain("cannot tell the format from its name");
    const bad = await runCli(["report", "--format", "pdf", PI]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("'pdf' is invalid");
  });

  it("writes HTML with --format html or an --out ending in .html; offers exactly the formats there are", async () => {
    const out = join(dir, "report.html");
    const byExtension = await runCli(["report", "--out", out, RESEARCH]);
    expect(byExtension.code, byExtension.stderr).toBe(0);
    const page = readFileSync(out, "utf8");
    expect(page.slice(0, 200).toLowerCase()).toContain("<!doctype html>");
    const byFlag = await runCli(["report", "--format", "html", RESEARCH]);
    expect(byFlag.stdout).toBe(page);
    const { buildProgram } = await import("../../../src/cli/main.js");
    const { REPORT_FORMAT_NAMES } = await import("../../../src/report/formats.js");
    const format = buildProgram()
      .commands.find((c) => c.name() === "report")!
      .options.find((o) => o.long === "--format")!;
    expect([...format.argChoices!].sort()).toEqual([...REPORT_FORMAT_NAMES].sort());
  });

  it("writes the Markdown sample docs/reports.md shows", async () => {
    const readme = readFileSync(fileURLToPath(new URL("../../../docs/reports.md", import.meta.url)), "utf8");
    const intro = "`agentstream report examples/evosci/research.canonical.jsonl` writes:\n\n````markdown\n";
    const start = readme.indexOf(intro);
    expect(start).toBeGreaterThan(-1);
    const sample = readme.slice(start + intro.length, readme.indexOf("````\n", start + intro.length));
    const result = await runCli(["report", "examples/evosci/research.canonical.jsonl"], {
      cwd: fileURLToPath(new URL("../../..", import.meta.url)),
    });
    expect(result.stdout).toBe(sample);
  });

  it("hides secret-looking environment values the stream quotes", async () => {
    const leaky = join(dir, "leaky.jsonl");
    writeFileSync(leaky, readFileSync(PI, "utf8").replaceAll("Two files: a.txt and b.txt.", "key s3cr3t-value-123"));
    const env = { MY_API_KEY: "s3cr3t-value-123" };
    const md = await runCli(["report", leaky], { env });
    const json = await runCli(["report", "--format", "json", leaky], { env });
    expect(md.stdout).toContain("key [redacted]");
    expect((JSON.parse(json.stdout) as { runs: { result_text: string }[] }).runs[0]!.result_text).toBe(
      "key [redacted]",
    );
    expect(md.stdout + json.stdout).not.toContain("s3cr3t");
  });
});
