#!/usr/bin/env node
// A stand-in for `EvoSci -p PROMPT --output-format stream-json` that paces its
// lines like a streaming model and stamps each one with the moment it was
// written ("@<epoch ms>"), so the reader can tell how long each took to come
// out of agentstream. Arguments are accepted and ignored.
import { setTimeout as sleep } from "node:timers/promises";
import { preciseNowMs } from "./stats.mjs";

const ROUNDS = 150;
const TEXT_CHUNKS_PER_ROUND = 8;
const PAUSE_MS = 2;
const TOOL_OUTPUT = "x".repeat(2000);
// Real backends take seconds to their first event. Streaming at once would
// time agentstream's own start-up on the first lines, which the start-up part
// of the bench measures on its own.
const FIRST_EVENT_AFTER_MS = 500;

// EvoSci writes Python json.dumps output: ", " and ": " separators.
const pyJson = (o) => JSON.stringify(o).replace(/","/g, '", "').replace(/":/g, '": ');
const stamp = () => `@${preciseNowMs().toFixed(3)}`;

function writeLine(object) {
  process.stdout.write(`${pyJson(object)}\n`);
}

await sleep(FIRST_EVENT_AFTER_MS);
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < TEXT_CHUNKS_PER_ROUND; k++) {
    writeLine({ type: "text", content: `${stamp()} chunk ${k} of round ${round}` });
    await sleep(PAUSE_MS);
  }
  const id = `toolu_${round}`;
  writeLine({ type: "tool_call", name: "read_file", args: { file_path: `/data/${round}.csv` }, id });
  await sleep(PAUSE_MS);
  writeLine({ type: "usage_stats", input_tokens: 1000 + round, output_tokens: 50 });
  writeLine({ type: "tool_result", name: "read_file", content: `${stamp()} ${TOOL_OUTPUT}`, success: true, id });
  await sleep(PAUSE_MS);
}
writeLine({ type: "done", content: "Done.", response: "Done." });
