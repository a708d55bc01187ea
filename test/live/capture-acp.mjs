#!/usr/bin/env node
// `node test/live/capture-acp.mjs`: drive the agents that speak the Agent Client Protocol through
// each ACP scenario (test/live/support/acp-capture.mjs) and record what each wrote on stdout into
// test/fixtures/live/<agent>-acp-<version>/, for `normalize --from acp` and its goldens.
// AGENTSTREAM_LIVE_ONLY=qwen (or =gemini-0.61.0) records some agents only.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ACP_SCENARIOS, runAcp } from "./support/acp-capture.mjs";
import { installBackends } from "./support/install-backends.mjs";
import { ACP_ONLY_TARGETS, LIVE_TARGETS } from "../helpers/live/live-targets.mjs";
import { SCENARIOS } from "./support/scenarios.mjs";

const FIXTURES = fileURLToPath(new URL("../fixtures/live/", import.meta.url));
/** The native targets that also speak ACP, and the ACP-only ones. */
const ACP_AGENTS = new Set(["gemini", "opencode", "copilot", "qwen"]);

const only = (process.env.AGENTSTREAM_LIVE_ONLY ?? "").split(",").filter(Boolean);
const targets = [...LIVE_TARGETS, ...ACP_ONLY_TARGETS].filter(
  (t) => ACP_AGENTS.has(t.backend) && (only.length === 0 || only.includes(t.id) || only.includes(t.backend)),
);
const installed = await installBackends(targets);
await Promise.all(installed.map(captureAgent));

async function captureAgent(target) {
  const dir = join(FIXTURES, `${target.backend}-acp-${target.version}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const manifest = [];
  for (const [name, scenario] of Object.entries(ACP_SCENARIOS)) {
    const started = Date.now();
    const run = await runAcp(target, name);
    writeFileSync(join(dir, `${name}.jsonl`), run.stdout);
    writeFileSync(join(dir, `${name}.stderr.txt`), run.stderr);
    manifest.push({
      file: `${name}.jsonl`,
      scenario: scenario.description,
      prompt: SCENARIOS[scenario.model].prompt,
      producer: `${target.package}@${target.version} (${target.runtime})`,
      args: run.args,
      client: clientSide(scenario),
      turn: run.turn,
      exit_code: run.exit.code,
      signal: run.exit.signal,
      model_requests: run.modelRequests,
      seconds: Math.round((Date.now() - started) / 1000),
    });
    process.stderr.write(
      `capture-acp: ${target.id} ${name}: ${JSON.stringify(run.turn)} exit ${run.exit.code ?? run.exit.signal}, ${run.stdout.split("\n").length - 1} lines, ${Math.round((Date.now() - started) / 1000)} s\n`,
    );
  }
  writeFileSync(join(dir, "manifest.json"), `${JSON.stringify(manifest, null, 1)}\n`);
}

/** What the client did that the agent's stdout does not show. */
function clientSide(scenario) {
  const answer = { allow: "allow_once", reject: "reject_once", cancel: "session/cancel, then outcome cancelled" };
  return {
    permission: answer[scenario.permission],
    ...(scenario.cancelWhenStreaming ? { cancel: "session/cancel once the answer's second tick streamed" } : {}),
  };
}
