// What watching --max-turns, --max-tokens and --max-cost-usd costs: `run` over
// each 40 MB native stream (a backend that writes it as fast as it is read),
// with limits that are never reached and without, in alternating rounds
// beside the minimal Node translator (the floor). Enforcing limits should
// cost nothing measurable: the same floor ratio within noise.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { nativeStream } from "./datasets.mjs";
import { measureAlternating } from "./measure-process.mjs";
import { finishedCleanly, MINIMAL_TRANSLATOR } from "./programs.mjs";
import { median } from "./stats.mjs";

const MEGABYTES = 40;
const PROTOCOLS = ["evosci", "atomic", "claude", "codex", "gemini", "opencode", "copilot"];
// Far above anything the streams reach: the watch runs on every event, and never stops the run.
const LIMITS = ["--max-turns", "1000000000", "--max-tokens", "1000000000000000", "--max-cost-usd", "1000000000"];
// A model the price table knows, for the streams whose usage names none (or one it does not know): an
// unpriced usage would stop a run with --max-cost-usd at once (fail closed). Given to both runs alike.
const MODEL_ARGS = { codex: ["--model", "gpt-5"], opencode: ["--model", "anthropic/claude-sonnet-4-5"] };
const MODEL = "claude-sonnet-4-5";

/** The backend: writes $BENCH_REPLAY to stdout and exits; its arguments are ignored. */
function replayBackend(cacheDir) {
  const path = join(cacheDir, "replay-backend.mjs");
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(
    path,
    `#!/usr/bin/env node
import { createReadStream } from "node:fs";
import { pipeline } from "node:stream/promises";
await pipeline(createReadStream(process.env.BENCH_REPLAY), process.stdout);
`,
  );
  chmodSync(path, 0o755);
  return path;
}

/** EvoScientist takes its model from its config only: a config folder naming one. */
function evosciConfig(cacheDir) {
  const dir = join(cacheDir, "limits-config");
  mkdirSync(join(dir, "evoscientist"), { recursive: true });
  writeFileSync(join(dir, "evoscientist", "config.yaml"), `model: ${MODEL}\n`);
  return dir;
}

/** Per protocol: medians of `run` without and with limits, and of the floor, over `rounds` alternating rounds. */
export async function measureLimits({ bin, cacheDir, rounds, protocols = PROTOCOLS, log }) {
  const backend = replayBackend(cacheDir);
  const config = evosciConfig(cacheDir);
  const rows = [];
  for (const protocol of protocols) {
    const stream = await nativeStream(protocol, MEGABYTES, log);
    const env = [`BENCH_REPLAY=${stream.path}`, `XDG_CONFIG_HOME=${config}`];
    const run = (limits) => ({
      command: "env",
      args: [...env, process.execPath, bin, "run", "--backend", protocol, "--bin", backend].concat(
        MODEL_ARGS[protocol] ?? [],
        limits,
        ["bench"],
      ),
      check: finishedCleanly,
    });
    const programs = {
      run: run([]),
      "run with limits": run(LIMITS),
      floor: {
        command: process.execPath,
        args: [MINIMAL_TRANSLATOR, stream.path],
        check: (r) => r.code === 0 && r.outLines === stream.lines,
      },
    };
    const { seconds } = await measureAlternating(programs, rounds, `limits ${protocol}`, log);
    const floor = median(seconds.floor);
    const plain = median(seconds.run);
    const limited = median(seconds["run with limits"]);
    rows.push({
      protocol,
      megabytes: MEGABYTES,
      rounds,
      seconds: { run: plain, run_with_limits: limited, floor },
      floor_ratio: { run: plain / floor, run_with_limits: limited / floor },
      all: seconds,
    });
  }
  return rows;
}

export function formatLimits(rows) {
  const head = [
    "Limits: `run` over each 40 MB stream, with limits never reached (`--max-turns`, `--max-tokens`, `--max-cost-usd`) and without (medians, × the minimal translator):",
    "",
    "| protocol | run | run with limits | floor | run / floor | with limits / floor |",
    "|---|---|---|---|---|---|",
  ];
  const s = (x) => `${x.toFixed(2)} s`;
  const r = (x) => `${x.toFixed(2)}×`;
  return head
    .concat(
      rows.map(
        (row) =>
          `| ${row.protocol} | ${s(row.seconds.run)} | ${s(row.seconds.run_with_limits)} | ${s(row.seconds.floor)} | ${r(row.floor_ratio.run)} | ${r(row.floor_ratio.run_with_limits)} |`,
      ),
    )
    .join("\n");
}
