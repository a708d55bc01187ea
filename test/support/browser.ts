// Real headless Chromium (Debian's /usr/bin/chromium) through playwright-core,
// for the HTML report's tests: launch once per test file, open file:// pages,
// and collect what went wrong on them (console errors, page errors, requests).
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";

export const CHROMIUM = process.env.AGENTSTREAM_CHROMIUM ?? "/usr/bin/chromium";

/**
 * Whether the browser tests can run. Without Chromium they are skipped with a
 * visible notice, unless AGENTSTREAM_REQUIRE_BROWSER=1 (CI), where that fails.
 */
export function browserAvailable(suite: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  const notice = `${suite}: Chromium not found at ${CHROMIUM} (apt-get install chromium)`;
  if (process.env.AGENTSTREAM_REQUIRE_BROWSER === "1") throw new Error(`${notice}; AGENTSTREAM_REQUIRE_BROWSER=1 requires it`);
  process.stderr.write(`\n*** SKIPPED ${notice} ***\n\n`);
  return false;
}

// The machine's closed network otherwise shows up as connection errors.
const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export interface OpenedPage {
  page: Page;
  /** console.error messages and uncaught page errors. */
  errors: string[];
  /** Every request the page made other than its own file. */
  requests: string[];
}

export interface Browser {
  open(file: string, options?: { colorScheme?: "light" | "dark"; width?: number; height?: number }): Promise<OpenedPage>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), "agentstream-chromium-"));
  const context: BrowserContext = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
  return {
    async open(file, options = {}) {
      const page = await context.newPage();
      await page.setViewportSize({ width: options.width ?? 1280, height: options.height ?? 900 });
      if (options.colorScheme) await page.emulateMedia({ colorScheme: options.colorScheme });
      const errors: string[] = [];
      const requests: string[] = [];
      const url = pathToFileURL(file).href;
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(String(error)));
      page.on("request", (request) => {
        if (request.url() !== url) requests.push(request.url());
      });
      await page.goto(url);
      await page.waitForSelector("html[data-rendered=true]");
      return { page, errors, requests };
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
