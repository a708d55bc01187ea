// The HTML report with a long run: time to build it from 10,000 canonical
// events, its size, and the time headless Chromium takes from navigation start
// to the "agentstream-rendered" mark the page's script sets once the timeline
// is drawn and laid out (a fresh page each round, the file already cached).
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { CHROMIUM, launchChromium } from "../helpers/chromium.mjs";
import { longRun } from "./long-run.mjs";
import { median } from "./stats.mjs";

const EVENTS = 10_000;

export async function measureReportHtml({ repo, cacheDir, rounds, log }) {
  if (!existsSync(CHROMIUM)) return { skipped: `Chromium not found at ${CHROMIUM}` };
  const { createHtmlReport } = await import(pathToFileURL(join(repo, "dist/report/html/index.js")).href);
  const events = longRun(EVENTS);
  const build = () => {
    const builder = createHtmlReport();
    builder.file("long-run.jsonl");
    for (const event of events) builder.add(event);
    return builder.finish();
  };
  const buildMs = [];
  let html = "";
  for (let round = 0; round <= rounds; round++) {
    const start = performance.now();
    html = build();
    if (round > 0) buildMs.push(performance.now() - start);
  }
  mkdirSync(cacheDir, { recursive: true });
  const file = join(cacheDir, "report-html-10k.html");
  writeFileSync(file, html);

  const { context, close } = await launchChromium();
  const renderMs = [];
  const bars = [];
  try {
    // Round 0 warms the browser and the file cache and is not counted.
    for (let round = 0; round <= rounds; round++) {
      const page = await context.newPage();
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(pathToFileURL(file).href);
      await page.waitForSelector("html[data-rendered=true]");
      const [mark, count] = await page.evaluate(
        `[performance.getEntriesByName("agentstream-rendered")[0].startTime, document.querySelectorAll(".bar.tool").length]`,
      );
      if (round > 0) renderMs.push(mark);
      bars.push(count);
      await page.close();
    }
  } finally {
    await close();
  }
  log(`  HTML report: ${rounds} rounds done`);
  return {
    events: EVENTS,
    tool_calls: events.filter((e) => e.type === "tool.started").length,
    bars: bars[0],
    bytes: Buffer.byteLength(html),
    build_ms: round1(median(buildMs)),
    render_ms: round1(median(renderMs)),
    render_ms_all: renderMs.map(round1),
    chromium: CHROMIUM,
  };
}

export function formatReportHtml(r) {
  if (r.skipped) return `HTML report: skipped (${r.skipped})`;
  return [
    `HTML report of a ${r.events.toLocaleString("en-US")}-event run (${r.tool_calls.toLocaleString("en-US")} tool calls, ${r.bars.toLocaleString("en-US")} bars drawn):`,
    `build ${r.build_ms} ms, ${(r.bytes / 1024).toFixed(0)} KiB; Chromium navigation start to rendered ${r.render_ms} ms (median of ${r.render_ms_all.length}: ${r.render_ms_all.join(", ")})`,
  ].join("\n");
}

const round1 = (n) => Math.round(n * 10) / 10;
