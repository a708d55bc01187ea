// The HTML report in real headless Chromium (Debian's): each backend's example
// and a generated 10,000-event run open from file://, and the rendered DOM
// shows what the events say. Pages and screenshots go to a temporary folder removed
// afterwards, or stay in test/output/ with AGENTSTREAM_KEEP_TEST_OUTPUT=1 (to look at them).
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CanonicalEvent, EventOf } from "../../../../src/canonical/events.js";
import { browserAvailable, launchBrowser, type Browser, type OpenedPage } from "../../../helpers/browser.js";
import { htmlReport, readEvents } from "../../../helpers/html-report.js";

const EXAMPLES_DIR = fileURLToPath(new URL("../../../../examples/", import.meta.url));
const KEEP_OUTPUT = process.env.AGENTSTREAM_KEEP_TEST_OUTPUT === "1";
const OUT = KEEP_OUTPUT
  ? fileURLToPath(new URL("../../../output/report-html/", import.meta.url))
  : mkdtempSync(join(tmpdir(), "agentstream-report-html-"));
afterAll(() => {
  if (!KEEP_OUTPUT) rmSync(OUT, { recursive: true, force: true });
});
const { longRun } = (await import(new URL("../../../bench/long-run.mjs", import.meta.url).href)) as {
  longRun: (events: number) => CanonicalEvent[];
};

const EXAMPLES = readdirSync(EXAMPLES_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) =>
    readdirSync(join(EXAMPLES_DIR, d.name))
      .filter((f) => f.endsWith(".canonical.jsonl"))
      .map((f) => join(d.name, f)),
  );

function writePage(name: string, html: string): string {
  const file = join(OUT, `${name}.html`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, html);
  return file;
}

function ofType<T extends CanonicalEvent["type"]>(events: CanonicalEvent[], type: T): EventOf<T>[] {
  return events.filter((e) => e.type === type) as EventOf<T>[];
}

/** Each tool.started's final status, in start order (calls are keyed by agent and id). */
function expectedStatuses(events: CanonicalEvent[]): string[] {
  const key = (e: CanonicalEvent & { tool_call_id: string }) => `${e.agent?.instance_id ?? ""}/${e.tool_call_id}`;
  const completed = new Map<string, string[]>();
  for (const e of ofType(events, "tool.completed")) completed.set(key(e), [...(completed.get(key(e)) ?? []), e.status]);
  return ofType(events, "tool.started").map((e) => completed.get(key(e))?.shift() ?? "open");
}

/** The status class of each drawn bar, in tool.started order. */
async function barStatuses(opened: OpenedPage, scope = "body"): Promise<string[]> {
  return opened.page.locator(`${scope} .bar.tool`).evaluateAll((bars) =>
    bars
      .sort((a, b) => Number(a.getAttribute("data-i")) - Number(b.getAttribute("data-i")))
      .map((b) => {
        const statuses = ["succeeded", "failed", "cancelled", "open"].filter((s) => b.classList.contains(s));
        return statuses.length === 1 ? statuses[0]! : `class mismatch: ${b.getAttribute("class")}`;
      }),
  );
}

/** Every element matched has a box on the page, inside its timeline's SVG: [drawn, not drawn]. */
async function drawn(opened: OpenedPage, selector: string): Promise<[number, number]> {
  return opened.page.locator(selector).evaluateAll((items) => {
    let yes = 0;
    for (const item of items) {
      const box = item.getBoundingClientRect();
      const svg = item.closest("svg.tl-svg")!.getBoundingClientRect();
      const inside =
        box.left >= svg.left - 4 && box.right <= svg.right + 4 && box.top >= svg.top && box.bottom <= svg.bottom;
      if (
        box.width > 0 &&
        box.height > 0 &&
        inside &&
        item.ownerDocument.defaultView!.getComputedStyle(item).visibility === "visible" &&
        item.checkVisibility()
      )
        yes++;
    }
    return [yes, items.length - yes];
  });
}

// Page-side expressions as strings: the tests compile without the DOM library.
const ACTIVE_BAR = `document.activeElement?.getAttribute("data-i")`;

const hasBrowser = browserAvailable("HTML report browser tests");

describe.skipIf(!hasBrowser)("HTML report in headless Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const example of EXAMPLES) {
    it(`${example}: one bar per tool call with its status, sub-agent lanes, the answer, keyboard details`, async () => {
      const events = readEvents(join(EXAMPLES_DIR, example));
      const name = example.replace(/\.canonical\.jsonl$/, "").replace("/", "-");
      const opened = await browser.open(writePage(name, htmlReport([[example, events]])));
      const { page } = opened;

      const started = ofType(events, "tool.started");
      expect(await page.locator(".bar.tool").count()).toBe(started.length);
      expect(await barStatuses(opened)).toEqual(expectedStatuses(events));

      const instances = new Set(ofType(events, "subagent.started").map((e) => e.instance_id));
      expect(await page.locator(".tl-row.lane").count()).toBe(1 + instances.size);
      for (const instance of instances) {
        const lane = page.locator(".tl-row.lane", { hasText: instance });
        expect(await lane.getAttribute("data-depth")).toBe("1");
      }

      const finished = ofType(events, "run.finished")[0]!;
      const section = page.locator("section.run");
      expect(await section.getAttribute("data-status")).toBe(finished.status);
      if (finished.result) expect(await page.locator(".answer-text").textContent()).toBe(finished.result.text);
      else expect(await page.locator(".answer-text").count()).toBe(0);
      if (finished.error) expect(await page.locator(".run-error").textContent()).toContain(finished.error.message);
      expect(await page.locator(".mark.msg").count()).toBe(ofType(events, "message.completed").length);

      // Keyboard: Tab to the first bar, Enter opens its details with args and output, Escape closes them and gives focus back.
      if (started.length > 0) {
        for (let i = 0; i < 40 && !(await page.evaluate(`document.activeElement?.classList.contains("tool")`)); i++)
          await page.keyboard.press("Tab");
        const focused = await page.evaluate(ACTIVE_BAR);
        expect(focused).toBe("0");
        await page.keyboard.press("Enter");
        const details = page.locator("#details");
        await details.waitFor({ state: "visible" });
        expect(await details.locator("h2").textContent()).toBe(started[0]!.name);
        expect(await details.locator("pre.args").textContent()).toBe(JSON.stringify(started[0]!.args, null, 2));
        const output = ofType(events, "tool.completed").find(
          (e) => e.tool_call_id === started[0]!.tool_call_id,
        )!.output;
        expect(await details.locator("pre.output").textContent()).toBe(output === "" ? "(empty)" : output);
        await page.keyboard.press("Escape");
        await details.waitFor({ state: "hidden" });
        expect(await page.evaluate(ACTIVE_BAR)).toBe("0");
      }

      await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
      expect(opened.errors).toEqual([]);
      expect(opened.requests).toEqual([]);
      await page.close();
    });
  }

  it("a generated 10,000-event run: every call a bar, every sub-agent a lane", async () => {
    const events = longRun(10_000);
    expect(events).toHaveLength(10_000);
    const opened = await browser.open(writePage("long-run", htmlReport([["long-run.jsonl", events]])));
    const { page } = opened;
    expect(await page.locator(".bar.tool").count()).toBe(ofType(events, "tool.started").length);
    expect(await barStatuses(opened)).toEqual(expectedStatuses(events));
    expect(await page.locator(".tl-row.lane").count()).toBe(1 + ofType(events, "subagent.started").length);
    expect(await page.locator(".mark.msg").count()).toBe(ofType(events, "message.completed").length);
    expect(await page.locator(".answer-text").textContent()).toBe("All parts done.");
    expect(await page.evaluate(`performance.getEntriesByName("agentstream-rendered").length`)).toBe(1);
    // Arrow keys walk one lane's calls in time order.
    await page.locator(".bar.tool[data-i='0']").focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    expect(await page.evaluate(ACTIVE_BAR)).toBe("2");
    await page.keyboard.press("ArrowLeft");
    expect(await page.evaluate(ACTIVE_BAR)).toBe("1");
    await page.screenshot({ path: join(OUT, "long-run.png") });
    expect(opened.errors).toEqual([]);
    expect(opened.requests).toEqual([]);
    await page.close();
  });

  it("hostile text stays text: no markup, no script, no request", async () => {
    const hostile = `</script><script>window.__pwned = 1</script><!-- <img src="http://127.0.0.1:9/x" onerror="window.__pwned = 2"> ]]> \u2028 &amp; "'`;
    const events = readEvents(join(EXAMPLES_DIR, "evosci/research.canonical.jsonl")).map((event) => {
      const e = { ...event, run_id: hostile };
      if (e.type === "tool.started") return { ...e, name: hostile, args: { [hostile]: hostile } };
      if (e.type === "tool.completed") return { ...e, name: hostile, output: hostile };
      if (e.type === "subagent.started") return { ...e, name: hostile };
      if (e.type === "message.completed") return { ...e, text: hostile };
      if (e.type === "run.finished") return { ...e, result: { text: hostile } };
      return e;
    });
    const html = htmlReport([[hostile, events]], { title: hostile });
    const opened = await browser.open(writePage("hostile", html));
    const { page } = opened;
    expect(await page.evaluate(`window.__pwned`)).toBeUndefined();
    expect(await page.locator("img").count()).toBe(0);
    expect(await page.locator("script").count()).toBe(2);
    expect(await page.title()).toBe(hostile);
    expect(await page.locator(".answer-text").textContent()).toBe(hostile);
    const barTitle = await page.locator(".bar.tool title").first().textContent();
    expect(barTitle!.startsWith(`${hostile}, `)).toBe(true);
    await page.locator(".bar.tool").first().click();
    expect(await page.locator("#details pre.output").textContent()).toBe(hostile);
    expect(opened.errors).toEqual([]);
    expect(opened.requests).toEqual([]);
    await page.close();
    // The static page, script off: the same text, still text.
    const off = await browser.open(writePage("hostile", html), { javaScript: false });
    expect(await off.page.locator("img").count()).toBe(0);
    expect(await off.page.locator(".answer-text").textContent()).toBe(hostile);
    expect((await off.page.locator(".bar.tool title").first().textContent())!.startsWith(`${hostile}, `)).toBe(true);
    expect(off.requests).toEqual([]);
    await off.page.close();
  });

  it("several runs: one section each and a run picker", async () => {
    const files: [string, CanonicalEvent[]][] = ["pi/tool.canonical.jsonl", "evosci/overloaded.canonical.jsonl"].map(
      (f) => [f, readEvents(join(EXAMPLES_DIR, f))],
    );
    // Two runs in one file as well.
    files.push(["both.jsonl", [...files[0]![1], ...files[1]![1]]]);
    const opened = await browser.open(writePage("several", htmlReport(files)));
    const { page } = opened;
    expect(await page.locator("section.run").count()).toBe(4);
    expect(
      await page.locator("nav .picker a").evaluateAll((links) => links.map((a) => a.getAttribute("href"))),
    ).toEqual(["#run-1", "#run-2", "#run-3", "#run-4"]);
    expect(await page.locator("section.run").evaluateAll((s) => s.map((x) => x.getAttribute("data-status")))).toEqual([
      "succeeded",
      "failed",
      "succeeded",
      "failed",
    ]);
    expect(opened.errors).toEqual([]);
    await page.close();
  });

  it("light and dark: the colours follow prefers-color-scheme", async () => {
    const file = writePage(
      "scheme",
      htmlReport([["x", readEvents(join(EXAMPLES_DIR, "atomic/tools.canonical.jsonl"))]]),
    );
    const colours = async (scheme: "light" | "dark") => {
      const opened = await browser.open(file, { colorScheme: scheme });
      const result = await opened.page.evaluate(
        `[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]`,
      );
      await opened.page.screenshot({ path: join(OUT, `scheme-${scheme}.png`) });
      await opened.page.close();
      return result;
    };
    expect(await colours("light")).toEqual(["rgb(255, 255, 255)", "rgb(31, 35, 40)"]);
    expect(await colours("dark")).toEqual(["rgb(13, 17, 23)", "rgb(230, 237, 243)"]);
  });

  // Three example runs (one with sub-agents and a failed call) and the long run, its calls capped at 1,000.
  const CAP = 1000;
  function mixedRuns(): { files: [string, CanonicalEvent[]][]; html: string } {
    const files: [string, CanonicalEvent[]][] = [
      "evosci/research.canonical.jsonl",
      "pi/tool.canonical.jsonl",
      "evosci/overloaded.canonical.jsonl",
    ].map((f) => [f, readEvents(join(EXAMPLES_DIR, f))]);
    files.push(["long-run.jsonl", longRun(10_000)]);
    return { files, html: htmlReport(files, { limits: { toolCalls: CAP } }) };
  }

  it("without JavaScript: every run's figures, answer and SVG timeline, one bar per tool.started up to the cap", async () => {
    const { files, html } = mixedRuns();
    const opened = await browser.open(writePage("no-script", html), { javaScript: false });
    const { page } = opened;
    expect(await page.evaluate(`document.documentElement.hasAttribute("data-rendered")`)).toBe(false);
    const sections = page.locator("section.run");
    expect(await sections.count()).toBe(files.length);
    for (const [i, [, events]] of files.entries()) {
      const section = `section#run-${i + 1}`;
      const started = ofType(events, "tool.started");
      const finished = ofType(events, "run.finished")[0]!;
      expect(await page.locator(`${section} .bar.tool`).count()).toBe(Math.min(started.length, CAP));
      expect(await barStatuses(opened, section)).toEqual(expectedStatuses(events).slice(0, CAP));
      expect(await page.locator(`${section} .figures dt`, { hasText: "tool calls" }).isVisible()).toBe(true);
      if (finished.result)
        expect(await page.locator(`${section} .answer-text`).textContent()).toBe(finished.result.text);
      if (finished.error)
        expect(await page.locator(`${section} .run-error`).textContent()).toContain(finished.error.message);
      expect(await drawn(opened, `${section} .bar.tool`)).toEqual([Math.min(started.length, CAP), 0]);
      expect(await page.locator(`${section} .tl-row.lane`).count()).toBe(1 + ofType(events, "subagent.started").length);
      if (started.length > CAP) {
        // The rest are counted by status: they add up to what the cap left out.
        const note = await page.locator(`${section} .omitted`).textContent();
        const counted = /tool calls not drawn: ([^;.]*)/.exec(note!)![1]!;
        const sum = counted.split(", ").reduce((n, part) => n + Number(part.split(" ")[0]!.replace(/,/g, "")), 0);
        expect(sum).toBe(started.length - CAP);
      }
    }
    // No zoom buttons without the script that would work them.
    expect(await page.locator(".controls button").count()).toBe(0);
    await page.screenshot({ path: join(OUT, "no-script.png") });
    expect(opened.errors).toEqual([]);
    expect(opened.requests).toEqual([]);
    await page.close();
  });

  it("print and PDF of a 3-run report: every run's lanes drawn, a page break between runs, no screen-only parts", async () => {
    const { files } = mixedRuns();
    const file = writePage("print", htmlReport(files.slice(0, 3)));
    for (const javaScript of [true, false]) {
      const opened = await browser.open(file, { media: "print", javaScript });
      const { page } = opened;
      for (const [i, [, events]] of files.slice(0, 3).entries()) {
        const section = `section#run-${i + 1}`;
        const lanes = 1 + ofType(events, "subagent.started").length;
        // Each lane's label and its part of the SVG have boxes; every bar and marker is drawn inside the SVG.
        const labels = await page
          .locator(`${section} .tl-row.lane`)
          .evaluateAll((rows) => rows.filter((r) => r.getBoundingClientRect().height > 0).length);
        expect(labels).toBe(lanes);
        expect(await drawn(opened, `${section} .tl-svg svg.lane`)).toEqual([lanes, 0]);
        const items = ofType(events, "tool.started").length + ofType(events, "message.completed").length;
        expect(await drawn(opened, `${section} .bar.tool, ${section} .mark.msg`)).toEqual([items, 0]);
        const style = await page
          .locator(section)
          .evaluate((s) => s.ownerDocument.defaultView!.getComputedStyle(s).breakBefore);
        expect(style).toBe(i === 0 ? "auto" : "page");
        expect(
          await page
            .locator(`${section} .timeline`)
            .evaluate((t) => t.ownerDocument.defaultView!.getComputedStyle(t).breakInside),
        ).toBe("avoid");
      }
      expect(await page.locator("nav.runs").isVisible()).toBe(false);
      expect(
        await page.locator(".controls button").evaluateAll((b) => b.filter((x) => x.getClientRects().length).length),
      ).toBe(0);
      // The PDF itself: at least a page per run.
      const pdf = await page.pdf({ format: "A4" });
      const pages = pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? [];
      expect(pages.length).toBeGreaterThanOrEqual(3);
      if (javaScript) writeFileSync(join(OUT, "print.pdf"), pdf);
      await page.screenshot({ path: join(OUT, `print-${javaScript ? "script" : "no-script"}.png`), fullPage: true });
      expect(opened.errors).toEqual([]);
      expect(opened.requests).toEqual([]);
      await page.close();
    }
  });

  it("in print, with or without JavaScript, what sits in a closed <details> (more errors) prints too", async () => {
    let seq = 0;
    const at = (type: string, payload: object) =>
      ({
        v: 1,
        seq: ++seq,
        ts: "2026-01-01T00:00:00.000Z",
        elapsed_ms: seq,
        run_id: "r",
        backend: "pi",
        type,
        ...payload,
      }) as CanonicalEvent;
    const events = [at("run.started", { agentstream_version: "0", mode: "normalize" })];
    for (let i = 0; i < 14; i++) events.push(at("error", { code: `e${i}`, message: "overloaded", retryable: true }));
    const file = writePage("more-errors", htmlReport([["errors", events]]));
    const heights = async (options: { media?: "print"; javaScript?: boolean }) => {
      const opened = await browser.open(file, options);
      const result = await opened.page
        .locator(".more-errors li")
        .evaluateAll((items) => items.map((li) => li.checkVisibility()));
      await opened.page.close();
      return result;
    };
    expect(await heights({})).toEqual([false, false, false, false]);
    expect(await heights({ media: "print" })).toEqual([true, true, true, true]);
    expect(await heights({ media: "print", javaScript: false })).toEqual([true, true, true, true]);
  });

  it("a bar too narrow for its label keeps a minimum width on screen", async () => {
    let seq = 0;
    const at = (elapsed_ms: number, type: string, payload: object) =>
      ({
        v: 1,
        seq: ++seq,
        ts: "2026-01-01T00:00:00.000Z",
        elapsed_ms,
        run_id: "r",
        backend: "pi",
        type,
        ...payload,
      }) as CanonicalEvent;
    const events = [
      at(0, "run.started", { agentstream_version: "0", mode: "run" }),
      at(0, "tool.started", { tool_call_id: "long", name: "bash", args: {} }),
      at(4000, "tool.started", { tool_call_id: "short", name: "a_long_tool_name", args: {} }),
      at(4001, "tool.completed", { tool_call_id: "short", name: "x", status: "succeeded", output: "" }),
      at(9000, "tool.completed", { tool_call_id: "long", name: "bash", status: "succeeded", output: "" }),
    ];
    const opened = await browser.open(writePage("narrow", htmlReport([["narrow", events]])));
    const narrow = opened.page.locator("rect.bar.tool");
    expect(await narrow.count()).toBe(1);
    expect(await narrow.locator("title").textContent()).toBe("a_long_tool_name, 1 ms");
    // 1 ms of 9 s is a fraction of a pixel; what shows (and takes a click) is at least 6 px wide.
    const hits = await narrow.evaluate((bar) => {
      const box = bar.getBoundingClientRect();
      const middle = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      return [-2.9, 0, 2.9].map((dx) => bar.ownerDocument.elementFromPoint(middle + dx, y) === bar);
    });
    expect(hits).toEqual([true, true, true]);
    expect(await narrow.evaluate((bar) => bar.ownerDocument.defaultView!.getComputedStyle(bar).strokeWidth)).toBe(
      "6px",
    );
    await opened.page.screenshot({ path: join(OUT, "narrow.png") });
    await opened.page.close();
  });
});
