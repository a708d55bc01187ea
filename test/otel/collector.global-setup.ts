import type { TestProject } from "vitest/node";
import { ensureCollector, GoMissingError } from "./build-collector.mjs";

/**
 * Build the test OpenTelemetry Collector once (or find it in .cache/otelcol)
 * and provide its path as `otelcolPath`. Without Go the collector tests skip
 * with a notice, unless AGENTSTREAM_REQUIRE_COLLECTOR=1 (CI), which fails.
 */
export default async function setup(project: TestProject): Promise<void> {
  await provideCollector(project);
}

export async function provideCollector(
  project: Pick<TestProject, "provide">,
  {
    env = process.env,
    ensure = ensureCollector,
    notice = (text: string) => process.stderr.write(text),
  }: { env?: NodeJS.ProcessEnv; ensure?: () => Promise<string>; notice?: (text: string) => void } = {},
): Promise<void> {
  const required = env.AGENTSTREAM_REQUIRE_COLLECTOR === "1";
  try {
    project.provide("otelcolPath", await ensure());
  } catch (error) {
    if (required || !(error instanceof GoMissingError)) throw error;
    notice(
      `\notelcol: NOTICE: ${error.message}; the tests against a real OpenTelemetry Collector are SKIPPED (AGENTSTREAM_REQUIRE_COLLECTOR=1 makes this an error)\n\n`,
    );
  }
}
