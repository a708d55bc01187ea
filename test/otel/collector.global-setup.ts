import type { TestProject } from "vitest/node";
import { ensureCollector, GoMissingError } from "./build-collector.mjs";

/**
 * Build the test OpenTelemetry Collector once (or find it in .cache/otelcol)
 * and provide its path as `otelcolPath`. Without Go the collector tests skip
 * with a notice, unless AGENTSTREAM_REQUIRE_COLLECTOR=1 (CI), which fails.
 */
export default async function setup(project: TestProject): Promise<void> {
  const required = process.env.AGENTSTREAM_REQUIRE_COLLECTOR === "1";
  try {
    const binary = await ensureCollector();
    project.provide("otelcolPath", binary);
  } catch (error) {
    if (required || !(error instanceof GoMissingError)) throw error;
    process.stderr.write(
      `\notelcol: NOTICE: ${(error as Error).message}; the tests against a real OpenTelemetry Collector are SKIPPED (set AGENTSTREAM_REQUIRE_COLLECTOR=1 to make this fail)\n\n`,
    );
  }
}
