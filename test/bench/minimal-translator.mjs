#!/usr/bin/env node
// The floor under any translator, to compare agentstream with: split lines,
// JSON.parse, wrap each native line in an envelope (one per line, none
// skipped), JSON.stringify, write with backpressure. As agentstream does, it
// reads 64 KiB at a time, writes the lines made from one chunk with one
// write(), and waits for "drain" after a chunk when the reader is behind: only
// the work per line differs.
//   node minimal-translator.mjs FILE|-
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createReadStream } from "node:fs";

const file = process.argv[2] ?? "-";
// The same read size as agentstream, so only the work per line differs.
const input = file === "-" ? process.stdin : createReadStream(file, { highWaterMark: 64 * 1024 });
input.setEncoding("utf8");

const runId = randomUUID();
const startWall = Date.now();
const startMono = performance.now();
let seq = 0;
let rest = "";

function wrap(line) {
  let native;
  try {
    native = JSON.parse(line);
  } catch {
    native = { type: "unparsed", line };
  }
  const elapsed = Math.floor(performance.now() - startMono);
  const envelope = {
    v: 1,
    seq: ++seq,
    ts: new Date(startWall + elapsed).toISOString(),
    elapsed_ms: elapsed,
    run_id: runId,
    type: native.type,
    native,
  };
  return `${JSON.stringify(envelope)}\n`;
}

/** Returns false when the reader is behind (wait for "drain"). */
function writeLines(text) {
  let out = "";
  for (const line of text.split("\n")) if (line !== "") out += wrap(line);
  return out === "" || process.stdout.write(out);
}

for await (const chunk of input) {
  const text = rest + chunk;
  const cut = text.lastIndexOf("\n");
  rest = text.slice(cut + 1);
  if (!writeLines(text.slice(0, cut + 1))) await once(process.stdout, "drain");
}
writeLines(rest);
