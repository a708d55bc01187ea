// Secrets in every output of a run, as a real process: each canonical event is
// redacted once, as an object, before any sink renders, escapes or serializes
// it — so a secret that HTML, Markdown or JSON would escape cannot slip past.
// Each secret has a unique core ("Zq9…Xy7") that no output may show in any form.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseJsonl, runCli } from "../../helpers/cli.js";
import { Scratch, runStandIn } from "../../helpers/stand-in.js";
import { closedPort, collectorBinary, startCollector, type Collector } from "../../helpers/otel-collector.js";

const scratch = new Scratch();
afterAll(() => scratch.remove());

let folders = 0;
function folder(): string {
  const dir = join(scratch.dir, `secrets-${++folders}`);
  mkdirSync(dir);
  return dir;
}

/** An EvoScientist transcript whose tool call, tool output and answer all quote `secret`. */
function recording(dir: string, secret: string): string {
  const file = join(dir, "recording.jsonl");
  const lines = [
    { type: "tool_call", name: "http", args: { url: "https://api.example", token: secret }, id: "t1" },
    { type: "tool_result", name: "http", content: `sent ${secret}`, success: false, id: "t1" },
    { type: "done", response: `the key is ${secret} (keep it)` },
  ];
  writeFileSync(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
  return file;
}

/** No trace of the secret: neither its start nor its end, however escaped. */
function expectHidden(text: string, what: string): void {
  expect(text, what).not.toMatch(/Zq9|Xy7/);
}

describe("secrets are hidden in every sink, whatever the format escapes", () => {
  it('HTML report: a secret with &, <, " and \\ in it', async () => {
    const dir = folder();
    const secret = 'Zq9&a<b"c\\dXy7';
    const report = join(dir, "report.html");
    const { result } = await runStandIn(scratch, ["--backend", "evosci", "--report", report, "x"], {
      knobs: { STANDIN_TRANSCRIPT: recording(dir, secret) },
      env: { MY_API_KEY: secret },
    });
    expect(result.code, result.stderr).toBe(0);
    expectHidden(result.stdout, "stdout");
    const html = readFileSync(report, "utf8");
    expect(html).toContain("[redacted]");
    expectHidden(html, "the HTML report");
  });

  it("Markdown report and job summary: underscore secrets (sk_live_…, a STRIPE_SECRET_KEY value)", async () => {
    const dir = folder();
    const secret = "sk_live_Zq9_abc_def_Xy7";
    const report = join(dir, "report.md");
    const summary = join(dir, "summary.md");
    const { result } = await runStandIn(scratch, ["--backend", "evosci", "--summary", "--report", report, "x"], {
      knobs: { STANDIN_TRANSCRIPT: recording(dir, secret) },
      env: { STRIPE_SECRET_KEY: secret, GITHUB_STEP_SUMMARY: summary },
    });
    expect(result.code, result.stderr).toBe(0);
    const md = readFileSync(report, "utf8");
    expect(md).toContain("[redacted]");
    expectHidden(md, "the Markdown report");
    expectHidden(readFileSync(summary, "utf8"), "the job summary");
  });

  it("JSON report and the answer file: a secret with a quote and a backslash", async () => {
    const dir = folder();
    const secret = 'Zq9"quoted\\Xy7';
    const report = join(dir, "report.json");
    const answer = join(dir, "answer.txt");
    const { result } = await runStandIn(
      scratch,
      ["--backend", "evosci", "--report", report, "--answer-file", answer, "x"],
      { knobs: { STANDIN_TRANSCRIPT: recording(dir, secret) }, env: { MY_TOKEN: secret } },
    );
    expect(result.code, result.stderr).toBe(0);
    expectHidden(readFileSync(report, "utf8"), "the JSON report");
    expect(readFileSync(answer, "utf8")).toBe("the key is [redacted] (keep it)\n");
  });

  it("report FILE over a recorded stream hides this environment's secrets in HTML too", async () => {
    const dir = folder();
    const secret = 'Zq9&a<b"c\\dXy7';
    const stream = join(dir, "run.jsonl");
    const { result } = await runStandIn(scratch, ["--backend", "evosci", "x"], {
      knobs: { STANDIN_TRANSCRIPT: recording(dir, secret) },
    });
    writeFileSync(stream, result.stdout);
    expect(result.stdout).toContain("Zq9");
    const html = await runCli(["report", "--format", "html", stream], { env: { MY_API_KEY: secret } });
    expect(html.code, html.stderr).toBe(0);
    expectHidden(html.stdout, "report --format html");
    const md = await runCli(["report", stream], { env: { MY_API_KEY: secret } });
    expectHidden(md.stdout, "report --format md");
  });
});

describe.skipIf(!collectorBinary())("secrets in what reaches an OTLP collector", () => {
  let collector: Collector;
  beforeAll(async () => {
    collector = await startCollector();
  });
  afterAll(async () => {
    await collector?.stop();
  });

  it("--otlp-content: tool arguments that JSON escapes keep no secret", async () => {
    const dir = folder();
    const secret = 'Zq9"quoted\\Xy7';
    const { result } = await runStandIn(
      scratch,
      ["--backend", "evosci", "--otlp", collector.endpoint, "--otlp-content", "x"],
      { knobs: { STANDIN_TRANSCRIPT: recording(dir, secret) }, env: { MY_API_KEY: secret } },
    );
    expect(result.code, result.stderr).toBe(0);
    const runId = (parseJsonl(result.stdout)[0] as { run_id: string }).run_id;
    const spans = await collector.waitForSpans((all) =>
      all.some((s) => s.parentSpanId === undefined && s.attributes["agentstream.run_id"] === runId),
    );
    const text = JSON.stringify(spans, (_key, value: unknown) => (typeof value === "bigint" ? String(value) : value));
    expect(text).toContain("[redacted]");
    expectHidden(text, "the spans");
  });

  it("export otlp FILE --otlp-content: a recorded stream's secrets of this environment reach no span", async () => {
    const dir = folder();
    const secret = 'Zq9"quoted\\Xy7';
    const stream = join(dir, "run.jsonl");
    const { result } = await runStandIn(scratch, ["--backend", "evosci", "x"], {
      knobs: { STANDIN_TRANSCRIPT: recording(dir, secret) },
    });
    writeFileSync(stream, result.stdout);
    expect(result.stdout).toContain("Zq9");
    const runId = (parseJsonl(result.stdout)[0] as { run_id: string }).run_id;
    const exported = await runCli(["export", "otlp", "--endpoint", collector.endpoint, "--otlp-content", stream], {
      env: { MY_API_KEY: secret },
    });
    expect(exported.code, exported.stderr).toBe(0);
    const spans = await collector.waitForSpans((all) =>
      all.some((s) => s.parentSpanId === undefined && s.attributes["agentstream.run_id"] === runId),
    );
    const text = JSON.stringify(spans, (_key, value: unknown) => (typeof value === "bigint" ? String(value) : value));
    expect(text).toContain("[redacted]");
    expectHidden(text, "the spans of export otlp");
  });
});

describe("a collector URL's credentials are never printed", () => {
  it("--otlp, OTEL_EXPORTER_OTLP_ENDPOINT and export otlp --endpoint: the URL is shown without user and password", async () => {
    const down = new URL(await closedPort());
    const withUser = `http://agent:Zq9pwXy7@${down.host}`;
    const stream = join(folder(), "run.jsonl");
    const { result } = await runStandIn(scratch, ["--backend", "evosci", "--otlp", withUser, "x"], {
      knobs: { STANDIN_TRANSCRIPT: recording(folder(), "nothing-secret") },
      env: { OTEL_EXPORTER_OTLP_TIMEOUT: "500" },
    });
    writeFileSync(stream, result.stdout);
    expect(result.stderr).toContain(`OTLP export to http://${down.host}/v1/traces failed`);
    expectHidden(result.stderr, "run --otlp");

    const fromEnv = await runCli(["normalize", "--otlp", "--from", "evosci", stream], {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: withUser, OTEL_EXPORTER_OTLP_TIMEOUT: "500" },
    });
    expect(fromEnv.stderr).toContain("OTLP export to");
    expectHidden(fromEnv.stderr, "normalize --otlp with OTEL_EXPORTER_OTLP_ENDPOINT");

    const exported = await runCli(["export", "otlp", "--endpoint", withUser, stream], {
      env: { OTEL_EXPORTER_OTLP_TIMEOUT: "500" },
    });
    expect(exported.code).toBe(75);
    expect(exported.stderr).toContain(`http://${down.host}/v1/traces`);
    expectHidden(exported.stderr, "export otlp --endpoint");
  });
});

describe("a sink that fails never changes stdout or the exit code", () => {
  it("run --summary --report r.md over a 1.5-million-line error: exit 75 as without them, no stack trace", async () => {
    const dir = folder();
    const transcript = join(dir, "overloaded.jsonl");
    const message = `Error code: 529 - overloaded${"\nmore".repeat(1_500_000)}`;
    writeFileSync(transcript, `${JSON.stringify({ type: "error", message })}\n`);
    const report = join(dir, "r.md");
    const summary = join(dir, "summary.md");
    writeFileSync(summary, "");
    const plain = await runStandIn(scratch, ["--backend", "evosci", "x"], {
      knobs: { STANDIN_TRANSCRIPT: transcript },
    });
    const { result } = await runStandIn(scratch, ["--backend", "evosci", "--summary", "--report", report, "x"], {
      knobs: { STANDIN_TRANSCRIPT: transcript },
      env: { GITHUB_STEP_SUMMARY: summary },
    });
    expect(plain.result.code).toBe(75);
    expect(result.code).toBe(75);
    expect(parseJsonl(result.stdout).at(-1)).toMatchObject({ type: "run.finished", exit_code: 75 });
    expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
    // Each either is written or is one warning naming it.
    for (const [name, written] of [
      ["--report", () => readFileSync(report, "utf8")],
      ["--summary", () => readFileSync(summary, "utf8")],
    ] as const) {
      const warnings = result.stderr.split("\n").filter((line) => line.startsWith(`agentstream: ${name} failed:`));
      if (warnings.length === 0) expect(written(), name).toContain("529");
      else expect(warnings, name).toHaveLength(1);
    }
  });
});
