// Live latency in run mode: how long after the stand-in backend wrote a
// stamped line agentstream's matching canonical line reaches its reader.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { MINIMAL_TRANSLATOR, withAndWithoutValidation } from "./programs.mjs";
import { median, percentile, preciseNowMs } from "./stats.mjs";

const STAND_IN = fileURLToPath(new URL("./stand-in-evosci-backend.mjs", import.meta.url));
const STAMP = /@(\d{13}\.\d{3})/g;

const shellQuote = (text) => `'${text.replaceAll("'", "'\\''")}'`;

/** Why the latency part cannot run against this build, or undefined when it can. */
function runModeMissing(agentstreamBin) {
  const help = spawnSync(process.execPath, [agentstreamBin, "run", "--help"], { encoding: "utf8" });
  if (help.status !== 0 || !help.stdout.includes("--bin")) {
    return "`agentstream run --backend evosci --bin <script> PROMPT` is not available in this build";
  }
  return undefined;
}

/**
 * Reads stamped lines from `stdout` and records, for each stamp, the delay
 * from its write to the first line that carries it (later lines, such as the
 * message.completed that joins the chunks, repeat stamps and are ignored).
 */
function collectDelays(stdout) {
  const seen = new Set();
  const delays = [];
  let rest = "";
  stdout.setEncoding("utf8").on("data", (chunk) => {
    const now = preciseNowMs();
    const text = rest + chunk;
    const cut = text.lastIndexOf("\n");
    rest = text.slice(cut + 1);
    for (const [, stamp] of text.slice(0, cut + 1).matchAll(STAMP)) {
      if (seen.has(stamp)) continue;
      seen.add(stamp);
      delays.push(now - Number(stamp));
    }
  });
  return delays;
}

function waitForExit(child, name) {
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (d) => (stderr = (stderr + d).slice(-2000)));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`${name} exited with ${code}: ${stderr.trim()}`)),
    );
  });
}

/** The delays of the stamped lines `child` writes, once it has exited cleanly. */
async function delaysOf(child, name) {
  const delays = collectDelays(child.stdout);
  await waitForExit(child, name);
  return delays;
}

function spawnPiped(command, args) {
  return spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
}

export function agentstreamRun(agentstreamBin, wrapper, extra) {
  return delaysOf(
    spawnPiped(process.execPath, [
      agentstreamBin,
      "run",
      "--backend",
      "evosci",
      "--bin",
      wrapper,
      ...extra,
      "bench latency",
    ]),
    "agentstream run",
  );
}

/** The machine's own floor: the stand-in's lines read straight from it, no translator between. */
function standInAlone() {
  return delaysOf(spawnPiped(process.execPath, [STAND_IN]), "stand-in backend");
}

/** The floor of a translator: the stand-in piped straight into the minimal translator, through a shell pipe. */
function minimalPipe() {
  const node = shellQuote(process.execPath);
  const pipeline = `${node} ${shellQuote(STAND_IN)} | ${node} ${shellQuote(MINIMAL_TRANSLATOR)} -`;
  return delaysOf(spawnPiped("/bin/sh", ["-c", pipeline]), "stand-in | minimal translator");
}

export function summarize(delays) {
  return {
    lines: delays.length,
    p50_ms: percentile(delays, 50),
    p99_ms: percentile(delays, 99),
    max_ms: Math.max(...delays),
  };
}

/** Rows for the builds that have run mode, or { skipped } when this build has none. */
export async function measureLatency({ builds, cacheDir, rounds, log }) {
  const missing = runModeMissing(builds[0].bin);
  if (missing) return { skipped: missing };
  // --bin wants an executable file; the stand-in is run through this wrapper.
  const wrapper = `${cacheDir}stand-in-evosci`;
  writeFileSync(wrapper, `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(STAND_IN)} "$@"\n`);
  chmodSync(wrapper, 0o755);
  const programs = builds
    .filter(({ bin }) => runModeMissing(bin) === undefined)
    .flatMap(({ bin, prefix }) =>
      withAndWithoutValidation(`${prefix}agentstream run`).map(({ name, flags }) => ({
        name,
        measure: () => agentstreamRun(bin, wrapper, flags),
      })),
    );
  programs.push(
    { name: "stand-in → minimal node translator", measure: minimalPipe },
    { name: "stand-in → reader, no translator", measure: standInAlone },
  );
  const runs = new Map(programs.map((p) => [p.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const program of programs) {
      const summary = summarize(await program.measure());
      runs.get(program.name).push(summary);
      log(
        `  latency round ${round + 1}/${rounds}: ${program.name} p50 ${summary.p50_ms.toFixed(2)} ms, p99 ${summary.p99_ms.toFixed(2)} ms`,
      );
    }
  }
  const rows = programs.map(({ name }) => {
    const summaries = runs.get(name);
    const med = (key) => median(summaries.map((s) => s[key]));
    return {
      program: name,
      runs: summaries.length,
      lines: summaries[0].lines,
      p50_ms: med("p50_ms"),
      p99_ms: med("p99_ms"),
      max_ms: med("max_ms"),
    };
  });
  return { rows };
}
