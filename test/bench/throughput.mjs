// Throughput and peak memory of agentstream normalize against the floor
// programs, on the same cached native streams, in alternating rounds.
import { measureProcess } from "./measure-process.mjs";
import { BASELINE, throughputPrograms } from "./programs.mjs";
import { median } from "./stats.mjs";

const MB = 1024 * 1024;
// What a run still holds when it ends: the heap after a full collection, on stderr at exit.
const HEAP_PROBE = `data:text/javascript,process.on("exit",()=>{globalThis.gc();process.stderr.write("heap_after_gc="+process.memoryUsage().heapUsed+"\\n")})`;

/** One more run of an agentstream program with HEAP_PROBE: the MiB its heap holds at the end, after a collection. */
async function heapAtEnd(program, stream) {
  const result = await measureProcess(
    program.command,
    ["--expose-gc", "--import", HEAP_PROBE, ...program.args(stream.path)],
    { resources: false },
  );
  const match = /heap_after_gc=(\d+)/.exec(result.stderr);
  if (!program.succeeded(result, stream) || !match)
    throw new Error(
      `${program.name} with the heap probe on ${stream.path} failed (exit ${result.code}): ${result.stderr.trim()}`,
    );
  return Number(match[1]) / MB;
}

/** One row per program: medians over `rounds` runs, peak RSS the highest seen. */
export async function measureThroughput({
  builds,
  protocol,
  stream,
  sizeLabel,
  rounds,
  withJq,
  withoutValidation,
  log,
}) {
  const programs = throughputPrograms({ builds, protocol, withJq, withoutValidation });
  const runs = new Map(programs.map((p) => [p.name, []]));
  for (let round = 0; round < rounds; round++) {
    // Rotate the order so no program always runs right after the same one.
    for (let k = 0; k < programs.length; k++) {
      const program = programs[(k + round) % programs.length];
      const result = await measureProcess(program.command, program.args(stream.path));
      if (!program.succeeded(result, stream)) {
        throw new Error(
          `${program.name} on ${stream.path} failed (exit ${result.code}): ${result.stderr.trim() || result.lastLine.slice(0, 300)}`,
        );
      }
      runs.get(program.name).push(result);
      log(`  ${protocol} ${sizeLabel} round ${round + 1}/${rounds}: ${program.name} ${result.seconds.toFixed(2)} s`);
    }
  }
  const heap = new Map();
  for (const program of programs.filter((p) => p.heapProbe)) heap.set(program.name, await heapAtEnd(program, stream));
  const rows = programs.map((program) => {
    const results = runs.get(program.name);
    const seconds = median(results.map((r) => r.seconds));
    const measured = results[0].peakRssMiB !== undefined;
    return {
      protocol,
      size: sizeLabel,
      program: program.name,
      runs: results.length,
      input_bytes: stream.bytes,
      native_events: stream.lines,
      output_lines: results[0].outLines,
      seconds,
      cpu_seconds: measured ? median(results.map((r) => r.cpuSeconds)) : undefined,
      mb_per_s: stream.bytes / MB / seconds,
      events_per_s: stream.lines / seconds,
      peak_rss_mib: measured ? Math.max(...results.map((r) => r.peakRssMiB)) : undefined,
      heap_after_gc_mib: heap.get(program.name),
    };
  });
  const base = rows.find((r) => r.program === BASELINE).seconds;
  const jq = rows.find((r) => r.program === "jq -c .")?.seconds;
  for (const row of rows) {
    row.time_vs_minimal = row.seconds / base;
    if (jq !== undefined) row.time_vs_jq = row.seconds / jq;
  }
  return rows;
}
