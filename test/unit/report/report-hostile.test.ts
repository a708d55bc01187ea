// Reports over streams they did not write: every text of every format is cut
// to a documented cap (REPORT_LIMITS), and events that carry a valid envelope
// but break the canonical schema are read for what they hold, the rest
// skipped and said, with a JSON report that validates whatever the input.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { CanonicalEvent } from "../../../src/canonical/events.js";
import type { ReportBuilder } from "../../../src/report/builder.js";
import type { ReadEvent, SchemaNode as Node } from "../../../src/report/event-reading.js";
import { REPORT_FORMATS } from "../../../src/report/builders.js";
import type { ReportFormat } from "../../../src/report/formats.js";
import { withReadableEvents } from "../../../src/report/readable-builder.js";
import { REPORT_LIMITS, type Report } from "../../../src/report/report-v1.js";
import { fuzzParameters, fuzzTimeoutMs } from "../../helpers/fuzz/settings.js";
import { runCli } from "../../helpers/cli.js";

const readJson = (path: string) =>
  JSON.parse(readFileSync(fileURLToPath(new URL(path, import.meta.url)), "utf8")) as Record<string, unknown>;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(
  readJson("../../../schemas/report-v1.schema.json"),
);
const CANONICAL = readJson("../../../schemas/canonical-v1.schema.json") as {
  properties: Record<string, Node>;
  $defs: Record<string, Node>;
};

const dir = mkdtempSync(join(tmpdir(), "agentstream-report-hostile-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEAD = { v: 1, ts: "2026-01-01T00:00:00.000Z", elapsed_ms: 0, run_id: "r", backend: "pi" };
const COUNTS = {
  turns: 1,
  messages: 1,
  tool_calls: 1,
  tool_failures: 1,
  errors: 1,
  retries: 0,
  unknown_events: 0,
  unparsed_lines: 0,
};

/** Events numbered in order, each with the envelope. */
function stream(...payloads: Record<string, unknown>[]): CanonicalEvent[] {
  return payloads.map((p, i) => ({ ...HEAD, seq: i + 1, ...p }) as unknown as CanonicalEvent);
}

const started = { type: "run.started", agentstream_version: "0", mode: "normalize" };
function finished(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: "run.finished",
    status: "failed",
    exit_code: 1,
    backend_exit: null,
    duration_ms: 9,
    result: null,
    counts: COUNTS,
    ...extra,
  };
}

function build(format: ReportFormat, events: CanonicalEvent[], name = "hostile.jsonl"): string {
  const builder = REPORT_FORMATS[format]();
  builder.file(name);
  for (const e of events) builder.add(e);
  return builder.finish();
}

function jsonReport(events: CanonicalEvent[]): Report {
  const report = JSON.parse(build("json", events)) as Report;
  expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
  return report;
}

/** Every string of a JSON value, with its path. */
function strings(value: unknown, path = ""): [string, string][] {
  if (typeof value === "string") return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${path}[${i}]`));
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([k, v]) => strings(v, path === "" ? k : `${path}.${k}`));
  return [];
}

describe("every text of a report is capped", () => {
  const lines = "a traceback line\n".repeat(1_500_000);

  it("an error message of 1.5 million lines: Markdown, JSON and HTML are built, each bounded", () => {
    const events = stream(
      started,
      { type: "error", code: "provider", message: lines, retryable: false },
      finished({ error: { code: "provider", message: lines, retryable: false }, stderr_tail: [lines] }),
    );
    const md = build("md", events);
    expect(md.length).toBeLessThan(20_000);
    expect(md).toContain("a traceback line");
    const report = jsonReport(events);
    expect(report.runs[0]!.error!.message.length).toBe(REPORT_LIMITS.messageChars);
    expect(report.runs[0]!.error!.message.endsWith("…")).toBe(true);
    expect(report.runs[0]!.errors[0]!.message.length).toBe(REPORT_LIMITS.messageChars);
    expect(report.runs[0]!.stderr_tail[0]!.length).toBe(REPORT_LIMITS.stderrLineChars);
    expect(JSON.stringify(report).length).toBeLessThan(20_000);
    expect(build("html", events).length).toBeLessThan(200_000);
  });

  it("a 3 MB message is not copied whole into the JSON report", () => {
    const big = "x".repeat(3 * 1024 * 1024);
    const events = stream(started, finished({ error: { code: "provider", message: big, retryable: true } }));
    expect(build("json", events).length).toBeLessThan(10_000);
  });

  it("an answer of 100,000 lines full of backtick runs: the Markdown is built, the answer cut at its cap", () => {
    const answer = "`` x\n".repeat(100_000);
    const events = stream(started, finished({ status: "succeeded", exit_code: 0, result: { text: answer } }));
    const md = build("md", events);
    expect(md).toContain(`*The answer is cut at ${REPORT_LIMITS.resultChars.toLocaleString("en-US")} characters.*`);
    const report = jsonReport(events);
    expect(report.runs[0]!.result_text!.length).toBe(REPORT_LIMITS.resultChars);
    expect(report.runs[0]!.result_truncated).toBe(true);
  });

  it("names, ids, outputs, notes and every other text of the JSON report stay within their caps", () => {
    const long = (c: string) => c.repeat(50_000);
    const agent = { name: long("n"), instance_id: long("i") };
    const events = stream(
      { ...started, command: [long("c")], session_id: long("s") },
      { type: "message.completed", message_id: "m", text: long("t"), model: long("m") },
      { type: "model.changed", model: long("M"), reason: "user" },
      { type: "tool.started", tool_call_id: long("1"), name: long("b"), args: { a: long("a") }, agent },
      { type: "tool.completed", tool_call_id: long("1"), name: long("b"), status: "failed", output: long("o"), agent },
      { type: "subagent.started", name: long("n"), instance_id: long("i"), description: long("d") },
      { type: "retry.started", scope: "request", attempt: 1, delay_ms: 5, error: long("e") },
      { type: "compaction.completed", error: long("E") },
      { type: "error", code: "tool", message: long("x"), retryable: false, agent },
      finished({
        status: "needs_input",
        exit_code: 3,
        error: { code: "provider", message: long("y"), retryable: false },
        result: { text: long("r") },
        resume: { session_id: long("S"), hint: long("h") },
        stderr_tail: Array.from({ length: 100 }, () => long("l")),
        pending: [
          {
            request_id: long("q"),
            kind: "approval",
            tool_call_id: long("1"),
            actions: Array.from({ length: 50 }, () => ({
              name: long("A"),
              args: {},
              description: long("D"),
              allowed_decisions: ["approve"],
            })),
          },
        ],
      }),
    );
    const report = jsonReport(events);
    const over = strings(report).filter(
      ([path, text]) => text.length > (path.endsWith("result_text") ? REPORT_LIMITS.resultChars : 2000),
    );
    expect(over.map(([path, text]) => `${path}: ${text.length}`)).toEqual([]);
    const run = report.runs[0]!;
    expect(run.stderr_tail).toHaveLength(REPORT_LIMITS.stderrLines);
    expect(run.pending[0]!.asks).toHaveLength(REPORT_LIMITS.notes);
    expect(run.tools.by_name[0]!.name.length).toBe(REPORT_LIMITS.nameChars);
    expect(run.tools.failures[0]!.output!.length).toBe(REPORT_LIMITS.outputChars);
    expect(build("md", events).length).toBeLessThan(150_000);
    expect(build("html", events).length).toBeLessThan(1_000_000);
  });
});

describe("events that break the schema but carry a valid envelope", () => {
  const call = { tool_call_id: "a", name: "bash" };
  const hostile = stream(
    started,
    { type: "tool.started", ...call, args: {} },
    { type: "tool.completed", ...call, status: "failed", output: 5 },
    { type: "error", code: "tool", message: { text: "not text" }, retryable: false },
    { type: "error", code: "tool", message: null, retryable: false },
    finished({
      counts: "many",
      usage: { input_tokens: "12", output_tokens: -1 },
      error: { code: "tool", message: null, retryable: false },
      stderr_tail: [1, "last line"],
    }),
  );

  it("are read for what they hold: Markdown, JSON and HTML are built, the JSON validates", () => {
    expect(build("md", hostile)).toContain("**status** | failed (exit 1)");
    expect(build("html", hostile)).toContain("<!doctype html>");
    const run = jsonReport(hostile).runs[0]!;
    // The call completed (its output, a number, is left out); run.finished gave its outcome.
    expect(run.tools).toMatchObject({ calls: 1, completed: 1, failed: 1, open: 0 });
    expect(run.tools.failures[0]).not.toHaveProperty("output");
    // A recording that states no times: its duration is unknown, not the 9 ms its run.finished took to read.
    expect(run).toMatchObject({
      finished: true,
      status: "failed",
      exit_code: 1,
      duration_ms: null,
      timing: "none",
      usage: null,
    });
    expect(run.error).toBeNull();
    expect(run.stderr_tail).toEqual(["last line"]);
    // Without run.finished's counts, the counts are the lines' own.
    expect(run.counts).toMatchObject({ tool_calls: 1, tool_failures: 1, errors: 0 });
  });

  it("say what they skipped: a count and the first notes, in the JSON and the Markdown", () => {
    const run = jsonReport(hostile).runs[0]!;
    expect(run.skipped).toEqual({
      events: 2,
      fields: 5,
      run_finished: false,
      notes: [
        "seq 3 tool.completed: output must be a string: left out",
        "seq 4 error skipped: message must be a string",
        "seq 5 error skipped: message must be a string",
        "seq 6 run.finished: usage.input_tokens must be an integer: usage left out",
        "seq 6 run.finished: counts must be an object: left out",
        "seq 6 run.finished: error.message must be a string: error left out",
        "seq 6 run.finished: stderr_tail[0] must be a string: left out",
      ],
    });
    const md = build("md", hostile);
    expect(md).toContain("| **skipped** | 2 events skipped, 5 fields left out (they break the canonical schema) |");
    expect(md).toContain("- seq 4 error skipped: message must be a string");
  });

  it("a run.finished without a readable outcome is skipped: the run is incomplete, and the report says why", () => {
    const events = stream(started, finished({ status: "done", exit_code: "1" }));
    const run = jsonReport(events).runs[0]!;
    expect(run).toMatchObject({ finished: false, status: "incomplete", skipped: { events: 1, run_finished: true } });
    expect(build("md", events)).toContain(
      "incomplete: its run.finished breaks the schema and was skipped, so the outcome is unknown",
    );
  });

  it("an event that meets the schema is read as it is, and a report over valid events says nothing was skipped", () => {
    const valid = stream(started, { type: "tool.started", ...call, args: {} }, finished());
    expect(jsonReport(valid).runs[0]).not.toHaveProperty("skipped");
    expect(build("md", valid)).not.toContain("skipped");
  });

  it("a format that reduces events itself gets what could be read of each, and is told of the rest", () => {
    const added: CanonicalEvent[] = [];
    const told: [number, ReadEvent][] = [];
    const inner: ReportBuilder = {
      file: () => {},
      add: (e) => void added.push(e),
      finish: () => "",
      unreadable: (e, read) => void told.push([e.seq, read]),
    };
    const builder = withReadableEvents(inner);
    for (const e of hostile) builder.add(e);
    expect(added.map((e) => e.seq)).toEqual([1, 2, 3, 6]);
    expect(added[2]).not.toHaveProperty("output");
    expect(told.map(([seq, read]) => [seq, read.event === undefined, read.leftOut])).toEqual([
      [3, false, 1],
      [4, true, 0],
      [5, true, 0],
      [6, false, 4],
    ]);
  });

  it("agentstream report reads such a file in every format, exit 0", async () => {
    const file = join(dir, "hostile.jsonl");
    writeFileSync(file, `${hostile.map((e) => JSON.stringify(e)).join("\n")}\n`);
    for (const format of ["md", "json", "html"]) {
      const result = await runCli(["report", "--format", format, file]);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      if (format === "json") expect(validate(JSON.parse(result.stdout)), JSON.stringify(validate.errors)).toBe(true);
    }
  });
});

// Events generated from the canonical schema, each field valid or not: any type
// the schema knows, any field of it present or not, valid or any JSON.
function resolve(node: Node): Node {
  return node.$ref ? resolve(CANONICAL.$defs[node.$ref.replace("#/$defs/", "")]!) : node;
}

function nearlyValid(rule: Node, depth = 0): fc.Arbitrary<unknown> {
  const node = resolve(rule);
  const wrong = fc.jsonValue({ maxDepth: 2 });
  const valid = ((): fc.Arbitrary<unknown> => {
    if (node.oneOf) return fc.oneof(...node.oneOf.map((n) => nearlyValid(n, depth + 1)));
    if (node.const !== undefined) return fc.constant(node.const);
    if (node.enum) return fc.constantFrom(...node.enum);
    const type = Array.isArray(node.type) ? node.type[0] : node.type;
    switch (type) {
      case "string":
        return fc.string({ maxLength: 20 });
      case "integer":
        return fc.integer({ min: node.minimum ?? -10, max: 100_000 });
      case "number":
        return fc.double({ min: node.minimum ?? -10, max: 100, noNaN: true });
      case "boolean":
        return fc.boolean();
      case "array":
        return fc.array(node.items && depth < 4 ? nearlyValid(node.items, depth + 1) : wrong, { maxLength: 3 });
      case "object":
        return depth < 4 && node.properties ? objectOf(node, depth + 1) : fc.dictionary(fc.string(), wrong);
      default:
        return wrong;
    }
  })();
  return fc.oneof({ arbitrary: valid, weight: 5 }, { arbitrary: wrong, weight: 1 });
}

/** An object of the node's fields: either all its required ones and some others, or any of them. */
function objectOf(node: Node, depth: number, omit: string[] = []): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(node.properties ?? {}).filter((k) => !omit.includes(k));
  const fields = Object.fromEntries(keys.map((k) => [k, nearlyValid(node.properties![k]!, depth)]));
  return fc
    .boolean()
    .chain((whole) => fc.record(fields, { requiredKeys: whole ? keys.filter((k) => node.required?.includes(k)) : [] }));
}

const TYPES = Object.keys(CANONICAL.$defs).filter((k) => k.includes("."));
// The envelope a report needs to read a line at all (agentstream report checks it), the rest generated.
const envelope = objectOf({ ...CANONICAL, type: "object" }, 0, ["v", "seq", "run_id", "type"]);

const hostileEvent = fc
  .record({ type: fc.constantFrom(...TYPES), run_id: fc.constantFrom("r", "s"), envelope })
  .chain(({ type, run_id, envelope }) =>
    objectOf(resolve(CANONICAL.$defs[type]!), 0).map((payload) => ({ ...envelope, ...payload, v: 1, run_id, type })),
  );

describe("a recording's times near the largest number", () => {
  it("an HTML timeline whose end is 1.76e308 ms is built, its axis finite (the recording's 2% margin overflowed to an endless axis)", () => {
    const events = stream(
      started,
      { type: "message.completed", text: "hi", elapsed_ms: 1.7624442498650155e308 },
      finished(),
    );
    const html = build("html", events);
    expect(html).toContain("Times unknown");
    expect(html.match(/class="tick"/g)?.length ?? 0).toBeLessThan(50);
  });
});

describe("a report over generated hostile events", () => {
  it(
    "never throws, in any format, and its JSON always validates against report-v1",
    () => {
      fc.assert(
        fc.property(fc.array(hostileEvent, { maxLength: 30 }), (payloads) => {
          const events = payloads.map((p, i) => ({ ...p, seq: i + 1 }) as unknown as CanonicalEvent);
          const report = JSON.parse(build("json", events)) as Report;
          if (!validate(report)) throw new Error(JSON.stringify(validate.errors));
          build("md", events);
          build("html", events);
        }),
        fuzzParameters(),
      );
    },
    fuzzTimeoutMs(),
  );
});
