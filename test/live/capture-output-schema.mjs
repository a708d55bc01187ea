#!/usr/bin/env node
// Records what the real backends write when a run has --output-schema (issue 40): the structured and
// structuredbad scenarios, with the schema given as agentstream gives it (Claude Code's --json-schema,
// Codex's --output-schema FILE, the prompt's instruction for Gemini CLI and OpenCode), into each pin's
// test/fixtures/live/<id>/ beside the schema (structured.schema.json); manifest entries of other files stay.
// Needs `npm run build` (the prompt path's instruction is the built one's).
//   node test/live/capture-output-schema.mjs     (AGENTSTREAM_LIVE_ONLY=codex narrows it)
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promptWithSchema } from "../../dist/backends/schema-in-prompt.js";
import { installBackends } from "./support/install-backends.mjs";
import { selectedTargets } from "../helpers/live/live-targets.mjs";
import { runNative } from "./support/native-run.mjs";
import { SCENARIOS, STRUCTURED_SCHEMA } from "./support/scenarios.mjs";

const FIXTURES = fileURLToPath(new URL("../fixtures/live/", import.meta.url));
// Two native means and two backends given the prompt's instruction (the live suite's, output-schema.live.ts).
const BACKENDS = new Set(["claude", "codex", "gemini", "opencode"]);
const SCHEMA_FILE = "structured.schema.json";
const SCHEMA_TEXT = JSON.stringify(STRUCTURED_SCHEMA);
const DESCRIPTIONS = {
  structured: "--output-schema: the model's answer matches the schema",
  structuredbad:
    "--output-schema: the model's answer breaks the schema (verdict not in its enum, files not an integer)",
};

/** How each backend is given the schema: its native means, else the prompt with agentstream's instruction. */
function givenSchema(backend, prompt) {
  if (backend === "claude") {
    const { $schema: _dialect, ...schema } = STRUCTURED_SCHEMA;
    return () => ({ args: ["--json-schema", JSON.stringify(schema)] });
  }
  if (backend === "codex")
    return (home) => {
      const file = join(home.root, "output-schema.json");
      writeFileSync(file, SCHEMA_TEXT);
      return { args: ["--output-schema", file] };
    };
  return () => ({ prompt: promptWithSchema(prompt, { text: SCHEMA_TEXT }) });
}

const wanted = selectedTargets().filter((t) => BACKENDS.has(t.backend));
for (const target of await installBackends(wanted)) {
  const dir = join(FIXTURES, target.id);
  const manifestPath = join(dir, "manifest.json");
  const manifest = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, "utf8")) : [];
  writeFileSync(join(dir, SCHEMA_FILE), `${JSON.stringify(STRUCTURED_SCHEMA, null, 1)}\n`);
  for (const scenario of Object.keys(DESCRIPTIONS)) {
    const prompt = SCENARIOS[scenario].prompt;
    const run = await runNative(target, scenario, givenSchema(target.backend, prompt));
    writeFileSync(join(dir, `${scenario}.jsonl`), run.stdout);
    writeFileSync(join(dir, `${scenario}.stderr.txt`), run.stderr);
    const entry = {
      file: `${scenario}.jsonl`,
      scenario: DESCRIPTIONS[scenario],
      prompt,
      producer: `${target.package}@${target.version} (${target.runtime})`,
      args: run.args.map((a) => (a.startsWith("/") ? "<workdir>" : a.length > 200 ? `${a.slice(0, 60)}…` : a)),
      output_schema: SCHEMA_FILE,
      exit_code: run.exitCode,
      signal: run.signal,
      model_requests: run.modelRequests,
    };
    const at = manifest.findIndex((e) => e.file === entry.file);
    if (at >= 0) manifest[at] = entry;
    else manifest.push(entry);
    process.stderr.write(
      `capture: ${target.id} ${scenario}: exit ${run.exitCode ?? run.signal}, ${run.stdout.split("\n").length - 1} lines\n`,
    );
  }
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 1)}\n`);
}
