#!/usr/bin/env node
// agentstream's benchmark: throughput and peak memory of `normalize` against
// a minimal Node translator and jq, start-up against `node -e 0`, and live
// latency of `run`. Prints Markdown tables and writes the figures as JSON.
//
//   node test/bench/run-bench.mjs [--quick] [--agentstream BIN] [--compare BIN] [--out FILE]
//
// --quick      skip the 1 GB streams
// --agentstream measure another build than this checkout's bin/agentstream.js
// --compare    also measure a second build, side by side in the same rounds
//              (for a proposed change: a copy of the repository with it)
// --out        where the JSON goes (default test/bench/results/latest.json)
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { CACHE_DIR, nativeStream } from "./datasets.mjs";
import { measureLatency } from "./latency.mjs";
import { describeAgentstream, describeMachine, loadNow } from "./machine.mjs";
import { canMeasureResources } from "./measure-process.mjs";
import { agentstreamBuilds, jqVersion } from "./programs.mjs";
import { formatReport } from "./report.mjs";
import { measureStartup } from "./startup.mjs";
import { checkTargets } from "./targets.mjs";
import { measureThroughput } from "./throughput.mjs";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
// The cost of validation and jq's place are measured on the smaller streams:
// on a gigabyte they would add minutes and tell nothing more.
const SIZES = [
  { label: "40 MB", megabytes: 40, rounds: 5, withJq: true, withoutValidation: true },
  { label: "1 GB", megabytes: 1024, rounds: 3, withJq: false, withoutValidation: false },
];
const STARTUP_ROUNDS = 20;
const LATENCY_ROUNDS = 3;

const { values: options } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    agentstream: { type: "string", default: `${REPO}bin/agentstream.js` },
    compare: { type: "string" },
    out: { type: "string", default: `${REPO}test/bench/results/latest.json` },
  },
});
const builds = agentstreamBuilds(resolve(options.agentstream), options.compare && resolve(options.compare));
const log = (message) => process.stderr.write(`${message}\n`);

const machine = describeMachine();
const agentstream = describeAgentstream(builds[0].bin);
const withJq = jqVersion() !== undefined;
if (!withJq) log("jq is not installed: the jq comparison is left out");
if (!canMeasureResources) log("GNU time (/usr/bin/time) is not installed: CPU time and peak RSS are left out");

const throughput = [];
for (const size of options.quick ? SIZES.slice(0, 1) : SIZES) {
  for (const protocol of ["evosci", "atomic"]) {
    const stream = await nativeStream(protocol, size.megabytes, log);
    log(`throughput: ${protocol} ${size.label}`);
    const { label: sizeLabel, rounds, withoutValidation } = size;
    throughput.push(...(await measureThroughput({ builds, protocol, stream, sizeLabel, rounds, withJq: withJq && size.withJq, withoutValidation, log })));
  }
}

log("start-up");
const startup = await measureStartup({ builds, cacheDir: CACHE_DIR, rounds: STARTUP_ROUNDS, log });

log("live latency");
const latency = await measureLatency({ builds, cacheDir: CACHE_DIR, rounds: LATENCY_ROUNDS, log });
if (latency.skipped) log(`  skipped: ${latency.skipped}`);

machine.load_after = loadNow();
const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`;
const results = { date: new Date().toISOString(), command, machine, agentstream, throughput, startup, latency };
if (options.compare) results.compare = describeAgentstream(builds[1].bin);
results.targets = builds.flatMap(({ prefix }) => checkTargets(results, prefix));

console.log(formatReport(results));
mkdirSync(dirname(options.out), { recursive: true });
writeFileSync(options.out, `${JSON.stringify(results, null, 2)}\n`);
log(`\nwritten: ${relative(process.cwd(), options.out)}`);
