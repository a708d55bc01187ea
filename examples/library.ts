// The agentstream library in a program: run an agent live, or translate a
// recorded native stream; react to events as they arrive, print a summary,
// and exit as the CLI would. In an ESM project that depends on agentstream
// (tsconfig "module": "NodeNext"):
//
//   npx tsc && node library.js examples/evosci/research.native.jsonl
//   node library.js --run pi "Say hi"        # Ctrl-C stops the agent cleanly
import { createReadStream } from "node:fs";
import { normalizeStream, run, type BackendName, type CanonicalEvent, type EventOf } from "agentstream";

const [first, backend, prompt] = process.argv.slice(2);
if (!first || (first === "--run" && (!backend || !prompt))) {
  console.error("usage: node library.js NATIVE.jsonl | node library.js --run BACKEND PROMPT");
  process.exit(2);
}

function events(): AsyncIterable<CanonicalEvent> {
  if (first !== "--run") {
    // `from` is detected from the first event; the stream always ends with run.finished.
    return normalizeStream(createReadStream(first!));
  }
  // Aborting stops the backend its clean way; the run still ends with run.finished (cancelled).
  const stop = new AbortController();
  process.once("SIGINT", () => stop.abort());
  return run({ backend: backend as BackendName, prompt: prompt!, signal: stop.signal, timeoutMs: 10 * 60_000 });
}

let finished: EventOf<"run.finished"> | undefined;
for await (const event of events()) {
  switch (event.type) {
    case "tool.completed":
      console.log(
        `tool ${event.name}: ${event.status}${event.duration_ms === undefined ? "" : ` in ${event.duration_ms} ms`}`,
      );
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
if (usage)
  console.log(
    `tokens: ${usage.input_tokens} in, ${usage.output_tokens} out${usage.complete === false ? " (incomplete)" : ""}`,
  );
if (result) console.log(`answer: ${result.text}`);
if (error) console.log(`failed with ${error.code}; retrying may help: ${error.retryable}`);
process.exitCode = exit_code;
