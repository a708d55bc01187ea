// Issue 48 item 6: `export atif` of the canonical stream that `normalize` makes of each 40 MB native
// stream, beside that `normalize`'s own time, in alternating rounds. Target: export atif ≤ 1.5× normalize.
import { closeSync, openSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { nativeStream } from "./datasets.mjs";
import { canMeasureResources, measureAlternating } from "./measure-process.mjs";
import { finishedCleanly } from "./programs.mjs";
import { median } from "./stats.mjs";

const MEGABYTES = 40;
const ATIF_TARGET = 1.5;

/** The canonical stream `normalize` makes of `native`, written once per bench run (it changes with the build). */
function canonicalStream(bin, protocol, native, cacheDir) {
  const path = `${cacheDir}${protocol}-${MEGABYTES}mb.canonical.jsonl`;
  const fd = openSync(path, "w");
  try {
    const result = spawnSync(process.execPath, [bin, "normalize", "--from", protocol, native], {
      stdio: ["ignore", fd, "pipe"],
    });
    if (result.status !== 0) throw new Error(`atif bench: normalize of ${protocol} failed: ${result.stderr}`);
  } finally {
    closeSync(fd);
  }
  return path;
}

/** Per protocol: medians of `normalize` over the native stream and of `export atif` over its output. */
export async function measureAtif({ bin, cacheDir, rounds, protocols, log }) {
  const rows = [];
  for (const protocol of protocols) {
    const native = await nativeStream(protocol, MEGABYTES, log);
    const canonical = canonicalStream(bin, protocol, native.path, cacheDir);
    const programs = {
      normalize: {
        command: process.execPath,
        args: [bin, "normalize", "--from", protocol, native.path],
        check: finishedCleanly,
      },
      "export atif": {
        command: process.execPath,
        args: [bin, "export", "atif", canonical],
        check: (r) => r.code === 0 && r.lastLine === "}",
      },
    };
    const { results, seconds } = await measureAlternating(programs, rounds, `atif ${protocol}`, log);
    // GNU time's peak RSS, where it is installed.
    const peak = (n) => (canMeasureResources ? Math.max(...results[n].map((r) => r.peakRssMiB)) : undefined);
    const normalize = median(seconds.normalize);
    const atif = median(seconds["export atif"]);
    rows.push({
      protocol,
      megabytes: MEGABYTES,
      rounds,
      document_bytes: results["export atif"][0].outBytes,
      seconds: { normalize, export_atif: atif },
      ratio: atif / normalize,
      target: ATIF_TARGET,
      peak_rss_mib: { normalize: peak("normalize"), export_atif: peak("export atif") },
      all: seconds,
    });
  }
  return rows;
}

export function formatAtif(rows) {
  const head = [
    `ATIF: \`export atif\` of the canonical stream \`normalize\` makes of each 40 MB native stream, beside that \`normalize\` (medians; target ≤ ${ATIF_TARGET}×):`,
    "",
    "| protocol | normalize | export atif | export / normalize | document | peak RSS normalize / export |",
    "|---|---|---|---|---|---|",
  ];
  const s = (x) => `${x.toFixed(2)} s`;
  const mib = (x) => (x === undefined ? "?" : `${Math.round(x)} MiB`);
  return head
    .concat(
      rows.map(
        (row) =>
          `| ${row.protocol} | ${s(row.seconds.normalize)} | ${s(row.seconds.export_atif)} | ${row.ratio.toFixed(2)}× | ${(row.document_bytes / 1e6).toFixed(1)} MB | ${mib(row.peak_rss_mib.normalize)} / ${mib(row.peak_rss_mib.export_atif)} |`,
      ),
    )
    .join("\n");
}
