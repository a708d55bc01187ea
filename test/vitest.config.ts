import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The default suite (`npm test`). Many tests run the built CLI as real
// processes; on a loaded 2-core machine a test that spawns a few of them can
// pass vitest's 5 s default, so the bound is a generous guard, never an
// expectation (speed is measured by `npm run bench`).
export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    include: ["test/**/*.test.ts"],
    // Builds the real OpenTelemetry Collector the OTLP tests run (test/otel/).
    globalSetup: ["test/otel/collector.global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
