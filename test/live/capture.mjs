#!/usr/bin/env node
// `npm run capture`: record what the real backends write in each scenario into
// test/fixtures/live/<backend>-<version>/, so golden tests follow real releases.
// AGENTSTREAM_LIVE_ONLY=pi-1.6.0 (or =evosci) records some targets only.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { captureClaude } from "./support/capture-claude.mjs";
import { installBackends } from "./support/install-backends.mjs";
import { selectedTargets } from "../helpers/live/live-targets.mjs";
import { runNative } from "./support/native-run.mjs";
import { SCENARIOS } from "./support/scenarios.mjs";

const FIXTURES = fileURLToPath(new URL("../fixtures/live/", import.meta.url));

const DESCRIPTIONS = {
  text: "plain streamed text answer",
  tool: "text, one tool call listing the working directory, then a final answer",
  thinking: "reasoning deltas (reasoning_content) then text",
  error400: "provider answers HTTP 400 (not retryable)",
  retry500: "HTTP 500 once, then success",
  retry429: "HTTP 429 once, then success",
  error503: "HTTP 503 on every attempt; retries run out",
  slow: "slow text stream, stopped with the backend's stop signal after its first text (Codex: once the model request came)",
  bare429: "HTTP 429 once without Retry-After, then success if retried",
  toolfail: "one shell command that exits 2 (ls no-such-file), then a final answer",
  slowtool: "one shell command running 30 s (sleep 30.01; echo slept), then a final answer",
};

const installed = await installBackends(selectedTargets());
await Promise.all(installed.map(captureTarget));

async function captureTarget(target) {
  // Claude Code's captures are many more (its own variants) and keep the hand-added ones: its own script records them.
  if (target.backend === "claude") return captureClaude(target);
  const dir = join(FIXTURES, target.id);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const manifest = [];
  for (const scenario of Object.keys(SCENARIOS).filter((name) => !SCENARIOS[name].extra)) {
    const run = await runNative(target, scenario);
    writeFileSync(join(dir, `${scenario}.jsonl`), run.stdout);
    writeFileSync(join(dir, `${scenario}.stderr.txt`), run.stderr);
    // Copilot CLI's token counts, from its --usage-output-file (normalize --usage-file reads it).
    if (run.usageFile !== undefined) writeFileSync(join(dir, `${scenario}.usage.json`), run.usageFile);
    manifest.push({
      file: `${scenario}.jsonl`,
      scenario: DESCRIPTIONS[scenario],
      prompt: SCENARIOS[scenario].prompt,
      producer: `${target.package}@${target.version} (${target.runtime})`,
      args: run.args.map((a) => (a.startsWith("/") ? "<workdir>" : a)),
      ...(run.usageFile !== undefined ? { usage_file: `${scenario}.usage.json` } : {}),
      exit_code: run.exitCode,
      signal: run.signal,
      ...(run.stopSignal ? { stopped_with: run.stopSignal } : {}),
      model_requests: run.modelRequests,
    });
    process.stderr.write(
      `capture: ${target.id} ${scenario}: exit ${run.exitCode ?? run.signal}, ${run.stdout.split("\n").length - 1} lines\n`,
    );
  }
  writeFileSync(join(dir, "manifest.json"), `${JSON.stringify(manifest, null, 1)}\n`);
}
