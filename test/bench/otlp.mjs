// OTLP export (issue 15) against the real OpenTelemetry Collector the tests
// build (test/otel/): `export otlp` of 1,000 recorded runs in one process
// (runs per second), and the live latency of `run` with and without --otlp.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { ensureCollector, GoMissingError } from "../otel/build-collector.mjs";
import { agentstreamRun, summarize } from "./latency.mjs";
import { median, preciseNowMs } from "./stats.mjs";

const RUNS = 1000;
// p99 of 1,350 lines on a shared machine is noisy: more rounds than the export's, alternating with and without.
const LATENCY_ROUNDS = 5;
const TEMPLATE = fileURLToPath(new URL("../../examples/pi/tool.canonical.jsonl", import.meta.url));
const STAND_IN = fileURLToPath(new URL("./stand-in-evosci-backend.mjs", import.meta.url));

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The collector with an OTLP/HTTP receiver and the debug exporter (basic: a line per batch), ready. */
export async function startCollector(binary, cacheDir) {
  const [http, health] = [await freePort(), await freePort()];
  const config = `${cacheDir}otlp-collector.yaml`;
  writeFileSync(
    config,
    JSON.stringify({
      receivers: { otlp: { protocols: { http: { endpoint: `127.0.0.1:${http}` } } } },
      exporters: { debug: { verbosity: "basic" } },
      extensions: { health_check: { endpoint: `127.0.0.1:${health}` } },
      service: {
        extensions: ["health_check"],
        pipelines: { traces: { receivers: ["otlp"], exporters: ["debug"] } },
        telemetry: { metrics: { level: "none" }, logs: { level: "warn" } },
      },
    }),
  );
  const child = spawn(binary, ["--config", config], { stdio: ["ignore", "ignore", "ignore"] });
  for (const guard = Date.now() + 60_000; ; ) {
    const ready = await fetch(`http://127.0.0.1:${health}/`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > guard || child.exitCode !== null) throw new Error("the collector did not become ready");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { endpoint: `http://127.0.0.1:${http}`, stop: () => child.kill("SIGTERM") };
}

/** 1,000 recorded runs (the pi example, each with a run id of its own), made once. */
function recordedRuns(cacheDir) {
  const dir = `${cacheDir}otlp-runs/`;
  if (!existsSync(dir) || readdirSync(dir).length !== RUNS) {
    mkdirSync(dir, { recursive: true });
    const template = readFileSync(TEMPLATE, "utf8");
    for (let i = 0; i < RUNS; i++)
      writeFileSync(`${dir}run-${i}.jsonl`, template.replaceAll('"run_id":"run-test"', `"run_id":"${randomUUID()}"`));
  }
  return readdirSync(dir).map((name) => `${dir}${name}`);
}

function exportOnce(bin, endpoint, files) {
  return new Promise((resolve, reject) => {
    const start = preciseNowMs();
    const child = spawn(process.execPath, [bin, "export", "otlp", "--endpoint", endpoint, ...files], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d) => (stderr = (stderr + d).slice(-2000)));
    child.on("error", reject);
    child.on("close", (code) => {
      const seconds = (preciseNowMs() - start) / 1000;
      if (code !== 0) reject(new Error(`export otlp exited with ${code}: ${stderr.trim()}`));
      else resolve({ seconds, summary: stderr.trim().split("\n").at(-1) });
    });
  });
}

/** { export, latency } figures, or { skipped } where no collector can be built. */
export async function measureOtlp({ bin, cacheDir, rounds, log }) {
  let binary;
  try {
    binary = await ensureCollector({ log });
  } catch (error) {
    if (error instanceof GoMissingError) return { skipped: error.message };
    throw error;
  }
  const collector = await startCollector(binary, cacheDir);
  try {
    const files = recordedRuns(cacheDir);
    const seconds = [];
    let summary;
    for (let round = 0; round < rounds; round++) {
      const result = await exportOnce(bin, collector.endpoint, files);
      seconds.push(result.seconds);
      summary = result.summary;
      log(`  export otlp round ${round + 1}/${rounds}: ${RUNS} runs in ${result.seconds.toFixed(2)} s`);
    }
    const wrapper = `${cacheDir}stand-in-evosci-otlp`;
    writeFileSync(wrapper, `#!/bin/sh\nexec '${process.execPath}' '${STAND_IN}' "$@"\n`);
    chmodSync(wrapper, 0o755);
    const programs = [
      { name: "agentstream run", flags: [] },
      { name: "agentstream run --otlp", flags: ["--otlp", collector.endpoint] },
    ];
    const runs = new Map(programs.map((p) => [p.name, []]));
    for (let round = 0; round < LATENCY_ROUNDS; round++) {
      for (const { name, flags } of programs) {
        const s = summarize(await agentstreamRun(bin, wrapper, flags));
        runs.get(name).push(s);
        log(
          `  latency round ${round + 1}/${LATENCY_ROUNDS}: ${name} p50 ${s.p50_ms.toFixed(2)} ms, p99 ${s.p99_ms.toFixed(2)} ms`,
        );
      }
    }
    const latency = programs.map(({ name }) => {
      const all = runs.get(name);
      const med = (key) => median(all.map((s) => s[key]));
      return {
        program: name,
        runs: all.length,
        lines: all[0].lines,
        p50_ms: med("p50_ms"),
        p99_ms: med("p99_ms"),
        max_ms: med("max_ms"),
      };
    });
    const medianSeconds = median(seconds);
    return {
      export: { runs: RUNS, rounds, median_s: medianSeconds, runs_per_s: RUNS / medianSeconds, summary },
      latency,
    };
  } finally {
    collector.stop();
  }
}

/** The Markdown lines of the OTLP figures. */
export function formatOtlp(otlp) {
  if (otlp.skipped) return `\nOTLP export: skipped (${otlp.skipped})`;
  const lines = [
    "",
    "OTLP export (a real OpenTelemetry Collector on loopback)",
    "",
    `\`export otlp\` of ${otlp.export.runs} recorded runs in one process: ${otlp.export.runs_per_s.toFixed(0)} runs/s (median ${otlp.export.median_s.toFixed(2)} s of ${otlp.export.rounds})`,
    "",
    "| live latency | lines | p50 | p99 | max |",
    "|---|---|---|---|---|",
    ...otlp.latency.map(
      (r) =>
        `| ${r.program} | ${r.lines} | ${r.p50_ms.toFixed(2)} ms | ${r.p99_ms.toFixed(2)} ms | ${r.max_ms.toFixed(1)} ms |`,
    ),
  ];
  return lines.join("\n");
}
