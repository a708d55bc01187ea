// Real headless Chromium (Debian's /usr/bin/chromium) through playwright-core,
// for the HTML report's tests: launch once per test file, open file:// pages,
// and collect what went wrong on them (console errors, page errors, requests).
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import type { BrowserContext, Page } from "playwright-core";

const { CHROMIUM, launchChromium } = (await import(new URL("./chromium.mjs", import.meta.url).href)) as {
  CHROMIUM: string;
  launchChromium: () => Promise<{ context: BrowserContext; close: () => Promise<void> }>;
};

/**
 * Whether the browser tests can run. Without Chromium they are skipped with a
 * visible notice, unless AGENTSTREAM_REQUIRE_BROWSER=1 (CI), where that fails.
 * `notice` is where the notice goes: stderr, or a test's own string.
 */
export function browserAvailable(
  suite: string,
  executable = CHROMIUM,
  notice: (text: string) => void = (text) => process.stderr.write(text),
): boolean {
  if (existsSync(executable)) return true;
  const missing = `${suite}: Chromium not found at ${executable} (apt-get install chromium)`;
  if (process.env.AGENTSTREAM_REQUIRE_BROWSER === "1")
    throw new Error(`${missing}; AGENTSTREAM_REQUIRE_BROWSER=1 requires it`);
  notice(`\n*** SKIPPED ${missing} ***\n\n`);
  return false;
}

export interface OpenedPage {
  page: Page;
  /** console.error messages and uncaught page errors. */
  errors: string[];
  /** Every request the page made other than its own file. */
  requests: string[];
}

export interface Browser {
  open(
    file: string,
    options?: {
      colorScheme?: "light" | "dark";
      width?: number;
      height?: number;
      /** false: the page's script never runs (as in a mail client or a hardened viewer). */
      javaScript?: boolean;
      /** "print": the print stylesheet applies, as for a printout or "Save as PDF". */
      media?: "screen" | "print";
    },
  ): Promise<OpenedPage>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  const { context, close } = await launchChromium();
  return {
    async open(file, options = {}) {
      const page = await context.newPage();
      await page.setViewportSize({ width: options.width ?? 1280, height: options.height ?? 900 });
      const script = options.javaScript ?? true;
      if (script) {
        if (options.colorScheme) await page.emulateMedia({ colorScheme: options.colorScheme });
        if (options.media) await page.emulateMedia({ media: options.media });
      } else {
        // Scripts off through a DevTools session of its own, whose emulation then wins: the media go there too.
        const cdp = await context.newCDPSession(page);
        await cdp.send("Emulation.setScriptExecutionDisabled", { value: true });
        await cdp.send("Emulation.setEmulatedMedia", {
          media: options.media ?? "",
          features: options.colorScheme ? [{ name: "prefers-color-scheme", value: options.colorScheme }] : [],
        });
      }
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
      if (script) await page.waitForSelector("html[data-rendered=true]");
      return { page, errors, requests };
    },
    close,
  };
}
