// A report of a recording takes its times from what the backend wrote (native_ts), not from how long
// agentstream took to read the file (issue 41: every recorded run lasted 7-43 ms in a report, while a
// bash call in one took 8.8 s). Real captures (test/fixtures/live/), translated and reported by the
// built CLI: OpenCode states its times, EvoScientist none; a live run keeps agentstream's clock.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDuration } from "../../../src/core/compact-figures.js";
import { fmtMs } from "../../../src/report/html/format.js";
import type { Report } from "../../../src/report/report-v1.js";
import { parseJsonl, runCli } from "../../helpers/cli.js";
import { browserAvailable, launchBrowser, type Browser } from "../../helpers/browser.js";

const LIVE = fileURLToPath(new URL("../../fixtures/live/", import.meta.url));
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const OPENCODE = join(LIVE, "opencode-1.18.34", "slowtool.jsonl");
const EVOSCI = join(LIVE, "evosci-0.3.8", "tool.jsonl");
const UNKNOWN = "unknown: the recording does not time its events";

/** The native lines of a capture, parsed. */
function nativeLines(file: string): Record<string, unknown>[] {
  return parseJsonl(readFileSync(file, "utf8"));
}

/** The span of the times a capture's lines state (their `timestamp`, epoch ms or RFC 3339). */
function statedSpan(file: string): number {
  const times = nativeLines(file).map((line) => new Date(line.timestamp as string | number).getTime());
  return Math.max(...times) - Math.min(...times);
}

/** The bash call's own duration in the OpenCode capture: its state.time, end minus start. */
function bashSeconds(): number {
  const line = nativeLines(OPENCODE).find((l) => l.type === "tool_use")!;
  const time = (line.part as { state: { time: { start: number; end: number } } }).state.time;
  return time.end - time.start;
}

let dir: string;
const canonical: Record<string, string> = {};

async function report(files: string[], format: "md" | "json" | "html"): Promise<string> {
  const result = await runCli(["report", "--format", format, ...files]);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

/** The value of a row of the Markdown report's facts table: `| **duration** | … |`. */
function fact(md: string, name: string): string | undefined {
  return new RegExp(`^\\| \\*\\*${name}\\*\\* \\| (.*) \\|$`, "m").exec(md)?.[1];
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "agentstream-recording-times-"));
  for (const [name, from, file] of [
    ["opencode", "opencode", OPENCODE],
    ["evosci", "evosci", EVOSCI],
  ] as const) {
    const result = await runCli(["normalize", "--from", from, "--backend-exit", "0", file]);
    expect(result.code, result.stderr).toBe(0);
    canonical[name] = join(dir, `${name}.jsonl`);
    writeFileSync(canonical[name]!, result.stdout);
  }
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("a recording that states its times (OpenCode)", () => {
  it("JSON: the run's duration is the span of its stated times, its start the first; the bash call its real seconds", async () => {
    const data = JSON.parse(await report([canonical.opencode!], "json")) as Report;
    const run = data.runs[0]!;
    expect(statedSpan(OPENCODE)).toBeGreaterThan(30_000);
    expect(run).toMatchObject({ mode: "normalize", timing: "native", duration_ms: statedSpan(OPENCODE) });
    const first = Math.min(...nativeLines(OPENCODE).map((l) => l.timestamp as number));
    expect(run.started_at).toBe(new Date(first).toISOString());
    expect(run.tools.all.map((c) => [c.name, c.duration_ms])).toEqual([["bash", bashSeconds()]]);
    expect(data.totals).toMatchObject({ duration_ms: statedSpan(OPENCODE), duration_complete: true });
  });

  it("Markdown: the duration says whose times they are; the bash call shows its seconds", async () => {
    const md = await report([canonical.opencode!], "md");
    expect(fact(md, "duration")).toBe(`${formatDuration(statedSpan(OPENCODE))} (the backend's own times)`);
    expect(md).toContain(`| bash | ✔ succeeded | ${formatDuration(bashSeconds())} |`);
  });

  it("HTML: the duration figure is the stated span; the call's bar spans its seconds on a time axis", async () => {
    const html = await report([canonical.opencode!], "html");
    expect(html).toContain(`<dt>duration</dt><dd>${fmtMs(statedSpan(OPENCODE))} (the backend&#39;s own times)</dd>`);
    expect(html).toMatch(new RegExp(`<title>bash, ${fmtMs(bashSeconds()).replace(".", "\\.")}</title>`));
    expect(html).not.toContain('class="no-times"');
  });
});

describe("a recording that states no times (EvoScientist)", () => {
  it("JSON: timing none, no duration, and the totals say theirs is incomplete", async () => {
    const data = JSON.parse(await report([canonical.evosci!], "json")) as Report;
    expect(data.runs[0]).toMatchObject({ mode: "normalize", timing: "none", duration_ms: null });
    expect(data.runs[0]!.tools.all.map((c) => c.duration_ms)).toEqual([null]);
    expect(data.totals).toMatchObject({ duration_ms: 0, duration_complete: false });
  });

  it("Markdown: the duration is unknown, and says why; with a timed run, the total is a lower bound", async () => {
    expect(fact(await report([canonical.evosci!], "md"), "duration")).toBe(UNKNOWN);
    const both = await report([canonical.evosci!, canonical.opencode!], "md");
    expect(fact(both, "duration")).toBe(
      `at least ${formatDuration(statedSpan(OPENCODE))} (1 of 2 runs' durations unknown)`,
    );
    expect(both).toMatch(/^\| .*evosci\.jsonl \| evosci \| ✅ succeeded \| unknown \|/m);
  });

  it("HTML: the duration figure is unknown; the timeline says its events are in the order read", async () => {
    const html = await report([canonical.evosci!], "html");
    expect(html).toContain(`<dt>duration</dt><dd>${UNKNOWN}</dd>`);
    expect(html).toContain('<p class="no-times">Times unknown: this recorded stream does not time its events');
    expect(html).toMatch(/<title>[^<]*, duration unknown<\/title>/);
  });

  it("normalize's summary on stderr says the time is unknown; a recording with times says its own", async () => {
    const evosci = await runCli(["normalize", "--from", "evosci", join(LIVE, "evosci-0.3.8", "error400.jsonl")]);
    expect(evosci.stderr).toContain("· ✖ failed (time unknown: the recording does not time its events): ");
    const gemini = join(LIVE, "gemini-0.61.0", "error503.jsonl");
    const timed = await runCli(["normalize", "--from", "gemini", gemini]);
    expect(timed.stderr).toContain(
      `· ✖ failed after ${formatDuration(statedSpan(gemini))} (the backend's own times): `,
    );
  });
});

describe("a live run", () => {
  it("keeps agentstream's clock: the report's duration is run.finished's, with no note", async () => {
    const run = await runCli(["run", "--backend", "evosci", "--bin", "examples/replay-backend.mjs", "any prompt"], {
      cwd: ROOT,
      env: { REPLAY_SPEED: "20" },
    });
    expect(run.code, run.stderr).toBe(0);
    const file = join(dir, "live.jsonl");
    writeFileSync(file, run.stdout);
    const finished = parseJsonl(run.stdout).at(-1)!;
    const data = JSON.parse(await report([file], "json")) as Report;
    expect(data.runs[0]).toMatchObject({ mode: "run", timing: "clock", duration_ms: finished.duration_ms });
    expect(fact(await report([file], "md"), "duration")).toBe(formatDuration(finished.duration_ms as number));
  });
});

const hasBrowser = browserAvailable("report times browser tests");

describe.skipIf(!hasBrowser)("in headless Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** The page of one canonical file, opened; its duration figure and the first call's details. */
  async function shown(name: string): Promise<{ figure: string; details: Record<string, string>; note: boolean }> {
    const page = join(dir, `${name}.html`);
    writeFileSync(page, await report([canonical[name]!], "html"));
    const opened = await browser.open(page);
    const figure = (await opened.page.locator(".figures div", { hasText: "duration" }).locator("dd").textContent())!;
    await opened.page.locator(".bar.tool").first().click();
    const panel = opened.page.locator("#details");
    await panel.waitFor({ state: "visible" });
    const rows = await panel
      .locator("dt")
      .evaluateAll((dts) => dts.map((dt) => [dt.textContent ?? "", dt.nextElementSibling?.textContent ?? ""]));
    const note = await opened.page.locator(".no-times").isVisible();
    expect(opened.errors).toEqual([]);
    await opened.page.close();
    return { figure, details: Object.fromEntries(rows), note };
  }

  it("OpenCode: the page's duration is the stated span; the bash call's details show its real seconds", async () => {
    const { figure, details, note } = await shown("opencode");
    expect(figure).toBe(`${fmtMs(statedSpan(OPENCODE))} (the backend's own times)`);
    expect(details.duration).toBe(`${fmtMs(bashSeconds())} (reported by the backend)`);
    expect(note).toBe(false);
  });

  it("EvoScientist: the page says the times are unknown, in the figures, the timeline and the call's details", async () => {
    const { figure, details, note } = await shown("evosci");
    expect(figure).toBe(UNKNOWN);
    expect(details.duration).toBe(UNKNOWN);
    expect(details["started at"]).toBe("time unknown");
    expect(note).toBe(true);
  });
});
