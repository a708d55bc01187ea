// The targets, checked against measured figures (reported, never asserted).

/** The targets for one build; `prefix` picks its rows ("" for the build under test, "compare: " for the other). */
export function checkTargets({ throughput, startup, latency, atif, compare_cells }, prefix = "") {
  const targets = [];
  const add = (name, value, met) => targets.push({ name: `${prefix}${name}`, value, met });
  const normalize = throughput.filter((row) => row.program === `${prefix}agentstream normalize`);
  // Issue 33: on every protocol, at every size measured.
  for (const row of normalize) {
    add(
      `normalize ${row.protocol} ${row.size}: time ≤ 1.2× minimal node`,
      `${row.time_vs_minimal.toFixed(2)}×`,
      row.time_vs_minimal <= 1.2,
    );
    if (row.time_vs_jq !== undefined) {
      // Where the minimal program itself beats jq, agentstream must too.
      const floor = throughput.find(
        (r) => r.program === "minimal node translator" && r.protocol === row.protocol && r.size === row.size,
      );
      const strict = floor?.time_vs_jq !== undefined && floor.time_vs_jq < 1;
      add(
        `normalize ${row.protocol} ${row.size}: time ${strict ? "< 1.0" : "≤ 1.1"}× jq -c .`,
        `${row.time_vs_jq.toFixed(2)}× jq's time`,
        strict ? row.time_vs_jq < 1 : row.time_vs_jq <= 1.1,
      );
    }
    if (row.peak_rss_mib !== undefined)
      add(
        `normalize ${row.protocol} ${row.size}: peak RSS ≤ 100 MiB`,
        `${row.peak_rss_mib.toFixed(0)} MiB`,
        row.peak_rss_mib <= 100,
      );
  }
  for (const protocol of new Set(normalize.map((r) => r.protocol))) {
    const sizes = normalize
      .filter((r) => r.protocol === protocol && r.case === undefined)
      .sort((a, b) => a.input_bytes - b.input_bytes);
    const [small, large] = [sizes[0], sizes.at(-1)];
    if (sizes.length < 2 || small.peak_rss_mib === undefined) continue;
    // "The same": within 10 MiB, about the run-to-run spread of a garbage-collected heap.
    const growth = large.peak_rss_mib - small.peak_rss_mib;
    add(
      `normalize ${protocol}: peak RSS at ${large.size} same as at ${small.size} (±10 MiB)`,
      `${growth >= 0 ? "+" : ""}${growth.toFixed(0)} MiB`,
      growth <= 10,
    );
    if (large.heap_after_gc_mib === undefined || small.heap_after_gc_mib === undefined) continue;
    // What is still held at the end: anything kept per event would show here first (a map of every call: megabytes).
    const held = large.heap_after_gc_mib - small.heap_after_gc_mib;
    add(
      `normalize ${protocol}: heap after GC at the end of ${large.size} same as of ${small.size} (±2 MiB)`,
      `${held >= 0 ? "+" : ""}${held.toFixed(1)} MiB`,
      held <= 2,
    );
  }
  for (const command of ["--version", "normalize (one line)"]) {
    const row = startup.find((r) => r.program === `${prefix}agentstream ${command}`);
    if (row) add(`start-up ${command}: ≤ 2.5× node -e 0`, `${row.vs_node.toFixed(2)}×`, row.vs_node <= 2.5);
  }
  const live = latency.rows?.find((r) => r.program === `${prefix}agentstream run`);
  if (live) add("live latency p99 ≤ 2 ms", `${live.p99_ms.toFixed(2)} ms`, live.p99_ms <= 2);
  // Issue 48: export atif of normalize's canonical stream within 1.5× that normalize (measured for the build under test only).
  if (prefix === "" && Array.isArray(atif))
    for (const row of atif)
      add(
        `export atif ${row.protocol} ${row.megabytes} MB: time ≤ ${row.target}× normalize`,
        `${row.ratio.toFixed(2)}×`,
        row.ratio <= row.target,
      );
  // Issue 55: compare's time per cell within 1.1× the xargs loop's, and its peak RSS flat in the number of cells.
  if (prefix === "" && Array.isArray(compare_cells?.rows)) {
    const rows = compare_cells.rows;
    const timed = rows.filter((row) => row.ratio !== undefined);
    for (const row of timed)
      add(
        `compare ${row.cells} cells: time per cell ≤ ${row.target}× xargs -P loop`,
        `${row.ratio.toFixed(2)}×`,
        row.ratio <= row.target,
      );
    // Flat: the most cells timed against the fewest; and the most of all (compare alone) against the most timed.
    const flat = (fewer, more) => {
      if (!fewer || !more || fewer === more || fewer.peak_rss_mib.compare === undefined) return;
      const growth = more.peak_rss_mib.compare - fewer.peak_rss_mib.compare;
      add(
        `compare: peak RSS at ${more.cells} cells same as at ${fewer.cells} (±10 MiB)`,
        `${growth >= 0 ? "+" : ""}${growth.toFixed(0)} MiB`,
        growth <= 10,
      );
    };
    flat(timed[0], timed.at(-1));
    flat(timed.at(-1), rows.at(-1));
  }
  return targets;
}
