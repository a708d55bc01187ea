// Issue 48 item 5: `export atif -` of a canonical stream of about 1 GB, generated on the fly into a pipe (never
// stored), one run of many turns (each a message in deltas, a tool call and its result, a usage report).
// Prints the stream's and the document's sizes, the wall time and export atif's peak RSS.
//
//   node test/bench/atif-gigabyte.mjs [MEGABYTES]      (default 1024; needs the build: npm run build)
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../bin/agentstream.js", import.meta.url));
const REPORT_PEAK_RSS = `data:text/javascript,process.on("exit",()=>process.stderr.write("maxrss="+process.resourceUsage().maxRSS+"\\n"))`;
const megabytes = Number(process.argv[2] ?? 1024);
const target = megabytes * 1e6;

/** The stream's lines, a turn at a time, until `target` bytes. */
function* canonicalLines() {
  let seq = 0;
  const line = (event) =>
    `${JSON.stringify({ v: 1, seq: ++seq, ts: "2026-01-01T00:00:00.000Z", elapsed_ms: seq, run_id: "gigabyte", backend: "pi", ...event })}\n`;
  let bytes = 0;
  const emit = (event) => {
    const text = line(event);
    bytes += text.length;
    return text;
  };
  yield emit({ type: "run.started", agentstream_version: "0.0.0-bench", mode: "run" });
  yield emit({ type: "prompt.submitted", text: "work for a long time" });
  const chunk = "x".repeat(200);
  let turn = 0;
  while (bytes < target) {
    turn++;
    const id = `m${turn}`;
    yield emit({ type: "turn.started", turn });
    for (let i = 0; i < 5; i++) yield emit({ type: "message.delta", message_id: id, text: chunk });
    yield emit({ type: "message.completed", message_id: id, text: chunk.repeat(5) });
    yield emit({ type: "tool.started", tool_call_id: `c${turn}`, name: "bash", args: { command: `ls ${turn}` } });
    yield emit({
      type: "tool.completed",
      tool_call_id: `c${turn}`,
      name: "bash",
      status: "succeeded",
      output: "a\nb\n",
    });
    yield emit({ type: "usage", scope: "call", input_tokens: 1000, output_tokens: 50 });
    yield emit({ type: "turn.completed", turn });
  }
  const counts = { turns: turn, messages: turn, tool_calls: turn, tool_failures: 0, errors: 0, retries: 0 };
  yield emit({
    type: "run.finished",
    status: "succeeded",
    exit_code: 0,
    backend_exit: { code: 0, signal: null },
    duration_ms: seq,
    result: { text: chunk.repeat(5) },
    usage: { input_tokens: 1000 * turn, output_tokens: 50 * turn },
    counts: { ...counts, unknown_events: 0, unparsed_lines: 0 },
  });
  return bytes;
}

const started = process.hrtime.bigint();
const child = spawn(process.execPath, ["--import", REPORT_PEAK_RSS, BIN, "export", "atif", "-"], {
  stdio: ["pipe", "pipe", "pipe"],
});
let documentBytes = 0;
let stderr = "";
child.stdout.on("data", (d) => (documentBytes += d.length));
child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
const ended = new Promise((resolve) => child.on("close", resolve));

let streamBytes = 0;
for (const text of canonicalLines()) {
  streamBytes += text.length;
  // Backpressure: the pipe is never filled faster than export atif reads it.
  if (!child.stdin.write(text)) await new Promise((resolve) => child.stdin.once("drain", resolve));
}
child.stdin.end();
const code = await ended;
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const rss = /maxrss=(\d+)/.exec(stderr);
console.log(
  JSON.stringify({
    exit: code,
    stream_mb: +(streamBytes / 1e6).toFixed(1),
    document_mb: +(documentBytes / 1e6).toFixed(1),
    seconds: +seconds.toFixed(1),
    peak_rss_mib: rss ? Math.round(Number(rss[1]) / 1024) : undefined,
    stderr: stderr.replace(/maxrss=\d+\n/, "").trim() || undefined,
  }),
);
