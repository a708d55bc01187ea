#!/usr/bin/env node
// `npm run screenshot`: docs/report-html.png, the README's picture of the HTML
// report, made from a real example (EvoScientist's research run with two
// sub-agents and a failed call) in headless Chromium, its failed call's
// details open as a click shows them.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { launchChromium } from "./chromium.mjs";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const EXAMPLE = "examples/evosci/research.canonical.jsonl";
const OUT = join(REPO, "docs/report-html.png");

const { createHtmlReport } = await import(pathToFileURL(join(REPO, "dist/report/html/index.js")).href);
const builder = createHtmlReport();
builder.file(EXAMPLE);
for (const line of readFileSync(join(REPO, EXAMPLE), "utf8").split("\n")) if (line) builder.add(JSON.parse(line));
const dir = mkdtempSync(join(tmpdir(), "agentstream-screenshot-"));
const page = join(dir, "report.html");
writeFileSync(page, builder.finish());

const { context, close } = await launchChromium();
try {
  const tab = await context.newPage();
  await tab.setViewportSize({ width: 1440, height: 820 });
  await tab.emulateMedia({ colorScheme: process.env.SCHEME === "dark" ? "dark" : "light" });
  await tab.goto(pathToFileURL(page).href);
  await tab.waitForSelector("html[data-rendered=true]");
  await tab.click(".bar.tool.failed");
  await tab.waitForSelector("#details:not([hidden])");
  await tab.screenshot({ path: OUT });
  process.stderr.write(`written: ${OUT}\n`);
} finally {
  await close();
  rmSync(dir, { recursive: true, force: true });
}
