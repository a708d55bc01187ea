// Runs one command to completion and measures it from outside: wall time,
// CPU time and peak resident set size, and what it wrote on stdout (bytes,
// lines, the last line), read through a pipe as a downstream program would.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// GNU time reports the CPU time and peak RSS of any program (node or jq) exactly.
const GNU_TIME = "/usr/bin/time";
export const canMeasureResources = (() => {
  try {
    return execFileSync(GNU_TIME, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).includes(
      "GNU",
    );
  } catch {
    return false;
  }
})();

let runs = 0;

/** `resources: false` skips GNU time, whose own start would blur a start-up measurement; `cwd`: where it runs. */
export function measureProcess(command, args, { resources = true, cwd } = {}) {
  const report =
    resources && canMeasureResources ? join(tmpdir(), `agentstream-bench-${process.pid}-${runs++}.time`) : undefined;
  const [file, argv] = report ? [GNU_TIME, ["-f", "%U %S %M", "-o", report, command, ...args]] : [command, args];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(file, argv, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let outBytes = 0;
    let outLines = 0;
    let tail = Buffer.alloc(0);
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      outBytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) outLines++;
      tail = Buffer.concat([tail, chunk.subarray(-4096)]).subarray(-4096);
    });
    child.stderr.setEncoding("utf8").on("data", (d) => (stderr = (stderr + d).slice(-4096)));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      const seconds = (performance.now() - started) / 1000;
      const lastLine = tail.toString("utf8").trimEnd().split("\n").pop() ?? "";
      resolve({
        seconds,
        ...(report ? readTimeReport(report) : {}),
        outBytes,
        outLines,
        lastLine,
        code,
        signal,
        stderr,
      });
    });
  });
}

function readTimeReport(path) {
  // The last line holds the figures; a line before it may say how the command ended.
  const [user, system, maxKiB] = readFileSync(path, "utf8").trimEnd().split("\n").pop().split(" ").map(Number);
  rmSync(path);
  return { cpuSeconds: user + system, peakRssMiB: maxKiB / 1024 };
}

/**
 * Each of `programs` ({ name: { command, args, check, cwd?, prepare? } }) once per round, the order rotated each
 * round so that none always runs first; `prepare()`, where given, runs before each run, unmeasured (an empty
 * output folder); a result its check refuses throws. `label` ("limits evosci") names the rounds
 * in the log and the error. Returns each program's results and their wall seconds, in round order.
 */
export async function measureAlternating(programs, rounds, label, log) {
  const names = Object.keys(programs);
  const results = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + round) % names.length];
      const { command, args, check, cwd, prepare } = programs[name];
      prepare?.();
      const result = await measureProcess(command, args, { cwd });
      if (!check(result))
        throw new Error(`${label} bench: ${name} failed (exit ${result.code}): ${result.stderr.trim()}`);
      results[name].push(result);
      log(`  ${label} round ${round + 1}/${rounds}: ${name} ${result.seconds.toFixed(2)} s`);
    }
  }
  const seconds = Object.fromEntries(names.map((n) => [n, results[n].map((r) => r.seconds)]));
  return { results, seconds };
}
