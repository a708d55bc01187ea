// The HTML report in real headless Chromium (Debian's): each backend's example
// and a generated 10,000-event run open from file://, and the rendered DOM
// shows what the events say. Pages and screenshots stay in test/output/.
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CanonicalEvent, EventOf } from "../src/canonical/events.js";
import { browserAvailable, launchBrowser, type Browser, type OpenedPage } from "./support/browser.js";
import { htmlReport, readEvents } from "./support/html-report.js";

const EXAMPLES_DIR = fileURLToPath(new URL("../examples/", import.meta.url));
const OUT = fileURLToPath(new URL("./output/report-html/", import.meta.url));
const { longRun } = (await import(new URL("./bench/long-run.mjs", import.meta.url).href)) as {
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

async function barStatuses(opened: OpenedPage): Promise<string[]> {
  return opened.page
    .locator(".bar.tool")
    .evaluateAll((bars) =>
      bars
        .sort((a, b) => Number(a.getAttribute("data-i")) - Number(b.getAttribute("data-i")))
        .map((b) =>
          b.classList.contains(`status-${b.getAttribute("data-status")}`)
            ? b.getAttribute("data-status")!
            : `class mismatch: ${b.className}`,
        ),
    );
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
    expect(await page.locator(".bar.tool").first().textContent()).toBe(hostile);
    await page.locator(".bar.tool").first().click();
    expect(await page.locator("#details pre.output").textContent()).toBe(hostile);
    expect(opened.errors).toEqual([]);
    expect(opened.requests).toEqual([]);
    await page.close();
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
});
