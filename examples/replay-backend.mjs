#!/usr/bin/env node
// A stand-in for EvoScientist that REPLAYS A RECORDED RUN: no model is called
// and the prompt is ignored. It speaks EvoSci's `--output-format stream-json`
// (same framing, same stderr, same slow exit after `done`) with the recorded
// pacing, so `agentstream run` can be tried without installing an agent:
//
//   agentstream run --backend evosci --bin examples/replay-backend.mjs "any prompt"
//
// REPLAY_RECORDING=FILE replays another recording; REPLAY_SPEED=N plays it N times faster.
// A recording is JSONL: {"after_ms": N, "stdout": {native event}} or {"after_ms": N, "stderr": "text"}.
import { readFileSync } from "node:fs";
import { once } from "node:events";

const args = process.argv.slice(2);
if (args.includes("-V") || args.includes("--version")) {
  process.stdout.write("replay-backend (a recorded EvoScientist run)\n");
  process.exit(0);
}
const prompt = args[args.indexOf("-p") + 1];
if (!args.includes("-p") || !prompt || !args.includes("stream-json")) {
  process.stderr.write(
    "Usage: replay-backend.mjs -p PROMPT --output-format stream-json\nError: --output-format stream-json requires -p PROMPT\n",
  );
  process.exit(2);
}

const recording = process.env.REPLAY_RECORDING ?? new URL("./replay/evosci-summarize.recording.jsonl", import.meta.url);
const speed = Number(process.env.REPLAY_SPEED ?? "1") || 1;
const entries = readFileSync(recording, "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line));

// Like EvoSci: SIGINT ends the run at once with 130, the last complete line written.
process.on("SIGINT", () => process.exit(130));

process.stderr.write(
  `[replay] not a live agent: replaying ${recording instanceof URL ? "examples/replay/evosci-summarize.recording.jsonl" : recording}; the prompt is ignored\n`,
);
for (const entry of entries) {
  await new Promise((resolve) => setTimeout(resolve, (entry.after_ms ?? 0) / speed));
  if (entry.stdout !== undefined && !process.stdout.write(`${pythonJson(entry.stdout)}\n`))
    await once(process.stdout, "drain");
  if (entry.stderr !== undefined) process.stderr.write(entry.stderr);
}

/** JSON as EvoSci's Python json.dumps writes it: ", " and ": " separators, ASCII only. */
function pythonJson(value) {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value)
      .map(([k, v]) => `${asciiString(k)}: ${pythonJson(v)}`)
      .join(", ")}}`;
  }
  return typeof value === "string" ? asciiString(value) : JSON.stringify(value);
}

function asciiString(text) {
  return JSON.stringify(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
