import { writeFileSync } from "node:fs";
import { Writable } from "node:stream";
import { stripVTControlCharacters } from "node:util";
import { Chalk } from "chalk";
import { afterAll, describe, expect, it } from "vitest";
import type { CanonicalEvent, EventOf } from "../../../src/canonical/events.js";
import { formatDuration } from "../../../src/human/format.js";
import { summaryLines } from "../../../src/human/stderr-summary.js";
import { HumanRenderer } from "../../../src/human/renderer.js";
import { redactSecrets } from "../../../src/run/redact.js";
import { runStandIn, Scratch } from "../../helpers/stand-in.js";

type FakeStderr = NodeJS.WriteStream & { text(): string; release(): void };

/** A stderr that keeps what is written to it; `stuck` holds every write until release(). */
function fakeStderr(options: { stuck?: boolean } = {}): FakeStderr {
  let written = "";
  const held: Array<() => void> = [];
  const stream = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, callback) {
      written += chunk.toString("utf8");
      if (options.stuck) held.push(callback);
      else callback();
    },
  }) as unknown as FakeStderr;
  Object.assign(stream, {
    isTTY: false,
    text: () => written,
    release: () => {
      for (const callback of held.splice(0)) callback();
    },
  });
  return stream;
}

/** A stderr that says it is a terminal; text() without the cursor moves. */
function fakeTerminal(): FakeStderr {
  const stream = fakeStderr();
  const written = stream.text;
  const moveCursor = (): boolean => true;
  Object.assign(stream, {
    isTTY: true,
    columns: 100,
    rows: 40,
    cursorTo: moveCursor,
    moveCursor,
    clearLine: moveCursor,
    text: () => stripVTControlCharacters(written()),
  });
  return stream;
}

const envelope = {
  v: 1,
  seq: 1,
  ts: "2026-01-01T00:00:00.000Z",
  elapsed_ms: 0,
  run_id: "r",
  backend: "evosci",
} as const;
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
    counts: {
      turns: 0,
      messages: 1,
      tool_calls: 2,
      tool_failures: 1,
      errors: 0,
      retries: 0,
      unknown_events: 0,
      unparsed_lines: 0,
    },
    ...e,
  }) as EventOf<"run.finished">;

describe("human output on a terminal", () => {
  it("spins with what the agent is doing, prints a line per finished tool call, then a summary", () => {
    const stream = fakeTerminal();
    const renderer = new HumanRenderer({ stream, verbosity: "normal", backend: "evosci", env: { NO_COLOR: "1" } });
    renderer.event(event({ type: "run.started", agentstream_version: "0", mode: "run" }));
    renderer.event(event({ type: "reasoning.delta", message_id: "m1", text: "hmm" }));
    expect(stream.text()).toContain("evosci · thinking");
    renderer.event(
      event({
        type: "tool.started",
        tool_call_id: "t1",
        name: "web_search",
        args: {},
        agent: { name: "research-agent", instance_id: "i1" },
      }),
    );
    expect(stream.text()).toContain("evosci · running research-agent › web_search");
    renderer.event(
      event({
        type: "tool.completed",
        tool_call_id: "t1",
        name: "web_search",
        status: "failed",
        output: "",
        duration_ms: 1500,
        agent: { name: "research-agent", instance_id: "i1" },
      }),
    );
    expect(stream.text()).toContain("✖ research-agent › web_search 1.5s\n");
    renderer.status("waiting for EvoScientist to exit");
    expect(stream.text()).toContain("evosci · waiting for EvoScientist to exit");
    renderer.event(finished({}));
    expect(stream.text()).toMatch(/✔ succeeded in 12\.3s · 2 tool calls \(1 failed\)\n$/);
  });

  it("a retry with no max_attempts (EvoScientist retries within a time budget) says which attempt, not of how many", () => {
    const stream = fakeTerminal();
    const renderer = new HumanRenderer({ stream, verbosity: "normal", backend: "evosci", env: { NO_COLOR: "1" } });
    renderer.event(event({ type: "run.started", agentstream_version: "0", mode: "run" }));
    renderer.event(event({ type: "retry.started", scope: "request", attempt: 1, delay_ms: 2000, error: "overloaded" }));
    expect(stream.text()).toContain("evosci · retrying (attempt 1)");
    expect(stream.text()).toContain("↻ retry 1 in 2.0s: overloaded\n");
    renderer.event(
      event({
        type: "retry.started",
        scope: "request",
        attempt: 2,
        max_attempts: 5,
        delay_ms: 2000,
        error: "overloaded",
      }),
    );
    expect(stream.text()).toContain("evosci · retrying (attempt 2/5)");
    expect(stream.text()).toContain("↻ retry 2/5 in 2.0s: overloaded\n");
    expect(stream.text()).not.toContain("undefined");
    renderer.close();
  });

  it("--quiet: no spinner and nothing for a run that succeeded", () => {
    const stream = fakeTerminal();
    const renderer = new HumanRenderer({ stream, verbosity: "quiet", backend: "pi", env: {} });
    renderer.event(event({ type: "run.started", agentstream_version: "0", mode: "run" }));
    renderer.event(
      event({ type: "tool.completed", tool_call_id: "t1", name: "read", status: "succeeded", output: "" }),
    );
    renderer.event(finished({}));
    expect(stream.text()).toBe("");
  });
});

describe("the backend's own stderr, shown with --verbose", () => {
  it("a character split across two reads is shown whole, and so is a last line without a newline", () => {
    const stream = fakeStderr();
    const renderer = new HumanRenderer({ stream, verbosity: "verbose", backend: "evosci", env: { NO_COLOR: "1" } });
    const bytes = Buffer.from("café ok\nthé", "utf8");
    const split = bytes.indexOf(0xc3) + 1;
    renderer.backendStderr(bytes.subarray(0, split));
    renderer.backendStderr(bytes.subarray(split, bytes.length - 1));
    renderer.backendStderr(bytes.subarray(bytes.length - 1));
    renderer.close();
    expect(stream.text()).toBe("[evosci] café ok\n[evosci] thé\n");
  });

  it("is not read on while stderr's reader lags; never held back when it is not shown", async () => {
    const verbose = fakeStderr({ stuck: true });
    const shown = new HumanRenderer({
      stream: verbose,
      verbosity: "verbose",
      backend: "evosci",
      env: { NO_COLOR: "1" },
    });
    shown.backendStderr(Buffer.from("noise\n".repeat(500)));
    expect(shown.needsDrain).toBe(true);
    let drained = false;
    const waiting = shown.drained().then(() => (drained = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(drained).toBe(false);
    verbose.release();
    await waiting;
    expect(shown.needsDrain).toBe(false);

    const normal = fakeStderr({ stuck: true });
    const hidden = new HumanRenderer({
      stream: normal,
      verbosity: "normal",
      backend: "evosci",
      env: { NO_COLOR: "1" },
    });
    normal.write("x".repeat(2048));
    hidden.backendStderr(Buffer.from("noise\n".repeat(500)));
    expect(normal.writableNeedDrain).toBe(true);
    expect(hidden.needsDrain).toBe(false);
  });
});

describe("human output: formats", () => {
  const plain = new Chalk({ level: 0 });

  it("durations", () => {
    expect([formatDuration(850), formatDuration(12_345), formatDuration(125_000)]).toEqual([
      "850ms",
      "12.3s",
      "2m 05s",
    ]);
  });

  it("a failure: a short line with the cause in words and the exit code, then the message and the counts indented below", () => {
    const lines = summaryLines(
      finished({
        status: "failed",
        exit_code: 75,
        usage: { input_tokens: 18_133, output_tokens: 52, cost_usd: 0.01234 },
        error: { code: "rate_limit", message: "429: slow down\nmore detail", retryable: true },
      }),
      plain,
      100,
    );
    expect(lines).toEqual([
      "✖ failed after 12.3s: rate limited, worth retrying · exit 75",
      "  429: slow down",
      "  more detail",
      "  2 tool calls (1 failed) · 18.1k in / 52 out tokens · $0.0123",
    ]);
  });

  it("a provider's JSON body (or EvoScientist's Python dict) is taken apart: its message inline, its other values as fields below", () => {
    const atomic =
      '500: {"message":"The server had an error while processing your request (fake 500)","type":"server_error","param":null,"code":null}';
    expect(
      summaryLines(
        finished({ status: "failed", exit_code: 75, error: { code: "provider", message: atomic, retryable: true } }),
        plain,
        100,
      ),
    ).toEqual([
      "✖ failed after 12.3s: the provider returned an error, worth retrying · exit 75",
      "  500: The server had an error while processing your request (fake 500)",
      "    type: server_error",
      "  2 tool calls (1 failed)",
    ]);
    const evosci =
      "Error code: 529 - {'type': 'error', 'error': {'type': 'overloaded_error', 'message': 'Overloaded'}, 'request_id': 'req_011CiOeRfYyHnYIJUDmDd8Lt'}";
    expect(
      summaryLines(
        finished({ status: "failed", exit_code: 75, error: { code: "overloaded", message: evosci, retryable: true } }),
        plain,
        60,
      ),
    ).toEqual([
      "✖ failed after 12.3s: the provider is overloaded, worth",
      "  retrying · exit 75",
      "  Error code: 529: Overloaded",
      "    type: error · error.type: overloaded_error",
      "    request_id: req_011CiOeRfYyHnYIJUDmDd8Lt",
      "  2 tool calls (1 failed)",
    ]);
  });

  it("cancelled by a signal, or timed out by --timeout: said once, in the first line", () => {
    const sigint = finished({
      status: "cancelled",
      exit_code: 130,
      error: { code: "cancelled", message: "cancelled by SIGINT", retryable: false },
    });
    expect(summaryLines(sigint, plain, 100)).toEqual([
      "■ cancelled by SIGINT after 12.3s · exit 130",
      "  2 tool calls (1 failed)",
    ]);
    const timeout = finished({
      status: "timed_out",
      exit_code: 124,
      error: { code: "timeout", message: "the run exceeded --timeout and was stopped", retryable: false },
    });
    expect(summaryLines(timeout, plain, 100)).toEqual([
      "⏱ timed out after 12.3s · exit 124",
      "  2 tool calls (1 failed)",
    ]);
  });

  it("every line fits the width, however long the message; a success stays one line when it fits", () => {
    const message = `400: ${"a long explanation of what went wrong ".repeat(8)}/a/path/without/any/spaces/${"x".repeat(120)}`;
    const lines = summaryLines(
      finished({ status: "failed", exit_code: 1, error: { code: "provider", message, retryable: false } }),
      plain,
      50,
    );
    expect(lines.filter((line) => line.length > 50)).toEqual([]);
    expect(lines.slice(1).every((line) => line.startsWith("  "))).toBe(true);
    expect(lines.join("").replace(/\s+/g, "")).toContain("x".repeat(120).slice(0, 40));
    expect(summaryLines(finished({}), plain, 100)).toEqual(["✔ succeeded in 12.3s · 2 tool calls (1 failed)"]);
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

describe("native text on stderr: control characters shown, never sent", () => {
  const scratch = new Scratch();
  afterAll(() => scratch.remove());
  // Retitles the terminal, rings, clears the screen, moves the cursor, returns the carriage; then a C1 CSI and DEL.
  const HOSTILE = "ls\u001b]0;pwned\u0007\u001b[2J\u001b[1A\r\u009b2J\u007f";
  const TRANSCRIPT = [
    { type: "subagent_start", name: HOSTILE, instance_id: "a1" },
    { type: "tool_call", name: HOSTILE, args: {}, id: "t1" },
    { type: "tool_result", name: HOSTILE, content: "no", success: false, id: "t1" },
    { type: "model_retry", attempt: 1, wait_seconds: 0, reason: HOSTILE },
    { type: "subagent_end", name: HOSTILE, instance_id: "a1" },
    { type: "error", message: HOSTILE },
    { type: "ask_user", questions: [{ question: HOSTILE }] },
  ];

  for (const verbosity of ["normal", "verbose"] as const) {
    it(`${verbosity}: tool names, sub-agents, retries, errors, input requests and the backend's stderr`, async () => {
      const file = scratch.recordPath();
      writeFileSync(file, `${TRANSCRIPT.map((e) => JSON.stringify(e)).join("\n")}\n`);
      const knobs = { STANDIN_TRANSCRIPT: file, STANDIN_STDERR: `${HOSTILE}\n`, STANDIN_STDERR_AT_END: HOSTILE };
      const args = ["--backend", "evosci", ...(verbosity === "verbose" ? ["--verbose"] : []), "do the task"];
      const { result } = await runStandIn(scratch, args, { knobs, env: { NO_COLOR: "1" } });
      expect(result.code, result.stderr).not.toBe(0);
      expect(result.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      expect(result.stderr).toContain("ls␛]0;pwned␇␛[2J␛[1A␍\\u009b2J␡");
      expect(result.stderr).toMatch(/✖ ls␛\]0;pwned/);
      expect(result.stderr).toMatch(/↻ retry 1.*: ls␛/);
      expect(result.stderr).toMatch(/needs input: ls␛/);
      if (verbosity === "verbose") {
        expect(result.stderr).toMatch(/sub-agent ls␛.* started/);
        expect(result.stderr).toMatch(/\[evosci\] ls␛/);
      } else expect(result.stderr).toMatch(/│ ls␛/);
    });
  }
});

describe("a permission request and its answer, said with who decided", () => {
  const requested = event({
    type: "input.requested",
    request_id: "7",
    kind: "approval",
    tool_call_id: "t1",
    actions: [{ name: "execute", args: {}, description: "git status\u001b[2J", allowed_decisions: [] }],
  });
  // Every `by` of input.answered: what the line says.
  const CASES: [Record<string, unknown>, string][] = [
    [{ decision: "allow", by: "rule", rule: "shell(git *)" }, "✔ allowed execute: git status␛[2J (rule shell(git *))"],
    [{ decision: "reject", by: "rule", rule: "shell" }, "✖ rejected execute: git status␛[2J (rule shell)"],
    [{ decision: "allow", by: "approvals" }, "✔ allowed execute: git status␛[2J (--approvals auto)"],
    [{ decision: "reject", by: "callback" }, "✖ rejected execute: git status␛[2J (by the caller)"],
    [{ decision: "allow", by: "command" }, "✔ allowed execute: git status␛[2J (by command)"],
    [{ decision: "reject", by: "person" }, "✖ rejected execute: git status␛[2J (by person)"],
    [
      { decision: "reject", by: "default" },
      "? needs input: approve execute: git status␛[2J (no one decided: no rule, no answer)",
    ],
  ];
  for (const [answer, line] of CASES)
    it(`${String(answer.by)} ${String(answer.decision)}: ${line}`, () => {
      const stream = fakeStderr();
      const renderer = new HumanRenderer({ stream, verbosity: "normal", backend: "acp", env: { NO_COLOR: "1" } });
      renderer.event(requested);
      renderer.event(event({ type: "input.answered", request_id: "7", tool_call_id: "t1", ...answer }));
      renderer.close();
      // One line: the request said with its answer, never as needing input besides.
      expect(stream.text()).toBe(`[agentstream] ${line}\n`);
    });
});

describe("a request's line shows what will run: the command, path or URL of its input, whole, then its title", () => {
  const say = (args: Record<string, unknown>, description: string, answer: Record<string, unknown>) => {
    const stream = fakeStderr();
    const renderer = new HumanRenderer({
      stream,
      verbosity: "normal",
      backend: "acp",
      env: { NO_COLOR: "1" },
      redact: (text) => text.replaceAll("sk-SECRET", "[redacted]"),
    });
    renderer.event(
      event({
        type: "input.requested",
        request_id: "7",
        kind: "approval",
        tool_call_id: "t1",
        actions: [{ name: "execute", args, description, allowed_decisions: [] }],
      }),
    );
    renderer.event(event({ type: "input.answered", request_id: "7", tool_call_id: "t1", ...answer }));
    renderer.close();
    return stream.text();
  };

  it("Copilot CLI's shape: the command of two lines, shown on one, and the title after it", () => {
    expect(say({ command: "ls\nrm -rf ./build" }, "Running command", { decision: "allow", by: "command" })).toBe(
      "[agentstream] ✔ allowed execute: ls␊rm -rf ./build (Running command) (by command)\n",
    );
  });

  it("a path or URL, its secrets hidden; no input: the title", () => {
    expect(say({ url: "https://x.example/?k=sk-SECRET" }, "Fetch", { decision: "reject", by: "person" })).toBe(
      "[agentstream] ✖ rejected execute: https://x.example/?k=[redacted] (Fetch) (by person)\n",
    );
    expect(say({}, "git push", { decision: "reject", by: "default" })).toContain("approve execute: git push (no one");
  });

  it("an edit of several files names every one, as the rules read them (src/core/call-targets.ts)", () => {
    const args = { changes: { "/srv/repo/a.ts": {}, "/etc/profile": {} } };
    expect(say(args, "Edit files", { decision: "reject", by: "rule", rule: "write(/etc/**)" })).toBe(
      "[agentstream] ✖ rejected execute: /srv/repo/a.ts, /etc/profile (Edit files) (rule write(/etc/**))\n",
    );
  });

  it("a long command is shown far past a line's first words, and its cut is said", () => {
    const command = `echo ${"a".repeat(5000)}; rm -rf ~`;
    const line = say({ command }, "echo", { decision: "allow", by: "rule", rule: "shell" });
    expect(line).toContain(`execute: echo ${"a".repeat(3995)}… (${command.length - 4000} more characters) (echo)`);
  });
});
