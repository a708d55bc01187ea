import type { TestProject } from "vitest/node";
import { installBackends } from "./support/install-backends.mjs";
import { selectedTargets } from "./support/live-targets.mjs";

/** Install (or find in the cache) every live target before any test runs. */
export default async function setup(project: TestProject): Promise<void> {
  const started = Date.now();
  const targets = await installBackends(selectedTargets());
  for (const t of targets) {
    process.stderr.write(`live: ${t.backend} ${t.version} (${t.package}; ${t.runtime}) ready at ${t.executable}\n`);
  }
  process.stderr.write(`live: backends ready in ${Math.round((Date.now() - started) / 1000)} s\n`);
  project.provide("liveTargets", targets);
}
