import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The live suite alone: real backends against the fake model server. The
// default `npm test` never matches *.live.ts.
export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    include: ["test/live/**/*.live.ts"],
    globalSetup: ["test/live/install.global-setup.ts"],
    // Generous bounds, never expectations: a run stops itself at 300 s (--timeout).
    testTimeout: 6 * 60_000,
    hookTimeout: 60_000,
    fileParallelism: true,
    maxWorkers: 2,
    reporters: ["verbose", "./test/live/support/compat-reporter.ts"],
  },
});
