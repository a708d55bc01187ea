// The HTML report's builder without a browser: what it keeps of a run, its
// bounds on a huge stream, how runs are split, and that the embedded data
// cannot end its element. (test/unit/report/html/report-html-browser.test.ts renders it.)
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { CanonicalEvent } from "../../../../src/canonical/events.js";
import { DEFAULT_LIMITS, type HtmlLimits, RunCollector } from "../../../../src/report/html/model.js";
import { CSP, embedJson } from "../../../../src/report/html/page.js";
import { browserAvailable } from "../../../helpers/browser.js";
import { embeddedData, htmlReport, readEvents } from "../../../helpers/html-report.js";

const EXAMPLE = fileURLToPath(new URL("../../../../examples/evosci/research.canonical.jsonl", import.meta.url));

let seq = 0;
function event(type: string, payload: object, extra: object = {}): CanonicalEvent {
  seq++;
  return {
    v: 1,
    seq,
    ts: new Date(Date.UTC(2026, 0, 1) + seq).toISOString(),
    elapsed_ms: seq,
    run_id: "r",
    backend: "x",
    type,
    ...extra,
    ...payload,
  } as CanonicalEvent;
}

/** One run collected as the report collects it (the data the page is drawn from). */
function collect(events: CanonicalEvent[], limits: HtmlLimits = DEFAULT_LIMITS): RunCollector {
  const collector = new RunCollector("x", events[0]!, limits);
  for (const e of events) collector.add(e);
  collector.close();
  return collector;
}

/** The tool bars of the page's static SVG timelines, each its opening tag (a <g> or a bare <rect>). */
function bars(html: string): string[] {
  return html.match(/<(?:g|rect) class="bar tool [^"]*"[^>]*>/g) ?? [];
}

describe("HTML report data", () => {
  it("reads the run-level figures from run.finished and every call, lane and message", () => {
    const events = readEvents(EXAMPLE);
    const data = embeddedData(htmlReport([["research.jsonl", events]]));
    expect(data.runs).toHaveLength(1);
    const run = data.runs[0]!;
    const finished = events.at(-1) as CanonicalEvent & { type: "run.finished" };
    expect(run).toMatchObject({
      file: "research.jsonl",
      status: finished.status,
      exit_code: finished.exit_code,
      // A recording whose backend (EvoScientist) states no times: no duration, not the time it took to read.
      timing: "none",
      counts: finished.counts,
      usage: finished.usage,
    });
    expect(run.duration_ms).toBeUndefined();
    expect(run.answer).toBe(finished.result!.text);
    expect(run.tools.map((t) => [t.name, t.status, t.lane])).toEqual([
      ["task", "succeeded", 0],
      ["task", "succeeded", 0],
      ["tavily_search", "failed", 1],
      ["tavily_search", "succeeded", 2],
    ]);
    // The sub-agents' lanes name the task call that spawned each.
    expect(run.lanes.map((l) => [l.instance, l.parent, l.via])).toEqual([
      [undefined, -1, undefined],
      ["inst-a7", 0, 0],
      ["inst-b3", 0, 1],
    ]);
    expect(run.messages).toHaveLength(events.filter((e) => e.type === "message.completed").length);
    // The page draws the usage line and turns itself; the embedded data carries what the details panel shows.
    expect(run).not.toHaveProperty("usageLine");
    expect(run).not.toHaveProperty("turns");
    const collected = collect(events).data;
    expect(collected.usageLine.at(-1)).toEqual([expect.any(Number), 41071, 200, 0]);
    expect(collected.turns.map((t) => t.turn)).toEqual([1, 2]);
  });

  it("bounds a huge stream: calls, text, messages and usage points beyond the limits are counted, not kept", () => {
    const big = "x".repeat(1_000_000);
    const events: CanonicalEvent[] = [event("run.started", { agentstream_version: "0", mode: "normalize" })];
    for (let i = 0; i < 20_000; i++) {
      events.push(event("tool.started", { tool_call_id: `c${i}`, name: "bash", args: { big } }));
      events.push(
        event("tool.completed", {
          tool_call_id: `c${i}`,
          name: "bash",
          status: i % 2 ? "failed" : "succeeded",
          output: big,
        }),
      );
      events.push(event("message.completed", { message_id: `m${i}`, text: big }));
      events.push(event("usage", { scope: "call", input_tokens: 10, output_tokens: 1 }));
    }
    const limits = { toolCalls: 100, messages: 50, textChars: 1000, usagePoints: 64 };
    const html = htmlReport([["big", events]], { limits });
    expect(html.length).toBeLessThan(1_000_000);
    const run = embeddedData(html).runs[0]!;
    expect(run.tools).toHaveLength(100);
    expect(run.tools[0]!.out).toEqual({ x: "x".repeat(1000), n: 1_000_000 });
    expect((run.tools[0]!.args as { n: number }).n).toBeGreaterThan(1_000_000);
    expect(run.omitted.tools).toEqual({ succeeded: 9950, failed: 9950 });
    expect(run.messages).toHaveLength(50);
    expect(run.omitted.messages).toBe(19_950);
    // The static timeline draws exactly the kept calls and says how many it left out.
    expect(bars(html)).toHaveLength(100);
    expect(html).toContain("tool calls not drawn: 9,950 succeeded, 9,950 failed");
    const { usageLine } = collect(events, { ...DEFAULT_LIMITS, ...limits }).data;
    expect(usageLine.length).toBeLessThanOrEqual(65);
    // The line still ends at the true totals.
    expect(usageLine.at(-1)!.slice(1, 3)).toEqual([200_000, 20_000]);
    // Without run.finished the counts are the stream's own.
    expect(run.status).toBeUndefined();
    expect(run.counts).toMatchObject({ tool_calls: 20_000, tool_failures: 10_000, messages: 20_000 });
  });

  it("a stream cut short leaves its calls open and closes its lanes at the last event", () => {
    const agent = { name: "helper", instance_id: "s1" };
    const events = [
      event("run.started", { agentstream_version: "0", mode: "normalize" }),
      event("subagent.started", { name: "helper", instance_id: "s1" }),
      event("tool.started", { tool_call_id: "a", name: "grep", args: {} }, { agent }),
      event("message.completed", { message_id: "m", text: "hi" }, { agent }),
    ];
    const run = embeddedData(htmlReport([["cut", events]])).runs[0]!;
    expect(run.tools.map((t) => [t.status, t.lane])).toEqual([["open", 1]]);
    expect(run.lanes[1]!.t1).toBe(run.end);
  });

  it("one run per run.started, across files and within one; runs beyond the limit get a summary row", () => {
    const run = readEvents(EXAMPLE);
    const data = embeddedData(
      htmlReport(
        [
          ["a", run],
          ["b", [...run, ...run]],
          ["c", run],
        ],
        { limits: { runs: 3 } },
      ),
    );
    expect(data.runs.map((r) => r.file)).toEqual(["a", "b", "b"]);
    expect(data.moreRunsCount).toBe(1);
    expect(data.moreRuns).toEqual([{ file: "c", run_id: "run-test", status: "succeeded", events: run.length }]);
  });
});

describe("HTML report page", () => {
  it("is one self-contained file: a CSP that allows no request, no external reference", () => {
    const html = htmlReport([["x", readEvents(EXAMPLE)]]);
    expect(CSP).toBe("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'");
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${CSP}">`);
    expect(html).not.toMatch(/\b(?:src|href)=["']?(?:https?:|\/\/)/i);
    expect(html).not.toMatch(/@import/i);
    // url() only to the page's own SVG patterns.
    expect(html.match(/url\([^)]*\)/gi)?.every((u) => /^url\(#pat-[a-z]+\)$/.test(u))).toBe(true);
  });

  it("embeds data that cannot close its script element or open a comment", () => {
    const hostile = "</script><!-- </SCRIPT > <script> \u2028\u2029";
    expect(embedJson({ hostile })).not.toMatch(/<|>|\u2028|\u2029/);
    expect(JSON.parse(embedJson({ hostile }))).toEqual({ hostile });
    const html = htmlReport(
      [
        [
          hostile,
          readEvents(EXAMPLE).map((e) => (e.type === "run.finished" ? { ...e, result: { text: hostile } } : e)),
        ],
      ],
      { title: hostile },
    );
    expect(html.match(/<\/script/gi)).toHaveLength(2);
    expect(html).not.toContain("<!--");
    expect(embeddedData(html).runs[0]!.answer).toBe(hostile);
    expect(html).toContain(`<title>&#60;/script&#62;&#60;!-- &#60;/SCRIPT &#62; &#60;script&#62; \u2028\u2029</title>`);
  });

  it("has its content in the HTML: figures, answer, errors and an SVG timeline with one bar per tool.started", () => {
    const events = readEvents(EXAMPLE);
    const html = htmlReport([
      ["research.jsonl", events],
      ["again.jsonl", events],
    ]);
    const body = html.slice(0, html.indexOf("<script"));
    const sections = body.split('<section class="run"').slice(1);
    expect(sections).toHaveLength(2);
    const started = events.filter((e) => e.type === "tool.started");
    for (const section of sections) {
      expect(section).toContain("<dt>tool calls</dt><dd>4 (1 failed)</dd>");
      expect(section).toContain('<pre class="answer-text">Baselines: CIFAR-100 ~76%, Tiny-ImageNet ~55% top-1.</pre>');
      expect(section.match(/<svg class="tl-svg"/g)).toHaveLength(1);
      expect(bars(section)).toHaveLength(started.length);
      expect(bars(section).map((b) => /class="bar tool (\w+)"/.exec(b)![1])).toEqual([
        "succeeded",
        "succeeded",
        "failed",
        "succeeded",
      ]);
      expect(section.match(/<circle class="mark msg"/g)).toHaveLength(
        events.filter((e) => e.type === "message.completed").length,
      );
    }
    expect(body).not.toContain("<noscript");
  });

  it("a bar narrower than its label keeps a minimum width and names the call and its duration in a <title>", () => {
    const events = [
      event("run.started", { agentstream_version: "0", mode: "run" }),
      event("tool.started", { tool_call_id: "long", name: "bash", args: {} }, { elapsed_ms: 0 }),
      event(
        "tool.completed",
        { tool_call_id: "long", name: "bash", status: "succeeded", output: "" },
        { elapsed_ms: 9000 },
      ),
      event("tool.started", { tool_call_id: "short", name: "a_long_tool_name", args: {} }, { elapsed_ms: 9000 }),
      event("tool.completed", { tool_call_id: "short", name: "x", status: "failed", output: "" }, { elapsed_ms: 9001 }),
    ];
    const [wide, narrow] = htmlReport([["x", events]]).match(/<(?:g|rect) class="bar tool[\s\S]*?<\/(?:g|rect)>/g)!;
    expect(wide).toMatch(
      /^<g class="bar tool succeeded".*<title>bash, 9.00 s<\/title>.*<text x="4" y="13">bash<\/text>/,
    );
    // No truncated letter: the bare bar (its stroke is its minimum width) and its tooltip.
    expect(narrow).toMatch(
      /^<rect class="bar tool failed" data-i="1" [^>]*><title>a_long_tool_name, failed, 1 ms<\/title><\/rect>$/,
    );
  });

  it("escapes every text it puts in the SVG and the HTML", () => {
    const hostile = `<img src=x onerror=alert(1)>&"'</svg><script>`;
    const agent = { name: hostile, instance_id: hostile };
    const events = [
      event("run.started", { agentstream_version: "0", mode: "normalize" }),
      event("turn.started", { turn: 1 }),
      event("subagent.started", { name: hostile, instance_id: hostile, description: hostile }),
      event("tool.started", { tool_call_id: "a", name: hostile, args: { hostile } }, { agent }),
      event("tool.completed", { tool_call_id: "a", name: hostile, status: "failed", output: hostile }, { agent }),
      event("message.completed", { message_id: "m", text: hostile }, { agent }),
      event("error", { code: hostile, message: hostile, retryable: false }, { agent }),
      event("turn.completed", { turn: 1, stop_reason: hostile }),
    ].map((e) => ({ ...e, run_id: hostile, backend: hostile }));
    const html = htmlReport([[hostile, events]], { title: hostile });
    const body = html.slice(0, html.indexOf('<script type="application/json"'));
    expect(body).not.toContain("<img");
    expect(body).not.toContain("<script");
    expect(body).not.toContain("</svg><script");
    expect(body).toContain("&#60;img src=x onerror=alert(1)&#62;&#38;&#34;&#39;&#60;/svg&#62;&#60;script&#62;");
  });

  it("the 10,000-event run's page stays within 1,072 KiB (715 KiB before the static timeline, plus at most half)", async () => {
    const { longRun } = (await import(new URL("../../../bench/long-run.mjs", import.meta.url).href)) as {
      longRun: (events: number) => CanonicalEvent[];
    };
    const events = longRun(10_000);
    const html = htmlReport([["long-run.jsonl", events]]);
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(1072 * 1024);
    expect(bars(html)).toHaveLength(events.filter((e) => e.type === "tool.started").length);
  });
});

describe("browser tests without Chromium", () => {
  it("skip with a notice, or fail where AGENTSTREAM_REQUIRE_BROWSER=1 (CI)", () => {
    const before = process.env.AGENTSTREAM_REQUIRE_BROWSER;
    // The notice this test provokes is caught here: on the suite's stderr it would read as a real skip.
    let said = "";
    const notice = (text: string) => (said += text);
    try {
      process.env.AGENTSTREAM_REQUIRE_BROWSER = "1";
      expect(() => browserAvailable("suite", "/nonexistent/chromium", notice)).toThrow(
        /Chromium not found at \/nonexistent\/chromium.*AGENTSTREAM_REQUIRE_BROWSER=1/,
      );
      expect(said).toBe("");
      delete process.env.AGENTSTREAM_REQUIRE_BROWSER;
      expect(browserAvailable("suite", "/nonexistent/chromium", notice)).toBe(false);
      expect(said).toBe(
        "\n*** SKIPPED suite: Chromium not found at /nonexistent/chromium (apt-get install chromium) ***\n\n",
      );
    } finally {
      if (before === undefined) delete process.env.AGENTSTREAM_REQUIRE_BROWSER;
      else process.env.AGENTSTREAM_REQUIRE_BROWSER = before;
    }
  });
});
