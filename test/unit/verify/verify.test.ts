import { closeSync, existsSync, mkdtempSync, openSync, writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { VerifyProblem } from "../../../src/verify/problem.js";
import { verifyStream } from "../../../src/verify/verify-stream.js";
import { BIN, runCli } from "../../helpers/cli.js";
import { publishedValidator, verifyEvents, verifyLines } from "../../helpers/verify.js";
import { TEST_RUN_ID, toJsonl, translate, type TranslateOptions } from "../../helpers/translate.js";

type Event = Record<string, unknown>;

// An EvoSci run with main-agent tool calls, a sub-agent with a failing call, usage and an unknown event.
const EVOSCI_NATIVE = [
  { type: "text", content: "Looking around." },
  { type: "tool_call", name: "ls", args: { path: "/" }, id: "call_ls" },
  { type: "tool_result", name: "ls", content: "a.txt", success: true, id: "call_ls" },
  { type: "subagent_start", name: "researcher", instance_id: "sub_1" },
  { type: "subagent_text", subagent: "researcher", instance_id: "sub_1", content: "Reading a.txt" },
  {
    type: "subagent_tool_call",
    subagent: "researcher",
    instance_id: "sub_1",
    name: "read_file",
    args: { file_path: "a.txt" },
    id: "call_read",
  },
  {
    type: "subagent_tool_result",
    subagent: "researcher",
    instance_id: "sub_1",
    name: "read_file",
    content: "Error: not found",
    success: false,
    id: "call_read",
  },
  { type: "subagent_end", name: "researcher", instance_id: "sub_1" },
  { type: "usage_stats", input_tokens: 100, output_tokens: 20 },
  { type: "panel_dispatch_start", panel: "x" },
  { type: "text", content: "Done." },
  { type: "done", content: "Done.", response: "Looking around. Done." },
];

// An Atomic run with a session, two turns, a failing tool call and a retry.
const ATOMIC_NATIVE = [
  { type: "session", version: 3, id: "sess-1", cwd: "/work" },
  { type: "agent_start" },
  { type: "turn_start" },
  { type: "message_start", message: { role: "assistant", content: [] } },
  {
    type: "message_end",
    message: {
      role: "assistant",
      content: [{ type: "text", text: "Listing." }],
      provider: "fake",
      model: "m",
      usage: { input: 10, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 12, cost: { total: 0.001 } },
      stopReason: "toolUse",
    },
  },
  { type: "tool_execution_start", toolCallId: "c1", toolName: "bash", args: { command: "ls" } },
  {
    type: "tool_execution_end",
    toolCallId: "c1",
    toolName: "bash",
    result: { content: [{ type: "text", text: "denied" }] },
    isError: true,
  },
  { type: "turn_end", message: { role: "assistant", stopReason: "toolUse" } },
  { type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 10, errorMessage: "529 overloaded" },
  { type: "auto_retry_end", success: true, attempt: 1 },
  { type: "turn_start" },
  { type: "message_start", message: { role: "assistant", content: [] } },
  {
    type: "message_end",
    message: {
      role: "assistant",
      content: [{ type: "text", text: "Done." }],
      provider: "fake",
      model: "m",
      stopReason: "stop",
    },
  },
  { type: "turn_end", message: { role: "assistant", stopReason: "stop" } },
  { type: "agent_end" },
  { type: "agent_settled" },
];

const EVOSCI_INTERRUPT = [
  { type: "text", content: "I need to run the script." },
  {
    type: "interrupt",
    interrupt_id: "int_1",
    action_requests: [{ name: "execute", args: { command: "python train.py" }, description: "approve?" }],
    review_configs: [{ action_name: "execute", allowed_decisions: ["approve", "reject"] }],
  },
  { type: "done", content: "I need to run the script." },
];

const EVOSCI_ERROR = [
  { type: "text", content: "Working." },
  { type: "error", message: "Error code: 529 - overloaded" },
];

// Stops in the middle of a tool call: agentstream closes the call itself.
const EVOSCI_CUT_OFF = [
  { type: "tool_call", name: "execute", args: { command: "sleep 100" }, id: "call_sleep" },
  { type: "subagent_start", name: "researcher", instance_id: "sub_1" },
];

function jsonl(native: object[]): string {
  return native.map((e) => `${JSON.stringify(e)}\n`).join("");
}

/** The canonical events of a native run, as plain objects safe to mutate. */
function canonical(native: object[], options: TranslateOptions = {}): Event[] {
  return JSON.parse(JSON.stringify(translate(jsonl(native), options).events)) as Event[];
}

/** 1-based line of the first event matching. */
function lineOf(events: Event[], match: (e: Event) => boolean): number {
  const index = events.findIndex(match);
  if (index === -1) throw new Error("no such event in the test stream");
  return index + 1;
}

const ofType = (type: string) => (e: Event) => e.type === type;

function eventAt(events: Event[], line: number): Event {
  return events[line - 1]!;
}

function finished(events: Event[]): Event {
  return events[events.length - 1]!;
}

/** Remove the line, then number seq again, so only the rule under test can fire. */
function dropLine(events: Event[], line: number): Event[] {
  return renumber(events.filter((_, i) => i !== line - 1));
}

/** Insert an event at `line`, taking ts and elapsed_ms from the line before, then number seq again. */
function insertLine(events: Event[], line: number, event: Event): Event[] {
  const before = eventAt(events, line - 1);
  const copy = { ...event, ts: before.ts, elapsed_ms: before.elapsed_ms };
  return renumber([...events.slice(0, line - 1), copy, ...events.slice(line - 1)]);
}

function renumber(events: Event[]): Event[] {
  return events.map((e, i) => ({ ...e, seq: i + 1 }));
}

function problem(line: number, message: string | RegExp): VerifyProblem {
  return { line, message: typeof message === "string" ? message : (expect.stringMatching(message) as string) };
}

describe("StreamVerifier on valid streams", () => {
  it.each([
    ["an EvoSci run with tools, a sub-agent and an unknown event", EVOSCI_NATIVE, {}],
    ["an Atomic run with a session, turns, a failing tool and a retry", ATOMIC_NATIVE, { from: "atomic" as const }],
    ["a run paused for approval (needs_input, pending)", EVOSCI_INTERRUPT, {}],
    ["a run that failed with a provider error", EVOSCI_ERROR, {}],
    [
      "a run cut off mid tool call (synthetic closing events)",
      EVOSCI_CUT_OFF,
      { end: { backendExit: { code: null, signal: "SIGKILL" } } },
    ],
    [
      "a run cancelled by SIGTERM (exit 143)",
      EVOSCI_CUT_OFF,
      { interruption: { kind: "signal" as const, signal: "SIGTERM" as const } },
    ],
    [
      "a run cancelled by SIGINT (exit 130)",
      EVOSCI_CUT_OFF,
      { interruption: { kind: "signal" as const, signal: "SIGINT" as const } },
    ],
    ["a timed-out run", EVOSCI_CUT_OFF, { interruption: { kind: "timeout" as const } }],
    ["a run with raw native objects attached", EVOSCI_NATIVE, { includeRaw: true }],
  ])("%s has no problems", (_name, native, options) => {
    const events = canonical(native, options);
    expect(verifyEvents(events)).toEqual([]);
  });

  it("accepts a run whose native stream had a line that is not JSON (backend.unparsed)", () => {
    const { events } = translate(`not json at all\n${jsonl(EVOSCI_NATIVE)}`);
    expect(events.some((e) => e.type === "backend.unparsed")).toBe(true);
    expect(verifyEvents(events as unknown as Event[])).toEqual([]);
  });
});

describe("StreamVerifier: each line", () => {
  const events = canonical(EVOSCI_NATIVE);
  const lines = events.map((e) => JSON.stringify(e));

  it("reports a line that is not JSON", () => {
    const broken = [...lines.slice(0, 2), "{oops", ...lines.slice(2)];
    expect(verifyLines(broken)).toEqual([problem(3, /^the line is not JSON: /)]);
  });

  it("reports JSON that is not an object", () => {
    const broken = [...lines.slice(0, 2), "[1,2]", ...lines.slice(2)];
    expect(verifyLines(broken)).toEqual([problem(3, "the line is an array, but must be a JSON object")]);
  });

  it("reports a missing required field with the schema's words", () => {
    const line = lineOf(events, ofType("tool.completed"));
    const broken = structuredClone(events);
    delete eventAt(broken, line).name;
    expect(verifyEvents(broken)).toEqual([problem(line, 'schema: "name" is required but missing')]);
  });

  it("reports a field with a value the schema does not allow", () => {
    const line = lineOf(events, ofType("tool.completed"));
    const broken = structuredClone(events);
    eventAt(broken, line).status = "done";
    expect(verifyEvents(broken)).toEqual([
      problem(line, 'schema: status is "done", but must be one of "succeeded", "failed", "cancelled"'),
    ]);
  });

  it("reports a wrong schema version", () => {
    const broken = structuredClone(events);
    eventAt(broken, 2).v = 2;
    expect(verifyEvents(broken)).toEqual([problem(2, "schema: v is 2, but must be 1")]);
  });

  it("still pairs a tool.completed that fails the schema with its start", () => {
    const line = lineOf(events, ofType("tool.completed"));
    const broken = structuredClone(events);
    eventAt(broken, line).output = 42;
    expect(verifyEvents(broken)).toEqual([problem(line, "schema: output is the number 42, but must be a string")]);
  });
});

describe("StreamVerifier: first and last line", () => {
  const events = canonical(EVOSCI_NATIVE);
  const last = events.length;

  it("reports an empty stream", () => {
    expect(verifyLines([])).toEqual([
      problem(0, "the stream is empty, but must have run.started first and run.finished last"),
    ]);
  });

  it("reports a first line that is not run.started", () => {
    expect(verifyEvents(dropLine(events, 1))).toEqual([
      problem(1, `the first line is ${events[1]!.type}, but must be run.started`),
    ]);
  });

  it("reports a second run.started", () => {
    expect(verifyEvents(insertLine(events, 3, events[0]!))).toEqual([
      problem(3, "second run.started (first at line 1)"),
    ]);
  });

  it("reports run.started that is not the first line", () => {
    const swapped = renumber([events[1]!, events[0]!, ...events.slice(2)]);
    swapped[0]!.ts = swapped[1]!.ts;
    swapped[0]!.elapsed_ms = swapped[1]!.elapsed_ms;
    expect(verifyEvents(swapped)).toEqual([
      problem(1, `the first line is ${events[1]!.type}, but must be run.started`),
      problem(2, "run.started must be the first line"),
    ]);
  });

  it("reports a stream that ends without run.finished, at its last line", () => {
    expect(verifyEvents(events.slice(0, -1))).toEqual([problem(last - 1, "the stream ends without run.finished")]);
  });

  it("reports text after run.finished", () => {
    const lines = [...events.map((e) => JSON.stringify(e)), "Goodbye."];
    expect(verifyLines(lines)).toEqual([
      problem(last + 1, `line after run.finished (line ${last}): run.finished must be the last line`),
      problem(last + 1, /^the line is not JSON: /),
    ]);
  });

  it("reports an event after run.finished once, however many follow", () => {
    const delta = events.find(ofType("message.delta"))!;
    const broken = insertLine(insertLine(events, last + 1, delta), last + 2, delta);
    expect(verifyEvents(broken)).toEqual([
      problem(last + 1, `line after run.finished (line ${last}): run.finished must be the last line`),
    ]);
  });

  it("reports a second run.finished", () => {
    const broken = insertLine(events, last + 1, finished(events));
    expect(verifyEvents(broken)).toEqual([
      problem(last + 1, `line after run.finished (line ${last}): run.finished must be the last line`),
      problem(last + 1, `second run.finished (first at line ${last})`),
    ]);
  });
});

describe("StreamVerifier: envelope across lines", () => {
  const events = canonical(EVOSCI_NATIVE);
  const deltaLine = lineOf(events, ofType("message.delta"));

  it("reports a dropped line as a gap in seq", () => {
    const broken = events.filter((_, i) => i !== deltaLine - 1);
    expect(verifyEvents(broken)).toEqual([
      problem(deltaLine, `seq is ${deltaLine + 1} after seq ${deltaLine - 1}, but must be ${deltaLine}`),
    ]);
  });

  it("reports two lines with their seq swapped at each step that is not +1", () => {
    const broken = structuredClone(events);
    eventAt(broken, 3).seq = 4;
    eventAt(broken, 4).seq = 3;
    expect(verifyEvents(broken)).toEqual([
      problem(3, "seq is 4 after seq 2, but must be 3"),
      problem(4, "seq is 3 after seq 4, but must be 5"),
      problem(5, "seq is 5 after seq 3, but must be 4"),
    ]);
  });

  it("reports a stream whose seq does not start at 1", () => {
    const broken = events.map((e) => ({ ...e, seq: (e.seq as number) + 1 }));
    expect(verifyEvents(broken)).toEqual([problem(1, "seq is 2, but the first line must have seq 1")]);
  });

  it("reports a ts earlier than the line before", () => {
    const broken = structuredClone(events);
    eventAt(broken, 5).ts = "2025-12-31T23:59:59.000Z";
    expect(verifyEvents(broken)).toEqual([
      problem(
        5,
        `ts goes back: 2025-12-31T23:59:59.000Z comes after ${String(eventAt(events, 4).ts)} on line 4, but must never decrease`,
      ),
    ]);
  });

  it("reports an elapsed_ms smaller than the line before", () => {
    const broken = structuredClone(events);
    const previous = eventAt(events, 5).elapsed_ms as number;
    eventAt(broken, 6).elapsed_ms = previous - 1;
    eventAt(broken, 6).ts = eventAt(events, 5).ts;
    expect(verifyEvents(broken)).toEqual([
      problem(6, `elapsed_ms goes back: ${previous - 1} comes after ${previous} on line 5, but must never decrease`),
    ]);
  });

  it("reports a line with another run_id", () => {
    const broken = structuredClone(events);
    eventAt(broken, 4).run_id = "run-other";
    expect(verifyEvents(broken)).toEqual([
      problem(4, `run_id is "run-other", but was "${TEST_RUN_ID}" on line 1 and must not change`),
    ]);
  });

  it("reports a line with another backend", () => {
    const broken = structuredClone(events);
    eventAt(broken, 4).backend = "pi";
    expect(verifyEvents(broken)).toEqual([
      problem(4, 'backend is "pi", but was "evosci" on line 1 and must not change'),
    ]);
  });

  describe("session_id", () => {
    const atomic = canonical(ATOMIC_NATIVE, { from: "atomic" });
    const sessionLine = lineOf(atomic, ofType("session.started"));

    it("reports a session_id that changes", () => {
      const broken = structuredClone(atomic);
      eventAt(broken, sessionLine + 2).session_id = "sess-2";
      expect(verifyEvents(broken)).toEqual([
        problem(sessionLine + 2, `session_id is "sess-2", but was "sess-1" on line ${sessionLine} and must not change`),
      ]);
    });

    it("reports a session_id that disappears", () => {
      const broken = structuredClone(atomic);
      delete finished(broken).session_id;
      expect(verifyEvents(broken)).toEqual([
        problem(broken.length, `session_id is missing, but once present (since line ${sessionLine}) it must stay`),
      ]);
    });
  });
});

describe("StreamVerifier: tool calls and sub-agents pair up", () => {
  const events = canonical(EVOSCI_NATIVE);
  const toolStarted = lineOf(events, (e) => e.type === "tool.started" && e.tool_call_id === "call_ls");
  const toolCompleted = lineOf(events, (e) => e.type === "tool.completed" && e.tool_call_id === "call_ls");
  const subStarted = lineOf(events, ofType("subagent.started"));
  const subCompleted = lineOf(events, ofType("subagent.completed"));

  it("reports a tool call still open at run.finished", () => {
    const broken = dropLine(events, toolCompleted);
    expect(verifyEvents(broken)).toEqual([
      problem(
        broken.length,
        `tool call "call_ls" (started at line ${toolStarted}) has no tool.completed before run.finished`,
      ),
    ]);
  });

  it("reports a tool.completed without its tool.started", () => {
    const broken = dropLine(events, toolStarted);
    expect(verifyEvents(broken)).toEqual([
      problem(toolCompleted - 1, 'tool.completed for tool call "call_ls", which never started'),
      problem(broken.length, "counts.tool_calls is 2, but the stream has 1 tool.started line"),
    ]);
  });

  it("reports a second tool.completed for the same call", () => {
    const broken = insertLine(events, toolCompleted + 1, eventAt(events, toolCompleted));
    expect(verifyEvents(broken)).toEqual([
      problem(toolCompleted + 1, `second tool.completed for tool call "call_ls" (first at line ${toolCompleted})`),
    ]);
  });

  it("reports a second tool.started while the call is open", () => {
    const broken = insertLine(events, toolStarted + 1, eventAt(events, toolStarted));
    expect(verifyEvents(broken)).toEqual([
      problem(
        toolStarted + 1,
        `tool.started for tool call "call_ls", which is already open (started at line ${toolStarted})`,
      ),
      problem(broken.length, "counts.tool_calls is 2, but the stream has 3 tool.started lines"),
    ]);
  });

  it("accepts a tool call id used again after its call completed", () => {
    const again = insertLine(
      insertLine(events, toolCompleted + 1, eventAt(events, toolStarted)),
      toolCompleted + 2,
      eventAt(events, toolCompleted),
    );
    finished(again).counts = { ...(finished(again).counts as object), tool_calls: 3 };
    expect(verifyEvents(again)).toEqual([]);
  });

  it("reports a sub-agent still open at run.finished", () => {
    const broken = dropLine(events, subCompleted);
    expect(verifyEvents(broken)).toEqual([
      problem(
        broken.length,
        `sub-agent "sub_1" (started at line ${subStarted}) has no subagent.completed before run.finished`,
      ),
    ]);
  });

  it("reports a subagent.completed without its subagent.started", () => {
    const broken = dropLine(events, subStarted);
    expect(verifyEvents(broken)).toEqual([
      problem(subCompleted - 1, 'subagent.completed for sub-agent "sub_1", which never started'),
    ]);
  });

  it("reports a second subagent.started while the sub-agent is open", () => {
    const broken = insertLine(events, subStarted + 1, eventAt(events, subStarted));
    expect(verifyEvents(broken)).toEqual([
      problem(
        subStarted + 1,
        `subagent.started for sub-agent "sub_1", which is already open (started at line ${subStarted})`,
      ),
    ]);
  });

  it("reports a second subagent.completed", () => {
    const broken = insertLine(events, subCompleted + 1, eventAt(events, subCompleted));
    expect(verifyEvents(broken)).toEqual([
      problem(subCompleted + 1, `second subagent.completed for sub-agent "sub_1" (first at line ${subCompleted})`),
    ]);
  });
});

describe("StreamVerifier: run.finished", () => {
  const evosci = canonical(EVOSCI_NATIVE);
  const atomic = canonical(ATOMIC_NATIVE, { from: "atomic" });

  it.each([
    ["turns", atomic, "turn.started lines"],
    ["messages", evosci, "message.completed lines"],
    ["tool_calls", evosci, "tool.started lines"],
    ["tool_failures", atomic, "tool.completed with status failed line"],
    ["errors", canonical(EVOSCI_ERROR), "error line"],
    ["retries", atomic, "retry.started line"],
    ["unknown_events", evosci, "backend.event line"],
    ["unparsed_lines", evosci, "backend.unparsed lines"],
  ])("reports counts.%s that differs from the stream", (key, events, what) => {
    const broken = structuredClone(events);
    const counts = finished(broken).counts as Record<string, number>;
    const actual = counts[key]!;
    counts[key] = actual + 1;
    expect(verifyEvents(broken)).toEqual([
      problem(broken.length, `counts.${key} is ${actual + 1}, but the stream has ${actual} ${what}`),
    ]);
  });

  it("reports an exit_code that does not follow from a successful run", () => {
    const broken = structuredClone(evosci);
    finished(broken).exit_code = 1;
    expect(verifyEvents(broken)).toEqual([
      problem(broken.length, "exit_code is 1, but must be 0 for status succeeded"),
    ]);
  });

  it("reports an exit_code that does not follow from the error", () => {
    const broken = canonical(EVOSCI_CUT_OFF, { end: { backendExit: { code: null, signal: "SIGKILL" } } });
    expect(finished(broken).error).toMatchObject({ code: "backend_crashed" });
    finished(broken).exit_code = 1;
    expect(verifyEvents(broken)).toEqual([
      problem(broken.length, "exit_code is 1, but must be 76 for status failed with error code backend_crashed"),
    ]);
  });

  it("reports a cancelled run whose exit_code is neither 130 nor 143", () => {
    const broken = canonical(EVOSCI_CUT_OFF, { interruption: { kind: "signal", signal: "SIGINT" } });
    finished(broken).exit_code = 1;
    expect(verifyEvents(broken)).toEqual([
      problem(broken.length, "exit_code is 1, but must be 130 or 143 for status cancelled"),
    ]);
  });

  it("reports a failed run without error (its exit code then no longer follows either)", () => {
    const broken = canonical(EVOSCI_ERROR);
    expect(finished(broken)).toMatchObject({ status: "failed", exit_code: 75 });
    delete finished(broken).error;
    expect(verifyEvents(broken)).toEqual([
      problem(broken.length, "run.finished with status failed has no error"),
      problem(broken.length, "exit_code is 75, but must be 1 for status failed"),
    ]);
  });

  it.each([
    ["cancelled", canonical(EVOSCI_CUT_OFF, { interruption: { kind: "signal", signal: "SIGTERM" } })],
    ["timed_out", canonical(EVOSCI_CUT_OFF, { interruption: { kind: "timeout" } })],
  ])("reports a %s run without error", (status, events) => {
    const broken = structuredClone(events);
    expect(finished(broken).status).toBe(status);
    delete finished(broken).error;
    expect(verifyEvents(broken)).toEqual([problem(broken.length, `run.finished with status ${status} has no error`)]);
  });

  it("reports a needs_input run without pending", () => {
    const broken = canonical(EVOSCI_INTERRUPT);
    expect(finished(broken).status).toBe("needs_input");
    delete finished(broken).pending;
    expect(verifyEvents(broken)).toEqual([
      problem(broken.length, "run.finished with status needs_input has no pending"),
    ]);
  });
});

describe("verifyStream", () => {
  const text = toJsonl(translate(jsonl(EVOSCI_NATIVE)).events);

  async function collect(
    input: Iterable<Buffer | string>,
    maxLineBytes?: number,
  ): Promise<{ problems: VerifyProblem[]; summary: unknown }> {
    const problems: VerifyProblem[] = [];
    const summary = await verifyStream(toAsync(input), {
      validate: publishedValidator,
      onProblem: (p) => problems.push(p),
      ...(maxLineBytes ? { maxLineBytes } : {}),
    });
    return { problems, summary };
  }

  it("verifies a clean stream fed in small chunks", async () => {
    const bytes = Buffer.from(text);
    const chunks = Array.from({ length: Math.ceil(bytes.length / 7) }, (_, i) => bytes.subarray(i * 7, i * 7 + 7));
    const lineCount = text.split("\n").length - 1;
    expect(await collect(chunks)).toEqual({
      problems: [],
      summary: { lines: lineCount, problems: 0, looksNative: false },
    });
  });

  it("numbers lines as in the input: blank lines count, though they are skipped", async () => {
    const lines = text.split("\n");
    lines.splice(1, 0, "", "   ");
    lines.splice(4, 0, "{oops");
    const { problems, summary } = await collect([lines.join("\r\n")]);
    expect(problems).toEqual([problem(5, /^the line is not JSON: /)]);
    expect(summary).toEqual({ lines: lines.filter((l) => l.trim() !== "").length, problems: 1, looksNative: false });
  });

  it("reports a line too long to check and keeps going", async () => {
    const lines = text.split("\n");
    lines.splice(2, 0, JSON.stringify({ huge: "x".repeat(5000) }));
    const { problems } = await collect([lines.join("\n")], 4096);
    expect(problems).toEqual([problem(3, /^line of \d+ bytes is too long to check$/)]);
  });
});

describe("agentstream verify (built CLI)", () => {
  const clean = toJsonl(translate(jsonl(EVOSCI_NATIVE)).events);
  const lineCount = clean.split("\n").length - 1;

  it("exits 0 on a clean stream from stdin, with a summary on stderr and nothing on stdout", async () => {
    const result = await runCli(["verify"], { input: clean });
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: `ok: ${lineCount} lines\n` });
  });

  // stderr is /dev/full, opened here and handed over as fd 2: every write to it fails with ENOSPC.
  it.skipIf(!existsSync("/dev/full")).each([
    ["a clean stream", 0, true],
    ["a broken stream", 1, false],
  ])("the verdict on %s does not depend on stderr being writable: exit %d", async (_name, code, isClean) => {
    const file = join(mkdtempSync(join(tmpdir(), "agentstream-verify-")), "stream.jsonl");
    writeFileSync(file, isClean ? clean : '{"type":"nonsense"}\n');
    const full = openSync("/dev/full", "w");
    try {
      const exit = await new Promise<number | null>((resolve, reject) => {
        const child = spawn(process.execPath, [BIN, "verify", file], { stdio: ["ignore", "ignore", full] });
        child.on("error", reject);
        child.on("close", resolve);
      });
      expect(exit).toBe(code);
    } finally {
      closeSync(full);
    }
  });

  it("verifies what normalize writes", async () => {
    const normalized = await runCli(["normalize", "-"], { input: jsonl(ATOMIC_NATIVE) });
    expect(normalized.code).toBe(0);
    const result = await runCli(["verify", "-"], { input: normalized.stdout });
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(result.stderr).toMatch(/^ok: \d+ lines\n$/);
  });

  it("exits 1 on a broken file, each problem on stderr with its line", async () => {
    const events = canonical(EVOSCI_NATIVE);
    const broken = dropLine(events, lineOf(events, ofType("tool.started")));
    const file = join(mkdtempSync(join(tmpdir(), "agentstream-verify-")), "broken.jsonl");
    writeFileSync(file, toJsonl(broken as never));
    const result = await runCli(["verify", file]);
    const completedLine = lineOf(broken, ofType("tool.completed"));
    expect(result).toMatchObject({ code: 1, stdout: "" });
    expect(result.stderr).toBe(
      [
        `line ${completedLine}: tool.completed for tool call "call_ls", which never started`,
        `line ${broken.length}: counts.tool_calls is 2, but the stream has 1 tool.started line`,
        `2 problems in ${broken.length} lines`,
        "",
      ].join("\n"),
    );
  });

  it("prints the first 100 problems, then how many more", async () => {
    const result = await runCli(["verify"], { input: "nope\n".repeat(150) });
    const lines = result.stderr.trimEnd().split("\n");
    expect(result.code).toBe(1);
    expect(lines.filter((l) => l.startsWith("line ")).length).toBe(100);
    expect(lines.slice(-2)).toEqual(["... and 51 more", "151 problems in 150 lines"]);
  });

  it("reports an empty stream", async () => {
    const result = await runCli(["verify"], { input: "" });
    expect(result).toMatchObject({ code: 1, stdout: "" });
    expect(result.stderr).toBe(
      "line 0: the stream is empty, but must have run.started first and run.finished last\n1 problem in 0 lines\n",
    );
  });

  it("hints to run normalize first when fed a native stream, from a file or stdin", async () => {
    const dir = mkdtempSync(join(tmpdir(), "agentstream-verify-"));
    const file = join(dir, "run.native.jsonl");
    writeFileSync(file, jsonl(EVOSCI_NATIVE));
    const fromFile = await runCli(["verify", file]);
    expect(fromFile.code).toBe(1);
    expect(fromFile.stderr).toMatch(/^line 1: schema: "v" is required but missing\n/);
    expect(fromFile.stderr.trimEnd().split("\n").at(-1)).toBe(
      `hint: this looks like a backend's native stream, not a canonical one: run normalize first: agentstream normalize ${file} | agentstream verify`,
    );
    const fromStdin = await runCli(["verify"], { input: jsonl(ATOMIC_NATIVE) });
    expect(fromStdin.code).toBe(1);
    expect(fromStdin.stderr).toMatch(/hint: .*run normalize first: agentstream normalize \| agentstream verify\n$/);
    // A canonical stream with problems gets no such hint.
    const broken = await runCli(["verify"], { input: "nope\n" });
    expect(broken.stderr).not.toMatch(/hint:/);
  });

  it("names the allowed values when an enum fails, and the value given", async () => {
    const events = canonical(EVOSCI_NATIVE);
    eventAt(events, events.length).status = "done";
    const result = await runCli(["verify"], { input: toJsonl(events as never) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `line ${events.length}: schema: status is "done", but must be one of "succeeded", "failed", "needs_input", "cancelled", "timed_out"\n`,
    );
  });

  it("exits 2 when the file cannot be read", async () => {
    const result = await runCli(["verify", join(tmpdir(), "agentstream-no-such-file.jsonl")]);
    expect(result).toMatchObject({ code: 2, stdout: "" });
    expect(result.stderr).toMatch(/no such file/);
  });
});

async function* toAsync(chunks: Iterable<Buffer | string>): AsyncGenerator<Buffer | string> {
  yield* chunks;
}
