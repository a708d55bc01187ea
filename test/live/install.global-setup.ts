import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { installBackends } from "./support/install-backends.mjs";
import { latestTargets } from "../helpers/live/latest.mjs";
import { selectedAcpTargets, selectedTargets, wantsLatest } from "../helpers/live/live-targets.mjs";
import { RESULTS_DIR } from "./support/results-dir.js";

/**
 * Install (or find in the cache) every live target before any test runs; with
 * AGENTSTREAM_LIVE_VERSIONS=latest, each backend's newest release too; and what
 * the ACP suite's agents need (provided apart: they are not in the compatibility record).
 */
export default async function setup(project: TestProject): Promise<void> {
  const started = Date.now();
  const pins = selectedTargets();
  const latest = wantsLatest() ? await latestTargets(pins) : [];
  for (const t of latest)
    process.stderr.write(`live: newest ${t.backend} is ${t.version}, beside the pin ${t.latestOf}\n`);
  const acpPins = selectedAcpTargets().filter((t) => !pins.some((p) => p.id === t.id));
  const installed = await installBackends([...pins, ...latest, ...acpPins]);
  const targets = installed.slice(0, pins.length + latest.length);
  const acpIds = new Set(selectedAcpTargets().map((t) => t.id));
  const acpTargets = installed.filter((t) => acpIds.has(t.id) && !t.latestOf);
  for (const t of installed) {
    process.stderr.write(`live: ${t.backend} ${t.version} (${t.package}; ${t.runtime}) ready at ${t.executable}\n`);
  }
  process.stderr.write(`live: backends ready in ${Math.round((Date.now() - started) / 1000)} s\n`);
  rmSync(RESULTS_DIR, { recursive: true, force: true });
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, "targets.json"), `${JSON.stringify({ latest: wantsLatest(), targets }, null, 2)}\n`);
  project.provide("liveTargets", targets);
  project.provide("acpTargets", acpTargets);
}
