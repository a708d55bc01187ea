// The HTML report's builder without a browser: what it keeps of a run, its
// bounds on a huge stream, how runs are split, and that the embedded data
// cannot end its element. (test/report-html-browser.test.ts renders it.)
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { CanonicalEvent } from "../src/canonical/events.js";
import { CSP, embedJson } from "../src/report/html/page.js";
import { browserAvailable } from "./support/browser.js";
import { embeddedData, htmlReport, readEvents } from "./support/html-report.js";

const EXAMPLE = fileURLToPath(new URL("../examples/evosci/research.canonical.jsonl", import.meta.url));

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
      duration_ms: finished.duration_ms,
      counts: finished.counts,
      usage: finished.usage,
    });
    expect(run.answer).toEqual({ x: finished.result!.text });
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
    expect(run.usageLine.at(-1)).toEqual([expect.any(Number), 41071, 200, 0]);
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
    expect(run.tools[0]!.args.n).toBeGreaterThan(1_000_000);
    expect(run.omitted.tools).toEqual({ succeeded: 9950, failed: 9950 });
    expect(run.messages).toHaveLength(50);
    expect(run.omitted.messages).toBe(19_950);
    expect(run.usageLine.length).toBeLessThanOrEqual(65);
    // The line still ends at the true totals.
    expect(run.usageLine.at(-1)!.slice(1, 3)).toEqual([200_000, 20_000]);
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
    expect(html).not.toMatch(/@import|url\(/i);
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
    expect(embeddedData(html).runs[0]!.answer).toEqual({ x: hostile });
    expect(html).toContain(`<title>&#60;/script&#62;&#60;!-- &#60;/SCRIPT &#62; &#60;script&#62; \u2028\u2029</title>`);
  });
});

describe("browser tests without Chromium", () => {
  it("skip with a notice, or fail where AGENTSTREAM_REQUIRE_BROWSER=1 (CI)", () => {
    const before = process.env.AGENTSTREAM_REQUIRE_BROWSER;
    try {
      process.env.AGENTSTREAM_REQUIRE_BROWSER = "1";
      expect(() => browserAvailable("suite", "/nonexistent/chromium")).toThrow(
        /Chromium not found at \/nonexistent\/chromium.*AGENTSTREAM_REQUIRE_BROWSER=1/,
      );
      delete process.env.AGENTSTREAM_REQUIRE_BROWSER;
      expect(browserAvailable("suite", "/nonexistent/chromium")).toBe(false);
    } finally {
      if (before === undefined) delete process.env.AGENTSTREAM_REQUIRE_BROWSER;
      else process.env.AGENTSTREAM_REQUIRE_BROWSER = before;
    }
  });
});
