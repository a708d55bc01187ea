// agentstream report's summary, Markdown and JSON: figures equal run.finished
// for every example, the Markdown renders as GitHub renders it (marked, GFM),
// hostile text cannot break it, and the JSON validates against its schema.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { marked } from "marked";
import { describe, expect, it } from "vitest";
import type { CanonicalEvent, EventOf } from "../../../src/canonical/events.js";
import { formatDuration } from "../../../src/core/compact-figures.js";
import type { ReportBuilder } from "../../../src/report/builder.js";
import { createJsonReport } from "../../../src/report/json-report.js";
import { createMarkdownReport } from "../../../src/report/md-report.js";
import { ReportReducer } from "../../../src/report/report-reducer.js";
import { REPORT_LIMITS, type Report } from "../../../src/report/report-v1.js";

const EXAMPLES = fileURLToPath(new URL("../../../examples/", import.meta.url));
const GOLDEN = fileURLToPath(new URL("../../fixtures/golden/", import.meta.url));
const SCHEMA = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../../schemas/report-v1.schema.json", import.meta.url)), "utf8"),
) as object;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(SCHEMA);

function canonicalFiles(root: string): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(root, d.name))
        .filter((f) => f.endsWith(".canonical.jsonl"))
        .map((f) => join(root, d.name, f)),
    );
}
const examples = canonicalFiles(EXAMPLES);

/**
 * How long a report says a run took, worked out here from the events: a live run (mode run), its
 * run.finished.duration_ms; a recording, the span of the times it states (native_ts), else unknown.
 */
function expectedTime(events: CanonicalEvent[]): { timing: string; duration_ms: number | null; shown: string } {
  const started = events.find((e) => e.type === "run.started") as EventOf<"run.started"> | undefined;
  if (started?.mode === "run") {
    const d = finishedOf(events).duration_ms;
    return { timing: "clock", duration_ms: d, shown: formatDuration(d) };
  }
  const times = events.flatMap((e) => (e.native_ts === undefined ? [] : [Date.parse(e.native_ts)]));
  const span = times.length === 0 ? 0 : Math.max(...times) - Math.min(...times);
  if (span === 0)
    return { timing: "none", duration_ms: null, shown: "unknown: the recording does not time its events" };
  return { timing: "native", duration_ms: span, shown: `${formatDuration(span)} (the backend's own times)` };
}

function eventsOf(path: string): CanonicalEvent[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as CanonicalEvent);
}

function build<B extends ReportBuilder>(builder: B, files: [string, CanonicalEvent[]][]): string {
  for (const [name, events] of files) {
    builder.file(name);
    for (const e of events) builder.add(e);
  }
  return builder.finish();
}

const markdown = (files: [string, CanonicalEvent[]][]) => build(createMarkdownReport(), files);
const json = (files: [string, CanonicalEvent[]][]) => JSON.parse(build(createJsonReport(), files)) as Report;
const html = (md: string) => marked.parse(md, { gfm: true, async: false });

/** The rows of each rendered table, as the text of their cells. */
function tables(rendered: string): string[][][] {
  return [...rendered.matchAll(/<table>([\s\S]*?)<\/table>/g)].map((t) =>
    [...t[1]!.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) =>
      [...r[1]!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => decode(c[1]!)),
    ),
  );
}

function decode(cell: string): string {
  return cell
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .trim();
}

/** The first table (the facts) as key → value. */
function facts(rendered: string): Record<string, string> {
  return Object.fromEntries(
    tables(rendered)[0]!
      .slice(1)
      .map(([k, v]) => [k!, v!]),
  );
}

function finishedOf(events: CanonicalEvent[]): EventOf<"run.finished"> {
  return events.find((e) => e.type === "run.finished") as EventOf<"run.finished">;
}

function tool(
  seq: number,
  type: "tool.started" | "tool.completed",
  id: string,
  name: string,
  extra: Record<string, unknown> = {},
): CanonicalEvent {
  const base = {
    v: 1,
    seq,
    ts: "2026-01-01T00:00:00.000Z",
    elapsed_ms: seq,
    run_id: "r",
    backend: "pi",
    type,
    tool_call_id: id,
    name,
  };
  return (type === "tool.started"
    ? { ...base, args: {} }
    : { ...base, status: "succeeded", output: "", ...extra }) as unknown as CanonicalEvent;
}

/** A small run of the "run" mode (timed by elapsed_ms) with the given middle events and a run.finished. */
function run(middle: CanonicalEvent[], finished: Record<string, unknown> = {}): CanonicalEvent[] {
  const head = { v: 1, seq: 1, ts: "2026-01-01T00:00:00.000Z", elapsed_ms: 0, run_id: "r", backend: "pi" };
  const started = { ...head, type: "run.started", agentstream_version: "0", mode: "run" };
  const end = {
    ...head,
    seq: middle.length + 2,
    elapsed_ms: 99,
    type: "run.finished",
    status: "succeeded",
    exit_code: 0,
    backend_exit: { code: 0, signal: null },
    duration_ms: 99,
    result: { text: "done" },
    counts: {
      turns: 1,
      messages: 1,
      tool_calls: 0,
      tool_failures: 0,
      errors: 0,
      retries: 0,
      unknown_events: 0,
      unparsed_lines: 0,
    },
    ...finished,
  };
  return [started, ...middle, end] as unknown as CanonicalEvent[];
}

describe("report figures equal run.finished", () => {
  it.each(examples.map((f) => [f.slice(EXAMPLES.length), f]))("%s", (name, path) => {
    const events = eventsOf(path);
    const f = finishedOf(events);
    const data = json([[name, events]]);
    const r = data.runs[0]!;
    const time = expectedTime(events);
    expect(data.runs).toHaveLength(1);
    expect(r).toMatchObject({
      finished: true,
      status: f.status,
      exit_code: f.exit_code,
      duration_ms: time.duration_ms,
      timing: time.timing,
      counts: f.counts,
      result_text: f.result?.text ?? null,
    });
    expect(r.usage).toEqual(f.usage ?? null);
    expect(r.error).toEqual(f.error ?? null);
    expect(r.resume).toEqual(f.resume ?? null);
    expect(data.totals).toMatchObject({
      runs: 1,
      finished: 1,
      tool_calls: f.counts.tool_calls,
      tool_failures: f.counts.tool_failures,
      duration_ms: time.duration_ms ?? 0,
      duration_complete: time.duration_ms !== null,
    });

    const rendered = html(markdown([[name, events]]));
    const shown = facts(rendered);
    expect(shown.status).toBe(`${f.status.replace("_", " ")} (exit ${f.exit_code})`);
    expect(shown.duration).toBe(time.shown);
    expect(shown["tool calls"]).toBe(
      `${f.counts.tool_calls}${f.counts.tool_failures > 0 ? ` (${f.counts.tool_failures} failed)` : ""}`,
    );
    const usage = f.usage!;
    expect(shown.tokens).toBe(
      `${usage.input_tokens.toLocaleString("en-US")} in / ${usage.output_tokens.toLocaleString("en-US")} out${usage.complete === false ? " (incomplete: the backend under-reports)" : ""}`,
    );
    expect(shown.cost).toBe(usage.cost_usd === undefined ? "–" : `$${usage.cost_usd}`);
    if (f.error)
      expect(shown.error!.startsWith(`${f.error.code}${f.error.retryable ? " (retryable)" : ""}: `)).toBe(true);
    if (f.result)
      expect(rendered).toContain(
        `<pre><code>${f.result.text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")}`,
      );
    // The resume hint is shown where the run did not succeed.
    if (f.resume) expect(rendered.includes(f.resume.hint)).toBe(f.status !== "succeeded");
  });
});

describe("report --format json", () => {
  it.each(
    [...examples, ...canonicalFiles(GOLDEN)].map((f) => [
      f.slice(f.indexOf("/", f.indexOf(f.startsWith(EXAMPLES) ? "examples" : "golden")) + 1),
      f,
    ]),
  )("validates against schemas/report-v1.schema.json: %s", (name, path) => {
    const data = json([[name, eventsOf(path)]]);
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
  });

  it("validates for several files, a stream cut short, and no tool calls at all", () => {
    const cut = eventsOf(examples[0]!).slice(0, -3);
    const data = json([
      ...examples.map((f): [string, CanonicalEvent[]] => [f, eventsOf(f)]),
      ["cut.jsonl", cut],
      ["plain.jsonl", run([])],
    ]);
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
    expect(data.runs).toHaveLength(examples.length + 2);
  });
});

describe("a stream without run.finished", () => {
  const events = eventsOf(join(EXAMPLES, "evosci/research.canonical.jsonl")).slice(0, 20);

  it("is incomplete: no outcome, duration, usage or answer is made up; what the lines show is counted", () => {
    const r = json([["cut.jsonl", events]]).runs[0]!;
    expect(r).toMatchObject({
      finished: false,
      status: "incomplete",
      exit_code: null,
      duration_ms: null,
      error: null,
      usage: null,
      result_text: null,
    });
    expect(r.counts.tool_calls).toBe(events.filter((e) => e.type === "tool.started").length);
    expect(r.tools.open).toBe(r.tools.calls - r.tools.completed);
    expect(r.tools.open).toBeGreaterThan(0);
  });

  it("says so in the Markdown, and counts as not succeeded in the totals", () => {
    const rendered = html(markdown([["cut.jsonl", events]]));
    expect(facts(rendered).status).toBe("incomplete: the stream ended before run.finished, so the outcome is unknown");
    expect(facts(rendered).duration).toBe("unknown: the recording does not time its events");
    const ok = eventsOf(join(EXAMPLES, "pi/tool.canonical.jsonl"));
    const totals = json([
      ["cut.jsonl", events],
      ["ok.jsonl", ok],
    ]).totals;
    expect(totals).toMatchObject({ runs: 2, finished: 1, success_rate: 0.5, usage_complete: false });
    expect(totals.by_status).toMatchObject({ succeeded: 1, incomplete: 1 });
  });
});

describe("several files", () => {
  const files = examples.map((f): [string, CanonicalEvent[]] => [f.slice(EXAMPLES.length), eventsOf(f)]);
  const finished = files.map(([, e]) => finishedOf(e));

  it("one row per run, in order, with its figures, and totals that are their sums", () => {
    const rendered = html(markdown(files));
    const [summary, runs] = tables(rendered);
    expect(runs![0]).toEqual(["run", "backend", "status", "duration", "tools", "failures", "tokens", "cost"]);
    expect(runs!.slice(1).map((r) => r[0])).toEqual(files.map(([name]) => name));
    runs!.slice(1).forEach((row, i) => {
      const f = finished[i]!;
      expect(row[2]).toContain(f.status.replace("_", " "));
      const time = expectedTime(files[i]![1]);
      expect(row[3]).toBe(time.duration_ms === null ? "unknown" : formatDuration(time.duration_ms));
      expect(row[4]).toBe(String(f.counts.tool_calls));
      expect(row[5]).toBe(String(f.counts.tool_failures));
      expect(row[6]!.startsWith(`${f.usage!.input_tokens.toLocaleString("en-US")} in / `)).toBe(true);
    });
    const t = json(files).totals;
    const sum = (pick: (f: EventOf<"run.finished">) => number) => finished.reduce((s, f) => s + pick(f), 0);
    expect(t).toMatchObject({
      runs: files.length,
      tool_calls: sum((f) => f.counts.tool_calls),
      tool_failures: sum((f) => f.counts.tool_failures),
      input_tokens: sum((f) => f.usage!.input_tokens),
      duration_ms: files.reduce((total, [, events]) => total + (expectedTime(events).duration_ms ?? 0), 0),
      success_rate: finished.filter((f) => f.status === "succeeded").length / files.length,
    });
    expect(t.cost_usd).toBeCloseTo(
      sum((f) => f.usage!.cost_usd ?? 0),
      12,
    );
    expect(Object.fromEntries(summary!.slice(1).map(([k, v]) => [k, v]))).toMatchObject({
      "tool calls": `${t.tool_calls} (${t.tool_failures} failed)`,
      "success rate": `${Math.round(t.success_rate! * 1000) / 10}%`,
    });
    expect(rendered).toContain("Runs that did not succeed");
  });

  it("ranks the slowest tools over all runs", () => {
    const slow = run([
      tool(2, "tool.started", "a", "build"),
      tool(3, "tool.completed", "a", "build", { duration_ms: 5000 }),
      tool(4, "tool.started", "b", "ls"),
      tool(5, "tool.completed", "b", "ls", { duration_ms: 10 }),
    ]);
    const t = json([
      ["1", slow],
      ["2", slow],
    ]).totals;
    expect(t.slowest_tools.map((s) => [s.name, s.calls, s.total_ms, s.mean_ms, s.max_ms])).toEqual([
      ["build", 2, 10_000, 5000, 5000],
      ["ls", 2, 20, 10, 10],
    ]);
  });

  it("gives a tool's total time as null, not 0, when no call of it has a known duration", () => {
    // normalize mode: no duration_ms and no native times, so nothing times the calls.
    const untimed = run([tool(2, "tool.started", "a", "ls"), tool(3, "tool.completed", "a", "ls")]).map((e) =>
      e.type === "run.started" ? ({ ...e, mode: "normalize" } as CanonicalEvent) : e,
    );
    const data = json([["untimed.jsonl", untimed]]);
    expect(data.runs[0]!.tools.by_name).toEqual([
      { name: "ls", calls: 1, succeeded: 1, failed: 0, cancelled: 0, timed: 0, total_ms: null, max_ms: null },
    ]);
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
    expect(data.totals.slowest_tools).toEqual([]);
  });

  it("splits a file that holds several runs", () => {
    const one = run([]);
    const data = json([["both.jsonl", [...one, ...one]]]);
    expect(data.runs.map((r) => [r.file, r.status, r.events])).toEqual([
      ["both.jsonl", "succeeded", 2],
      ["both.jsonl", "succeeded", 2],
    ]);
  });
});

describe("Markdown that hostile text cannot break", () => {
  const NAME = "a|b`c`<script>alert(1)</script>*em*_u_ [link](http://x) www.y.z https://w ~~s~~ $x$ @me\nnext";
  const SHOWN = "a|b`c`<script>alert(1)</script>*em*_u_ [link](http://x) www.y.z https://w ~~s~~ $x$ @me next";
  const ANSWER = "```\n</details>\n<script>alert(1)</script>\n| a | b |\n````\nend";
  const events = run(
    [
      tool(2, "tool.started", "t1", NAME),
      tool(3, "tool.completed", "t1", NAME, { status: "failed", output: "bad | output\n<img src=x onerror=alert(1)>" }),
      tool(4, "tool.started", "t2", "- list"),
      tool(5, "tool.completed", "t2", "- list"),
    ],
    {
      result: { text: ANSWER },
      counts: {
        turns: 1,
        messages: 1,
        tool_calls: 2,
        tool_failures: 1,
        errors: 0,
        retries: 0,
        unknown_events: 0,
        unparsed_lines: 0,
      },
    },
  );
  const rendered = html(markdown([["x.jsonl", events]]));

  it("keeps every cell of the tool table in its column, the names shown as they are", () => {
    const calls = tables(rendered)[1]!;
    expect(calls.every((row) => row.length === calls[0]!.length)).toBe(true);
    expect(calls.slice(1).map((r) => [r[0], r[1]])).toEqual([
      [SHOWN, "✖ failed"],
      ["- list", "✔ succeeded"],
    ]);
    expect(calls[1]![3]).toBe("bad | output <img src=x onerror=alert(1)>");
  });

  it("makes no HTML, emphasis, code, link, strikethrough or list of the text", () => {
    const tools = rendered.slice(rendered.indexOf("Tool calls"));
    for (const tag of ["<script", "<img", "<em>", "<strong>", "<a ", "<del>", "<ul>", "<li>"])
      expect(tools).not.toContain(tag);
    expect(tools.slice(0, tools.indexOf("</table>"))).not.toContain("<code>");
  });

  it("shows the answer verbatim in one code block, even with fences and </details> in it", () => {
    const blocks = [...rendered.matchAll(/<pre><code>([\s\S]*?)<\/code><\/pre>/g)].map((m) => decode(m[1]!));
    expect(blocks).toContain(ANSWER);
  });

  it("collapses a long answer in a <details> section that survives rendering", () => {
    const long = Array.from({ length: 40 }, (_, i) => `line ${i} </details> |`).join("\n");
    const out = html(markdown([["x.jsonl", run([], { result: { text: long } })]]));
    expect(out).toMatch(/<details><summary>Final answer \(40 lines, [\d,]+ characters\)<\/summary>/);
    const inside = out.slice(out.indexOf("<details><summary>Final answer"));
    expect(decode(/<pre><code>([\s\S]*?)<\/code><\/pre>/.exec(inside)![1]!)).toBe(long);
    expect(inside.indexOf("</details>", inside.indexOf("</pre>"))).toBeGreaterThan(0);
  });

  it("shows control characters instead of sending them", () => {
    const out = markdown([
      [
        "x.jsonl",
        run([tool(2, "tool.started", "t", "a\u001b[31mred"), tool(3, "tool.completed", "t", "a\u001b[31mred")]),
      ],
    ]);
    expect(out).not.toContain("\u001b");
    expect(out).toContain("a␛\\[31mred");
  });
});

describe("needs input, retries, compaction and sub-agents", () => {
  it("shows what the run waits for and the resume hint", () => {
    const pending = [
      {
        request_id: "q1",
        kind: "approval",
        actions: [{ name: "execute", args: {}, description: "rm -rf build", allowed_decisions: ["approve"] }],
      },
    ];
    const events = run([], {
      status: "needs_input",
      exit_code: 3,
      result: null,
      pending,
      resume: { session_id: "s1", hint: "EvoSci --resume s1" },
    });
    const out = html(markdown([["x.jsonl", events]]));
    expect(facts(out).status).toBe("needs input (exit 3)");
    expect(out).toContain("<li>approval: execute: rm -rf build</li>");
    expect(out).toContain("<pre><code>EvoSci --resume s1\n</code></pre>");
  });

  it("lists retries and compactions", () => {
    const head = { v: 1, ts: "2026-01-01T00:00:00.000Z", elapsed_ms: 1, run_id: "r", backend: "pi" };
    const middle = [
      {
        ...head,
        seq: 2,
        type: "retry.started",
        scope: "request",
        attempt: 1,
        max_attempts: 3,
        delay_ms: 2000,
        error: "529 overloaded",
      },
      {
        ...head,
        seq: 3,
        type: "compaction.completed",
        reason: "threshold",
        tokens_before: 180000,
        tokens_after: 20000,
      },
    ] as unknown as CanonicalEvent[];
    const counts = {
      turns: 1,
      messages: 1,
      tool_calls: 0,
      tool_failures: 0,
      errors: 0,
      retries: 1,
      unknown_events: 0,
      unparsed_lines: 0,
    };
    const out = html(markdown([["x.jsonl", run(middle, { counts })]]));
    const [, retries, compactions] = tables(out);
    expect(retries![1]).toEqual(["1/3", "request", "2.0s", "529 overloaded"]);
    expect(compactions![1]).toEqual(["threshold", "180,000", "20,000", "done"]);
  });
});

describe("bounded memory", () => {
  it("keeps per-name aggregates and a few notable calls, not every call", () => {
    const reducer = new ReportReducer();
    reducer.file("big.jsonl");
    const head = { v: 1, ts: "2026-01-01T00:00:00.000Z", run_id: "r", backend: "pi" };
    reducer.add({
      ...head,
      seq: 1,
      elapsed_ms: 0,
      type: "run.started",
      agentstream_version: "0",
      mode: "run",
    } as unknown as CanonicalEvent);
    const calls = 20_000;
    for (let i = 0; i < calls; i++) {
      const name = `tool-${i % 1000}`;
      reducer.add(tool(2 * i + 2, "tool.started", `c${i}`, name));
      reducer.add(
        tool(2 * i + 3, "tool.completed", `c${i}`, name, {
          status: i % 7 === 0 ? "failed" : "succeeded",
          output: "x".repeat(10_000),
        }),
      );
    }
    const r = reducer.finish().runs[0]!;
    expect(r.tools).toMatchObject({ calls, completed: calls, open: 0, all: [] });
    expect(r.tools.by_name).toHaveLength(REPORT_LIMITS.toolNames);
    expect(r.tools.by_name.reduce((s, t) => s + t.calls, 0) + r.tools.calls_of_omitted_names).toBe(calls);
    expect(r.tools.failures).toHaveLength(REPORT_LIMITS.failures);
    expect(r.tools.failures[0]!.output!.length).toBeLessThanOrEqual(REPORT_LIMITS.outputChars);
    expect(r.tools.slowest).toHaveLength(REPORT_LIMITS.slowest);
    expect(r.tools.slowest.map((s) => s.duration_ms)).toEqual(
      [...r.tools.slowest.map((s) => s.duration_ms)].sort((a, b) => b! - a!),
    );
  });
});
