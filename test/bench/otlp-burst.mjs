// A live `run --otlp` whose backend bursts tool calls as fast as it can write
// (30,000 calls, and 50,000: a run of 100,000 events), against the real
// collector: spans delivered (as the collector acknowledged them), wall time
// and peak RSS, with and without --otlp, and each canonical line's delay after
// the previous one on stdout (p50/p99/max of the gaps: stdout never waits for the export).
//   node test/bench/otlp-burst.mjs      (after npm run build; AGENTSTREAM_OTELCOL_DIR may name a built collector)
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureCollector } from "../otel/build-collector.mjs";
import { startCollector } from "./otlp.mjs";

const BIN = fileURLToPath(new URL("../../bin/agentstream.js", import.meta.url));
const STAND_IN = fileURLToPath(new URL("../fixtures/backends/stand-in.mjs", import.meta.url));

function burst(dir, calls) {
  const file = join(dir, `burst-${calls}.jsonl`);
  const lines = [];
  for (let i = 0; i < calls; i++) {
    lines.push(JSON.stringify({ type: "tool_call", name: "ls", args: { path: `/d/${i}` }, id: `t${i}` }));
    lines.push(JSON.stringify({ type: "tool_result", name: "ls", content: "ok", success: true, id: `t${i}` }));
  }
  lines.push(JSON.stringify({ type: "done", response: "burst done" }));
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

function runOnce(transcript, flags, dir) {
  const timeFile = join(dir, "time.txt");
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      "/usr/bin/time",
      [
        "-f",
        "%M",
        "-o",
        timeFile,
        process.execPath,
        BIN,
        "run",
        "--backend",
        "evosci",
        "--bin",
        STAND_IN,
        ...flags,
        "--",
        "burst",
      ],
      { env: { ...process.env, STANDIN_TRANSCRIPT: transcript }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let lines = 0;
    let last = performance.now();
    const gaps = [];
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      const now = performance.now();
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      gaps.push(now - last);
      last = now;
    });
    child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      gaps.sort((a, b) => a - b);
      resolve({
        code,
        lines,
        wall_s: (performance.now() - started) / 1000,
        rss_mib: Number(readFileSync(timeFile, "utf8").trim().split("\n").at(-1)) / 1024,
        gap_p50_ms: quantile(gaps, 0.5),
        gap_p99_ms: quantile(gaps, 0.99),
        gap_max_ms: gaps.at(-1),
        notSent: /(\d+) of (\d+) spans not sent/.exec(stderr)?.slice(1).map(Number),
        warning: stderr.split("\n").find((l) => l.includes("OTLP export") || l.includes("usage")),
        stderr: stderr.slice(-300),
      });
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), "agentstream-otlp-burst-"));
const collector = await startCollector(await ensureCollector({ log: () => {} }), `${dir}/`);
try {
  for (const calls of [30_000, 50_000]) {
    const transcript = burst(dir, calls);
    for (const [name, flags] of [
      ["run", []],
      ["run --otlp", ["--otlp", collector.endpoint]],
    ]) {
      const r = await runOnce(transcript, flags, dir);
      if (r.lines === 0) throw new Error(`${name} wrote nothing: ${JSON.stringify(r)}`);
      const delivered =
        flags.length === 0 ? "-" : r.notSent ? `${r.notSent[1] - r.notSent[0]} of ${r.notSent[1]}` : "all";
      console.log(
        `| ${calls} calls | ${name} | exit ${r.code} | ${r.lines} lines | ${r.wall_s.toFixed(1)} s | ${r.rss_mib.toFixed(0)} MiB | ${r.gap_p50_ms.toFixed(2)} / ${r.gap_p99_ms.toFixed(1)} / ${r.gap_max_ms.toFixed(0)} ms | spans delivered: ${delivered} |${r.warning ? ` ${r.warning}` : ""}`,
      );
    }
  }
} finally {
  collector.stop();
  rmSync(dir, { recursive: true, force: true });
}
