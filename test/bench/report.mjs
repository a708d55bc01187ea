// The results as Markdown tables (readable in a terminal, pasteable into docs/performance.md).

function table(header, rows) {
  const line = (cells) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

const fixed = (x, digits) => (x === undefined ? "" : x.toFixed(digits));
const thousands = (x) => Math.round(x).toLocaleString("en-US");

/** Busy: the one-minute load average exceeded half the cores before or after the run. */
function isBusy(machine) {
  return Math.max(machine.load_before[0], machine.load_after[0]) > machine.cores / 2;
}

export function formatReport(results) {
  const { machine, throughput, startup, latency, targets } = results;
  const parts = [
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memory_gib} GiB; ${machine.os}; Node ${machine.node}${machine.jq ? `; ${machine.jq}` : ""}; load average ${machine.load_before.join(" ")} before the run, ${machine.load_after.join(" ")} after`,
    `agentstream ${results.agentstream.version} (${results.agentstream.commit})${results.compare ? `; compare: ${results.compare.version} (${results.compare.commit})` : ""}; command: ${results.command}`,
    ...(isBusy(machine)
      ? [
          "",
          "Note: other processes kept the machine busy during the run: wall times, and live latency above all, are inflated. CPU times are the steadier figures.",
        ]
      : []),
    "",
    "Throughput (medians of alternating runs; events are native lines; × = wall time over the minimal node translator's or jq's; CPU = user + system; peak RSS = the highest of the runs; heap at end = what agentstream's heap holds after a full collection as the run exits, one more run):",
    "",
    table(
      [
        "protocol",
        "size",
        "program",
        "runs",
        "wall s",
        "CPU s",
        "MB/s",
        "events/s",
        "× minimal",
        "× jq",
        "peak RSS MiB",
        "heap at end MiB",
      ],
      throughput.map((r) => [
        r.protocol,
        r.size,
        r.program,
        r.runs,
        fixed(r.seconds, 2),
        fixed(r.cpu_seconds, 2),
        fixed(r.mb_per_s, 1),
        thousands(r.events_per_s),
        fixed(r.time_vs_minimal, 2),
        fixed(r.time_vs_jq, 2),
        fixed(r.peak_rss_mib, 0),
        fixed(r.heap_after_gc_mib, 1),
      ]),
    ),
    "",
    ...(startup.length === 0
      ? ["Start-up: not measured (--only)."]
      : [
          "Start-up (median wall time):",
          "",
          table(
            ["program", "runs", "ms", "× node -e 0"],
            startup.map((r) => [r.program, r.runs, fixed(r.ms, 1), fixed(r.vs_node, 2)]),
          ),
        ]),
    "",
  ];
  if (latency.skipped) parts.push(`Live latency: skipped: ${latency.skipped}`);
  else {
    parts.push(
      `Live latency (stand-in backend, ${latency.rows[0].lines} stamped lines per run; median over runs of each run's figure):`,
      "",
      table(
        ["program", "runs", "p50 ms", "p99 ms", "max ms"],
        latency.rows.map((r) => [r.program, r.runs, fixed(r.p50_ms, 2), fixed(r.p99_ms, 2), fixed(r.max_ms, 2)]),
      ),
    );
  }
  parts.push(
    "",
    "Targets:",
    "",
    table(
      ["target", "measured", "met"],
      targets.map((t) => [t.name, t.value, t.met ? "yes" : "**no**"]),
    ),
  );
  return parts.join("\n");
}
