import { Writable } from "node:stream";
import { stripVTControlCharacters } from "node:util";
import { Chalk } from "chalk";
import { describe, expect, it } from "vitest";
import type { CanonicalEvent, EventOf } from "../../src/canonical/events.js";
import { formatDuration, summaryLine } from "../../src/human/format.js";
import { HumanRenderer } from "../../src/human/renderer.js";
import { redactSecrets } from "../../src/run/redact.js";

/** A stderr that says it is a terminal, keeping what is written to it. */
function fakeTerminal(): NodeJS.WriteStream & { text(): string } {
  let written = "";
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      written += chunk.toString("utf8");
      callback();
    },
  }) as unknown as NodeJS.WriteStream & { text(): string };
  const moveCursor = (): boolean => true;
  Object.assign(stream, { isTTY: true, columns: 100, rows: 40, cursorTo: moveCursor, moveCursor, clearLine: moveCursor, text: () => stripVTControlCharacters(written) });
  return stream;
}

const envelope = { v: 1, seq: 1, ts: "2026-01-01T00:00:00.000Z", elapsed_ms: 0, run_id: "r", backend: "evosci" } as const;
const event = (e: Record<string, unknown>): CanonicalEvent => ({ ...envelope, ...e }) as unknown as CanonicalEvent;
const finished = (e: Partial<EventOf<"run.finished">>): EventOf<"run.finished"> =>
  ({
    ...envelope,
    type: "run.finished",
    status: "succeeded",
    exit_code: 0,
    backend_exit: { code: 0, signal: null },
    duration_ms: 12_345,
    result: null,
    counts: { turns: 0, messages: 1, tool_calls: 2, tool_failures: 1, errors: 0, retries: 0, unknown_events: 0, unparsed_lines: 0 },
    ...e,
  }) as EventOf<"run.finished">;

describe("human output on a terminal", () => {
  it("spins with what the agent is doing, prints a line per finished tool call, then a summary", () => {
    const stream = fakeTerminal();
    const renderer = new HumanRenderer({ stream, verbosity: "normal", backend: "evosci", env: { NO_COLOR: "1" } });
    renderer.event(event({ type: "run.started", agentstream_version: "0", mode: "run" }));
    renderer.event(event({ type: "reasoning.delta", message_id: "m1", text: "hmm" }));
    expect(stream.text()).toContain("evosci · thinking");
    renderer.event(event({ type: "tool.started", tool_call_id: "t1", name: "web_search", args: {}, agent: { name: "research-agent", instance_id: "i1" } }));
    expect(stream.text()).toContain("evosci · running research-agent › web_search");
    renderer.event(event({ type: "tool.completed", tool_call_id: "t1", name: "web_search", status: "failed", output: "", duration_ms: 1500, agent: { name: "research-agent", instance_id: "i1" } }));
    expect(stream.text()).toContain("✖ research-agent › web_search 1.5s\n");
    renderer.status("waiting for EvoScientist to exit");
    expect(stream.text()).toContain("evosci · waiting for EvoScientist to exit");
    renderer.event(finished({}));
    expect(stream.text()).toMatch(/✔ succeeded in 12\.3s · 2 tool calls \(1 failed\)\n$/);
  });

  it("--quiet: no spinner and nothing for a run that succeeded", () => {
    const stream = fakeTerminal();
    const renderer = new HumanRenderer({ stream, verbosity: "quiet", backend: "pi", env: {} });
    renderer.event(event({ type: "run.started", agentstream_version: "0", mode: "run" }));
    renderer.event(event({ type: "tool.completed", tool_call_id: "t1", name: "read", status: "succeeded", output: "" }));
    renderer.event(finished({}));
    expect(stream.text()).toBe("");
  });
});

describe("human output: formats", () => {
  const plain = new Chalk({ level: 0 });

  it("durations", () => {
    expect([formatDuration(850), formatDuration(12_345), formatDuration(125_000)]).toEqual(["850ms", "12.3s", "2m 05s"]);
  });

  it("a summary says tokens, cost, the error and the exit code when there are some", () => {
    const line = summaryLine(
      finished({
        status: "failed",
        exit_code: 75,
        usage: { input_tokens: 18_133, output_tokens: 52, cost_usd: 0.01234 },
        error: { code: "rate_limit", message: "429: slow down\nmore detail", retryable: true },
      }),
      plain,
    );
    expect(line).toBe("✖ failed after 12.3s · 2 tool calls (1 failed) · 18.1k in / 52 out tokens · $0.0123 · rate_limit, retryable: 429: slow down · exit 75");
  });
});

describe("run.started.command: secrets", () => {
  it("hides the values of secret flags, in both forms, and nothing after --", () => {
    expect(redactSecrets(["--api-key", "sk-1", "--session-token=abc", "--model", "m", "--", "--api-key"])).toEqual([
      "--api-key",
      "[redacted]",
      "--session-token=[redacted]",
      "--model",
      "m",
      "--",
      "--api-key",
    ]);
  });
});
