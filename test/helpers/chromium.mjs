// Debian's Chromium, headless through playwright-core, with a fresh profile:
// the one launch the HTML report's tests, its bench and its screenshot share.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

export const CHROMIUM = process.env.AGENTSTREAM_CHROMIUM ?? "/usr/bin/chromium";
// The machine's closed network otherwise shows up as connection errors.
const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** @returns {Promise<{ context: import("playwright-core").BrowserContext, close: () => Promise<void> }>} */
export async function launchChromium() {
  const profile = mkdtempSync(join(tmpdir(), "agentstream-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
