// `agentstream report` over a long canonical stream (100 MB and 1 GB: memory
// must not grow with the stream) and over 1,000 files in one process: wall
// time, CPU time and peak RSS of the real CLI, from outside (GNU time).
import { once } from "node:events";
import {
  copyFileSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { fileURLToPath } from "node:url";
import { measureProcess } from "./measure-process.mjs";
import { median } from "./stats.mjs";

const EXAMPLES = fileURLToPath(new URL("../../examples/", import.meta.url));
// Bump when the generated stream changes: the cached one is made again.
const GENERATOR_VERSION = 1;
const TOOLS = [
  "bash",
  "read_file",
  "write_file",
  "edit",
  "grep",
  "list_directory",
  "web_search",
  "execute",
  "task",
  "tavily_search",
];
const WORDS = "the model reads the file then runs the tests and edits the code until every check passes".split(" ");

function sentence(n, i) {
  const words = [];
  for (let k = 0; k < n; k++) words.push(WORDS[(i + k * 7) % WORDS.length]);
  return words.join(" ");
}

/**
 * A canonical stream of about `megabytes` MB as `run` writes it: turns of
 * message deltas, a message, usage, and a tool call with progress and its
 * result (one in ten failed), ending with a run.finished whose counts match.
 */
async function generateCanonical(path, megabytes) {
  const out = createWriteStream(path);
  const target = megabytes * 1024 * 1024;
  const counts = {
    turns: 0,
    messages: 0,
    tool_calls: 0,
    tool_failures: 0,
    errors: 0,
    retries: 0,
    unknown_events: 0,
    unparsed_lines: 0,
  };
  const usage = { input_tokens: 0, output_tokens: 0 };
  let bytes = 0;
  let seq = 0;
  let elapsed = 0;
  let batch = [];
  const base = "2026-01-01T00:00:00.000Z";
  const line = (type, payload) => {
    seq++;
    elapsed += 3;
    const text = `{"v":1,"seq":${seq},"ts":"${new Date(Date.parse(base) + elapsed).toISOString()}","elapsed_ms":${elapsed},"run_id":"bench-run","backend":"pi","type":"${type}","session_id":"bench-session"${payload}}\n`;
    batch.push(text);
    bytes += text.length;
  };
  const flush = async () => {
    if (!out.write(batch.join(""))) await once(out, "drain");
    batch = [];
  };
  line("run.started", `,"agentstream_version":"bench","mode":"run","command":["pi","--mode","json"],"cwd":"/work"`);
  for (let turn = 1; bytes < target; turn++) {
    counts.turns++;
    line("turn.started", `,"turn":${turn}`);
    const id = `msg_${turn}`;
    for (let d = 0; d < 5; d++)
      line("message.delta", `,"message_id":"${id}","text":${JSON.stringify(sentence(12, turn + d))}`);
    counts.messages++;
    line(
      "message.completed",
      `,"message_id":"${id}","text":${JSON.stringify(sentence(60, turn))},"model":"bench-model","provider":"bench"`,
    );
    usage.input_tokens += 1200;
    usage.output_tokens += 80;
    line("usage", `,"scope":"call","input_tokens":1200,"output_tokens":80,"model":"bench-model"`);
    const name = TOOLS[turn % TOOLS.length];
    const call = `call_${turn}`;
    counts.tool_calls++;
    line(
      "tool.started",
      `,"tool_call_id":"${call}","name":"${name}","args":{"command":${JSON.stringify(sentence(10, turn))}}`,
    );
    line("tool.updated", `,"tool_call_id":"${call}","name":"${name}","output":${JSON.stringify(sentence(30, turn))}`);
    const failed = turn % 10 === 0;
    if (failed) counts.tool_failures++;
    line(
      "tool.completed",
      `,"tool_call_id":"${call}","name":"${name}","status":"${failed ? "failed" : "succeeded"}","output":${JSON.stringify(sentence(100, turn))},"duration_ms":${(turn * 37) % 5000}`,
    );
    line("turn.completed", `,"turn":${turn}`);
    if (batch.length > 2000) await flush();
  }
  line(
    "run.finished",
    `,"status":"succeeded","exit_code":0,"backend_exit":{"code":0,"signal":null},"duration_ms":${elapsed + 3},"result":{"text":"done"},"usage":${JSON.stringify(usage)},"counts":${JSON.stringify(counts)},"synthetic":true`,
  );
  await flush();
  out.end();
  await once(out, "close");
  return { lines: seq, toolCalls: counts.tool_calls };
}

async function canonicalStream(cacheDir, megabytes, log) {
  const path = `${cacheDir}canonical-${megabytes}mb.jsonl`;
  const metaPath = `${path}.meta.json`;
  if (existsSync(path) && existsSync(metaPath)) {
    const meta = JSON.parse(readFileSync(metaPath, "utf8"));
    if (meta.version === GENERATOR_VERSION) return { path, ...meta };
  }
  log(`generating a canonical stream of ${megabytes} MB into ${path} ...`);
  const made = await generateCanonical(`${path}.part`, megabytes);
  renameSync(`${path}.part`, path);
  const meta = { version: GENERATOR_VERSION, bytes: statSync(path).size, ...made };
  writeFileSync(metaPath, JSON.stringify(meta));
  return { path, ...meta };
}

/** `count` small canonical files: the examples, round robin. */
function manyFiles(cacheDir, count) {
  const dir = `${cacheDir}report-${count}-files/`;
  const sources = readdirSync(EXAMPLES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(`${EXAMPLES}${d.name}`)
        .filter((f) => f.endsWith(".canonical.jsonl"))
        .map((f) => `${EXAMPLES}${d.name}/${f}`),
    )
    .sort();
  mkdirSync(dir, { recursive: true });
  const files = [];
  for (let i = 0; i < count; i++) {
    const file = `${dir}run-${String(i + 1).padStart(4, "0")}.jsonl`;
    if (!existsSync(file)) copyFileSync(sources[i % sources.length], file);
    files.push(file);
  }
  return { files, bytes: files.reduce((s, f) => s + statSync(f).size, 0) };
}

async function measure(bin, args, rounds, check, log) {
  const runs = [];
  for (let r = 0; r < rounds; r++) {
    const m = await measureProcess(process.execPath, [bin, "report", ...args]);
    if (m.code !== 0) throw new Error(`agentstream report exited ${m.code}: ${m.stderr}`);
    check(m);
    runs.push(m);
    log(`  round ${r + 1}: ${m.seconds.toFixed(2)} s${m.peakRssMiB ? `, ${m.peakRssMiB.toFixed(0)} MiB` : ""}`);
  }
  return {
    runs: rounds,
    seconds: median(runs.map((m) => m.seconds)),
    cpu_seconds: runs[0].cpuSeconds === undefined ? undefined : median(runs.map((m) => m.cpuSeconds)),
    peak_rss_mib: runs[0].peakRssMiB === undefined ? undefined : Math.max(...runs.map((m) => m.peakRssMiB)),
    report_bytes: runs[0].outBytes,
  };
}

/** Rows of { input, bytes, ... measure } for `report --format md`. `quick` leaves out the 1 GB stream. */
export async function measureReport({ bin, cacheDir, quick, log }) {
  mkdirSync(cacheDir, { recursive: true });
  const rows = [];
  for (const megabytes of quick ? [100] : [100, 1024]) {
    const stream = await canonicalStream(cacheDir, megabytes, log);
    log(`report: one ${megabytes} MB stream (${stream.lines.toLocaleString("en-US")} events)`);
    // The figures must be the stream's: a guard that the report read it all.
    const check = (m) => {
      if (m.outBytes === 0) throw new Error("empty report");
    };
    const m = await measure(bin, ["--format", "md", stream.path], megabytes >= 1024 ? 3 : 5, check, log);
    rows.push({
      input: `one stream, ${megabytes >= 1024 ? "1 GB" : `${megabytes} MB`}`,
      bytes: stream.bytes,
      events: stream.lines,
      ...m,
      mb_per_s: stream.bytes / 1e6 / m.seconds,
    });
  }
  const many = manyFiles(cacheDir, 1000);
  log("report: 1,000 files in one process");
  const m = await measure(
    bin,
    ["--format", "md", ...many.files],
    5,
    (r) => {
      if (!r.outBytes) throw new Error("empty report");
    },
    log,
  );
  rows.push({
    input: "1,000 files",
    bytes: many.bytes,
    events: undefined,
    ...m,
    mb_per_s: many.bytes / 1e6 / m.seconds,
  });
  return rows;
}

export function formatReportBench(rows) {
  const header = "| input | size | runs | wall s | CPU s | MB/s | peak RSS MiB | report |";
  const lines = rows.map(
    (r) =>
      `| ${r.input} | ${(r.bytes / 1e6).toFixed(1)} MB | ${r.runs} | ${r.seconds.toFixed(2)} | ${r.cpu_seconds?.toFixed(2) ?? ""} | ${r.mb_per_s.toFixed(1)} | ${r.peak_rss_mib?.toFixed(0) ?? ""} | ${(r.report_bytes / 1024).toFixed(1)} KiB |`,
  );
  return [
    "agentstream report --format md (medians; peak RSS = the highest of the runs):",
    "",
    header,
    "|---|---|---|---|---|---|---|---|",
    ...lines,
  ].join("\n");
}
