// The agentstream library in a program: translate a recorded native stream,
// react to events as they arrive, print a summary, and exit as the CLI would.
// In an ESM project that depends on agentstream (tsconfig "module": "NodeNext"):
//
//   npx tsc && node library.js examples/evosci/research.native.jsonl
import { createReadStream } from "node:fs";
import { normalizeStream, type EventOf } from "agentstream";

const file = process.argv[2];
if (!file) {
  console.error("usage: node library.js NATIVE.jsonl");
  process.exit(2);
}

let finished: EventOf<"run.finished"> | undefined;
// `from` is detected from the first event; the stream always ends with run.finished.
for await (const event of normalizeStream(createReadStream(file))) {
  switch (event.type) {
    case "tool.completed":
      console.log(`tool ${event.name}: ${event.status}${event.duration_ms === undefined ? "" : ` in ${event.duration_ms} ms`}`);
      break;
    case "error":
      console.log(`error ${event.code}${event.retryable ? " (retryable)" : ""}: ${event.message}`);
      break;
    case "run.finished":
      finished = event;
      break;
  }
}

if (!finished) throw new Error("the stream ended without run.finished");
const { status, counts, usage, result, error, exit_code } = finished;
console.log(`${status}: ${counts.tool_calls} tool calls, ${counts.tool_failures} failed`);
// Usage fields are absent when the backend did not report them.
if (usage) console.log(`tokens: ${usage.input_tokens} in, ${usage.output_tokens} out${usage.complete === false ? " (incomplete)" : ""}`);
if (result) console.log(`answer: ${result.text}`);
if (error) console.log(`failed with ${error.code}; retrying may help: ${error.retryable}`);
process.exitCode = exit_code;
