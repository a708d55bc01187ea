#!/usr/bin/env node
// agentstream's benchmark: throughput and peak memory of `normalize` against
// a minimal Node translator and jq, start-up against `node -e 0`, and live
// latency of `run`. Prints Markdown tables and writes the figures as JSON.
//
//   node test/bench/run-bench.mjs [--quick] [--only PART]... [--agentstream BIN] [--compare BIN] [--out FILE]
//
// --quick      skip the 1 GB streams
// --only       measure only these parts: 40mb, 200mb, 1gb, empty-ids, startup, latency, otlp, report, report-html, limits, atif,
//              compare (repeatable)
// --agentstream measure another build than this checkout's bin/agentstream.js
// --compare    also measure a second build, side by side in the same rounds
//              (for a proposed change: a copy of the repository with it)
// --out        where the JSON goes (default test/bench/results/latest.json; with --only, .cache/bench/partial.json)
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { CACHE_DIR, emptyIdStream, nativeStream } from "./datasets.mjs";
import { measureLatency } from "./latency.mjs";
import { formatOtlp, measureOtlp } from "./otlp.mjs";
import { formatReportBench, measureReport } from "./report-bench.mjs";
import { describeAgentstream, describeMachine, loadNow } from "./machine.mjs";
import { canMeasureResources } from "./measure-process.mjs";
import { agentstreamBuilds, jqVersion } from "./programs.mjs";
import { formatReport } from "./report.mjs";
import { measureStartup } from "./startup.mjs";
import { checkTargets } from "./targets.mjs";
import { measureThroughput } from "./throughput.mjs";
import { formatReportHtml, measureReportHtml } from "./report-html.mjs";
import { formatLimits, measureLimits } from "./limits-bench.mjs";
import { formatAtif, measureAtif } from "./atif-bench.mjs";
import { formatCompare, measureCompare } from "./compare-bench.mjs";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
// The cost of validation is measured on the 40 MB streams, jq's place at 40 MB
// and 200 MB (issue 33's targets); on a gigabyte they would add minutes and tell nothing more.
// Every protocol at 40 MB and 200 MB, so that peak memory shows whether it grows
// with the stream; EvoScientist and Atomic again at 1 GB.
const SIZES = [
  {
    part: "40mb",
    label: "40 MB",
    megabytes: 40,
    rounds: 5,
    protocols: ["evosci", "atomic", "claude", "codex", "gemini", "opencode", "copilot", "acp"],
    withJq: true,
    withoutValidation: true,
  },
  {
    part: "200mb",
    label: "200 MB",
    megabytes: 200,
    rounds: 3,
    protocols: ["evosci", "atomic", "claude", "codex", "gemini", "opencode", "copilot", "acp"],
    withJq: true,
    withoutValidation: false,
  },
  {
    part: "1gb",
    label: "1 GB",
    megabytes: 1024,
    rounds: 3,
    protocols: ["evosci", "atomic"],
    withJq: false,
    withoutValidation: false,
  },
];
// Issue 19's case: EvoScientist tool calls that all have "id": "".
const EMPTY_IDS = { part: "empty-ids", label: "40,000 calls without ids", calls: 40_000, rounds: 3 };
const PARTS = [
  ...SIZES.map((s) => s.part),
  EMPTY_IDS.part,
  "startup",
  "latency",
  "otlp",
  "report",
  "report-html",
  "limits",
  "atif",
  "compare",
];
const STARTUP_ROUNDS = 20;
const LATENCY_ROUNDS = 3;

const { values: options } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    only: { type: "string", multiple: true },
    // Some protocols only (repeatable): `--protocol opencode`.
    protocol: { type: "string", multiple: true },
    agentstream: { type: "string", default: `${REPO}bin/agentstream.js` },
    compare: { type: "string" },
    // A partial run (--only) does not replace the full figures.
    out: { type: "string" },
  },
});
for (const part of options.only ?? []) {
  if (!PARTS.includes(part)) throw new Error(`--only ${part}: expected one of ${PARTS.join(", ")}`);
}
options.out ??= options.only ? `${CACHE_DIR}partial.json` : `${REPO}test/bench/results/latest.json`;
const measures = (part) => (options.only ? options.only.includes(part) : !(options.quick && part === "1gb"));
const builds = agentstreamBuilds(resolve(options.agentstream), options.compare && resolve(options.compare));
const log = (message) => process.stderr.write(`${message}\n`);

const machine = describeMachine();
const agentstream = describeAgentstream(builds[0].bin);
const withJq = jqVersion() !== undefined;
if (!withJq) log("jq is not installed: the jq comparison is left out");
if (!canMeasureResources) log("GNU time (/usr/bin/time) is not installed: CPU time and peak RSS are left out");

const throughput = [];
for (const size of SIZES.filter((s) => measures(s.part))) {
  for (const protocol of size.protocols.filter((p) => !options.protocol || options.protocol.includes(p))) {
    const stream = await nativeStream(protocol, size.megabytes, log);
    log(`throughput: ${protocol} ${size.label}`);
    const { label: sizeLabel, rounds, withoutValidation } = size;
    throughput.push(
      ...(await measureThroughput({
        builds,
        protocol,
        stream,
        sizeLabel,
        rounds,
        withJq: withJq && size.withJq,
        withoutValidation,
        log,
      })),
    );
  }
}

if (measures(EMPTY_IDS.part)) {
  const stream = await emptyIdStream(EMPTY_IDS.calls, log);
  log(`throughput: evosci ${EMPTY_IDS.label}`);
  const rows = await measureThroughput({
    builds,
    protocol: "evosci",
    stream,
    sizeLabel: EMPTY_IDS.label,
    rounds: EMPTY_IDS.rounds,
    withJq: false,
    withoutValidation: false,
    log,
  });
  // A case, not a size: left out of the "memory does not grow with the stream" comparison.
  throughput.push(...rows.map((row) => ({ ...row, case: EMPTY_IDS.part })));
}

let startup = [];
if (measures("startup")) {
  log("start-up");
  startup = await measureStartup({ builds, cacheDir: CACHE_DIR, rounds: STARTUP_ROUNDS, log });
}

let latency = { skipped: "not asked for (--only)" };
if (measures("latency")) {
  log("live latency");
  latency = await measureLatency({ builds, cacheDir: CACHE_DIR, rounds: LATENCY_ROUNDS, log });
  if (latency.skipped) log(`  skipped: ${latency.skipped}`);
}

// Issue 15: export otlp of 1,000 runs against a real collector, and run's latency with --otlp.
let otlp = { skipped: "not asked for (--only)" };
if (measures("otlp")) {
  log("otlp");
  otlp = await measureOtlp({ bin: builds[0].bin, cacheDir: CACHE_DIR, rounds: LATENCY_ROUNDS, log });
}

// agentstream report over a 100 MB and a 1 GB canonical stream (not with --quick) and over 1,000 files.
let report = [];
if (measures("report"))
  report = await measureReport({ bin: builds[0].bin, cacheDir: CACHE_DIR, quick: options.quick, log });

// The HTML report of a 10,000-event run: build, size, render in headless Chromium.
const reportHtml = measures("report-html")
  ? await measureReportHtml({ repo: REPO, cacheDir: CACHE_DIR, rounds: 5, log })
  : { skipped: "not asked for (--only)" };

// Issue 29: run with limits never reached against run without, on the 40 MB streams (test/bench/limits-bench.mjs).
const limits = measures("limits")
  ? await measureLimits({ bin: builds[0].bin, cacheDir: CACHE_DIR, rounds: 3, protocols: options.protocol, log })
  : { skipped: "not asked for (--only)" };

// Issue 48: export atif of the canonical stream normalize makes of each 40 MB stream, beside that normalize.
const atif = measures("atif")
  ? await measureAtif({
      bin: builds[0].bin,
      cacheDir: CACHE_DIR,
      rounds: 3,
      protocols: SIZES[0].protocols.filter((p) => !options.protocol || options.protocol.includes(p)),
      log,
    })
  : { skipped: "not asked for (--only)" };

// Issue 55: compare of 25, 50 and 100 replay cells against the same runs under `xargs -P 4`.
const compareCells = measures("compare")
  ? await measureCompare({ bin: builds[0].bin, cacheDir: CACHE_DIR, rounds: 3, log })
  : { skipped: "not asked for (--only)" };

machine.load_after = loadNow();
const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`;
const results = {
  date: new Date().toISOString(),
  command,
  machine,
  agentstream,
  throughput,
  startup,
  latency,
  otlp,
  report,
  report_html: reportHtml,
  limits,
  atif,
  compare_cells: compareCells,
};
if (options.compare) results.compare = describeAgentstream(builds[1].bin);
results.targets = builds.flatMap(({ prefix }) => checkTargets(results, prefix));

console.log(formatReport(results));
if (!otlp.skipped || options.only?.includes("otlp")) console.log(formatOtlp(otlp));
if (report.length > 0) console.log(`\n${formatReportBench(report)}`);
if (measures("report-html")) console.log(`\n${formatReportHtml(reportHtml)}`);
if (measures("limits")) console.log(`\n${formatLimits(limits)}`);
if (measures("atif")) console.log(`\n${formatAtif(atif)}`);
if (measures("compare")) console.log(`\n${formatCompare(compareCells)}`);
mkdirSync(dirname(options.out), { recursive: true });
writeFileSync(options.out, `${JSON.stringify(results, null, 2)}\n`);
log(`\nwritten: ${relative(process.cwd(), options.out)}`);
