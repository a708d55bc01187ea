// run --backend acp against a hostile agent written by hand (test/fixtures/acp/hostile-agent.mjs; issue 45):
// one reader (what the client answers and what the stream shows come from one reading of each line),
// outcomes the agent cannot overturn, and stops before the prompt that prompt nothing. The built CLI and
// the library's run() drive the agent as a real process.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
import fc from "fast-check";
// The SDK's own tests of a message (not exported by the package: read from its file).
import {
  isNotificationMessage,
  isRequestMessage,
  isResponseMessage,
} from "../../../../node_modules/@agentclientprotocol/sdk/dist/core/jsonrpc.js";
import { acpMessage } from "../../../../src/backends/acp/message.js";
import { run as runLibrary, type CanonicalEvent, type RunOptions } from "../../../../src/index.js";
import { BIN, parseJsonl, runCli } from "../../../helpers/cli.js";
import { hostileAcpArgs } from "../../../helpers/fake-acp.js";

const HOSTILE = fileURLToPath(new URL("../../../fixtures/acp/hostile-agent.mjs", import.meta.url));
const FAKE_AGENT = fileURLToPath(new URL("../../../fixtures/acp/fake-agent.mjs", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "agentstream-acp-reader-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const SECRET = "sk-hostile-acp-secret-0123456789";

let logs = 0;
const newLog = () => join(tmp, `log-${++logs}.jsonl`);
/** What the client sent the agent, as the agent logged it. */
const sent = (log: string): Record<string, unknown>[] => (existsSync(log) ? parseJsonl(readFileSync(log, "utf8")) : []);

const hostileArgs = hostileAcpArgs;

async function hostile(scenario: string, flags: string[] = [], agent: string[] = []) {
  const log = newLog();
  const run = await runCli([...hostileArgs([scenario, ...agent], flags), "--", "go"], {
    env: { HOSTILE_ACP_LOG: log, HOSTILE_SECRET: SECRET, OPENAI_API_KEY: SECRET },
  });
  const events = parseJsonl(run.stdout);
  return { run, events, finished: events.at(-1)!, sent: sent(log) };
}

const ofType = (events: Record<string, unknown>[], type: string) => events.filter((e) => e.type === type);

describe("the one reading of a JSON-RPC line", () => {
  it("accepts as a request, a notification or a response exactly what the SDK takes for one", () => {
    const value = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.integer(),
      fc.double(),
      fc.string({ maxLength: 3 }),
      fc.constant({}),
      fc.record({
        code: fc.oneof(fc.integer(), fc.double(), fc.string()),
        message: fc.oneof(fc.string(), fc.integer()),
      }),
    );
    const line = fc
      .record(
        {
          jsonrpc: fc.constantFrom("2.0", "1.0", 2),
          id: value,
          method: fc.oneof(fc.constantFrom("session/request_permission", "session/update"), value),
          result: value,
          error: value,
          type: fc.constantFrom("x", "session/update"),
        },
        { requiredKeys: [] },
      )
      // JSON has no undefined: a key is there with a value, or not there.
      .map((record) => Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)));
    fc.assert(
      fc.property(line, (record) => {
        const kind = acpMessage(record)?.kind;
        expect(kind === "request").toBe(isRequestMessage(record));
        expect(kind === "notification").toBe(isNotificationMessage(record));
        expect(kind === "response").toBe(isResponseMessage(record));
      }),
      { numRuns: 3000 },
    );
  });
});

describe("one reader: what the client answers is what the stream shows", () => {
  it("responses to ids the client never sent (or answered already), and response-shaped lines that are no response, never end the turn", async () => {
    const { run, events, finished } = await hostile("stray");
    // The real response (cancelled, no request pending) ends the run; the strays are kept as data.
    expect(finished).toMatchObject({ status: "cancelled", exit_code: 130 });
    expect(run.code).toBe(130);
    const kept = ofType(events, "backend.event").filter((e) => (e.native_type as string).startsWith("jsonrpc."));
    expect(kept).toHaveLength(6);
    expect(ofType(events, "turn.completed")).toMatchObject([{ stop_reason: "cancelled" }]);
    // Nothing of the SDK's own reached stderr: no "Got response to unknown request", no escape, no key.
    expect(run.stderr).not.toMatch(/unknown request|Invalid message/);
    expect(run.stderr).not.toContain("\u001b]");
    expect(run.stderr).not.toContain(SECRET);
    expect(run.stdout).not.toContain(SECRET);
  });

  it("in the library too: the stray responses end nothing, and the SDK writes nothing to the console", async () => {
    const said: unknown[][] = [];
    const spies = (["error", "warn", "log"] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void said.push(args)),
    );
    try {
      const running = runLibrary({
        backend: "acp",
        bin: process.execPath,
        backendArgs: [HOSTILE, "stray"],
        prompt: "go",
        env: { ...process.env, HOSTILE_ACP_LOG: newLog(), HOSTILE_SECRET: SECRET },
      });
      let next = await running.next();
      while (!next.done) next = await running.next();
      expect(next.value).toMatchObject({ status: "cancelled" });
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(said).toEqual([]);
  });

  it.each([
    ["no rule: answered cancelled, the run needs input", [], "needs_input", 3, false],
    ["--approvals auto: allowed, the call runs", ["--approvals", "auto"], "succeeded", 0, true],
  ])(
    "a permission request with a member of its own (type) is read and answered alike (%s)",
    async (_, flags, status, code, answered) => {
      const { run, events, finished, sent } = await hostile("extra-member", flags);
      expect(run.code).toBe(code);
      expect(finished).toMatchObject({ status });
      const requested = ofType(events, "input.requested");
      const answers = ofType(events, "input.answered");
      expect(requested).toMatchObject([{ request_id: "7", tool_call_id: "t1" }]);
      expect(answers).toMatchObject([{ request_id: "7", decision: answered ? "allow" : "reject" }]);
      // Requested before answered, and the agent got the very answer the stream shows.
      expect(events.indexOf(requested[0]!)).toBeLessThan(events.indexOf(answers[0]!));
      const reply = sent.find((m) => m.id === 7 && m.method === undefined) as { result: { outcome: unknown } };
      expect(reply.result.outcome).toEqual(
        answered ? { outcome: "selected", optionId: "yes" } : { outcome: "cancelled" },
      );
      if (!answered) expect(finished.pending).toMatchObject([{ request_id: "7", tool_call_id: "t1" }]);
    },
  );

  it("a permission request over the line limit: unparsed in the stream, answered with a JSON-RPC error under its id, never allowed", async () => {
    const { run, events, finished, sent } = await hostile("overlong", ["--max-line-bytes", "4096"]);
    expect(run.code).toBe(0);
    expect(ofType(events, "backend.unparsed")).toMatchObject([{ reason: "line_too_long" }]);
    expect(ofType(events, "input.requested")).toEqual([]);
    expect(ofType(events, "input.answered")).toEqual([]);
    // Never left waiting: one answer, an error, under its id.
    const answers = sent.filter((m) => m.id === 7 && m.method === undefined);
    expect(answers).toMatchObject([{ error: { code: -32600 } }]);
    expect(run.stderr).toContain('"session/request_permission" request "7" is longer than --max-line-bytes');
    expect(finished).toMatchObject({ status: "succeeded", result: { text: "An answer came." } });
  });

  it("two requests under one id are two requests: each decided by its own content and answered once, in turn; the refused first stays pending", async () => {
    const { run, events, finished, sent } = await hostile("same-id", ["--allow-tool", "read"]);
    expect(run.code).toBe(3);
    expect(finished).toMatchObject({ status: "needs_input" });
    expect(finished.pending).toMatchObject([{ request_id: "9", tool_call_id: "bad" }]);
    expect(ofType(events, "input.requested")).toMatchObject([{ tool_call_id: "bad" }, { tool_call_id: "ok" }]);
    expect(ofType(events, "input.answered")).toMatchObject([
      { request_id: "9", tool_call_id: "bad", by: "default" },
      { request_id: "9", tool_call_id: "ok", decision: "allow", by: "rule" },
    ]);
    // The first answered first (cancelled: no one decided), then the second (the read the rule allows).
    expect(sent.filter((m) => m.id === 9 && m.method === undefined)).toMatchObject([
      { result: { outcome: { outcome: "cancelled" } } },
      { result: { outcome: { outcome: "selected" } } },
    ]);
  });

  it("an id used again once answered is a new request: its answer settles it, the refused first stays pending", async () => {
    const { run, events, finished } = await hostile("same-id-later", ["--allow-tool", "read"]);
    expect(run.code).toBe(3);
    expect(ofType(events, "input.requested")).toMatchObject([{ tool_call_id: "bad" }, { tool_call_id: "ok" }]);
    expect(finished.pending).toMatchObject([{ request_id: "9", tool_call_id: "bad" }]);
  });
});

describe("an outcome agentstream decided is never overturned by the agent", () => {
  it("a call no rule allows, run anyway and ended end_turn: needs_input (3), the call pending and marked unapproved", async () => {
    const { run, events, finished } = await hostile("run-anyway");
    expect(run.code).toBe(3);
    expect(finished).toMatchObject({ status: "needs_input", exit_code: 3 });
    expect(finished.pending).toMatchObject([{ tool_call_id: "t1" }]);
    expect(ofType(events, "tool.completed")).toMatchObject([
      { tool_call_id: "t1", status: "succeeded", unapproved: true },
    ]);
    expect(run.stderr).not.toMatch(/succeeded/);
    expect(run.stderr).toMatch(/execute .*ran unapproved/);
  });

  it("a request no rule allows that comes with the prompt's response (one read): answered after the turn's end, still needs_input", async () => {
    const { run, finished } = await hostile("ask-and-end");
    expect(run.code).toBe(3);
    expect(finished).toMatchObject({ status: "needs_input", pending: [{ request_id: "7", tool_call_id: "t1" }] });
    expect(run.stderr).not.toMatch(/succeeded/);
  });

  it("a call a rule denies, run anyway: marked unapproved; the one a rule allowed is not", async () => {
    const { events } = await hostile("run-anyway", ["--deny-tool", "shell", "--allow-tool", "read"], ["--twice"]);
    const completed = ofType(events, "tool.completed");
    expect(completed).toMatchObject([{ tool_call_id: "t1", unapproved: true }, { tool_call_id: "r1" }]);
    expect(completed[1]).not.toHaveProperty("unapproved");
  });

  it.each([
    ["a deny rule, only allow_once offered", "only-allow", ["--deny-tool", "shell"]],
    ["an allow rule, only reject_once offered", "only-reject", ["--allow-tool", "shell"]],
    ["--approvals auto, only reject_once offered", "only-reject", ["--approvals", "auto"]],
  ])(
    "no option can carry the decision (%s): answered cancelled, the turn cancelled, the call pending",
    async (_, scenario, flags) => {
      const { run, events, finished, sent } = await hostile(scenario, flags);
      expect(run.code).toBe(3);
      expect(finished).toMatchObject({ status: "needs_input" });
      expect(finished.pending).toMatchObject([{ request_id: "7", tool_call_id: "t1" }]);
      expect(ofType(events, "input.answered")).toMatchObject([{ request_id: "7" }]);
      expect(ofType(events, "input.answered")[0]).not.toHaveProperty("option_id");
      expect(sent.some((m) => m.method === "session/cancel")).toBe(true);
    },
  );
});

describe("a stop the agent answers end_turn is still a stop", () => {
  it.each([
    ["SIGINT", "cancelled", 130],
    ["SIGTERM", "cancelled", 143],
  ] as const)("%s during the turn: the run ends %s (%i), not succeeded", async (signal, status, exitCode) => {
    const log = newLog();
    const child = spawn(process.execPath, [BIN, ...hostileArgs(["ignore-cancel"], ["--grace", "10"]), "--", "go"], {
      env: { ...process.env, NO_COLOR: "1", HOSTILE_ACP_LOG: log },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.resume();
    // The agent is in its turn once it was prompted: it waits there for the cancel.
    const timer = setInterval(() => {
      if (sent(log).some((m) => m.method === "session/prompt")) {
        clearInterval(timer);
        child.kill(signal);
      }
    }, 20);
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    clearInterval(timer);
    expect(code).toBe(exitCode);
    expect(parseJsonl(stdout).at(-1)).toMatchObject({ type: "run.finished", status, exit_code: exitCode });
    expect(sent(log).map((m) => m.method)).toContain("session/cancel");
  });

  it("--timeout during the turn: timed_out (124), whatever the agent answers the cancel with", async () => {
    const { run, finished, sent: told } = await hostile("ignore-cancel", ["--timeout", "1", "--grace", "10"]);
    expect(run.code).toBe(124);
    expect(finished).toMatchObject({ type: "run.finished", status: "timed_out", exit_code: 124 });
    expect(told.map((m) => m.method)).toContain("session/cancel");
  });
});

describe("a stop before the prompt prompts nothing", () => {
  it.each([
    ["SIGINT", "slow-init", 130],
    ["SIGTERM", "slow-init", 143],
    ["SIGINT", "slow-new", 130],
  ] as const)(
    "%s while the agent is slow to answer (%s): no session/prompt, the run ends cancelled",
    async (signal, scenario, exitCode) => {
      const log = newLog();
      const child = spawn(process.execPath, [BIN, ...hostileArgs([scenario], ["--grace", "10"]), "--", "go"], {
        env: { ...process.env, NO_COLOR: "1", HOSTILE_ACP_LOG: log, HOSTILE_DELAY_MS: "1500" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
      child.stderr.resume();
      const waitedFor = scenario === "slow-init" ? "initialize" : "session/new";
      const timer = setInterval(() => {
        if (sent(log).some((m) => m.method === waitedFor)) {
          clearInterval(timer);
          child.kill(signal);
        }
      }, 20);
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      clearInterval(timer);
      expect(code).toBe(exitCode);
      expect(parseJsonl(stdout).at(-1)).toMatchObject({
        type: "run.finished",
        status: "cancelled",
        exit_code: exitCode,
      });
      // Let a late answer (1.5 s) come: the client has nothing more to say.
      await new Promise((resolve) => setTimeout(resolve, 1600));
      expect(sent(log).map((m) => m.method)).not.toContain("session/prompt");
    },
  );

  it("the library's run() given an aborted signal prompts nothing and ends cancelled", async () => {
    const log = newLog();
    const running = runLibrary({
      backend: "acp",
      bin: process.execPath,
      backendArgs: [HOSTILE, "plain"],
      prompt: "go",
      env: { ...process.env, HOSTILE_ACP_LOG: log },
      signal: AbortSignal.abort(),
    });
    let next = await running.next();
    while (!next.done) next = await running.next();
    expect(next.value).toMatchObject({ status: "cancelled" });
    expect(sent(log).map((m) => m.method)).not.toContain("session/prompt");
  });
});

describe("the library's onPermissionRequest", () => {
  async function library(options: Partial<RunOptions> & { prompt: string }, onEvent?: (e: CanonicalEvent) => void) {
    const notes: string[] = [];
    const running = runLibrary({
      backend: "acp",
      bin: process.execPath,
      backendArgs: [FAKE_AGENT],
      onNote: (text) => notes.push(text),
      ...options,
    });
    const events: CanonicalEvent[] = [];
    let next = await running.next();
    for (; !next.done; next = await running.next()) {
      events.push(next.value);
      onEvent?.(next.value);
    }
    return { events, outcome: next.value, notes };
  }

  it.each([
    ["timeoutMs", "timed_out", 124],
    ["an aborted signal", "cancelled", 130],
  ] as const)(
    "one that never settles, stopped by %s: the waiting request is answered cancelled at once, so the agent ends its turn itself",
    async (by, status, exitCode) => {
      const abort = new AbortController();
      const { outcome, events } = await library(
        {
          prompt: "ask",
          graceMs: 30_000,
          ...(by === "timeoutMs" ? { timeoutMs: 1500 } : { signal: abort.signal }),
          onPermissionRequest: () => new Promise(() => {}),
        },
        (e) => {
          if (e.type === "input.requested") abort.abort();
        },
      );
      expect(outcome).toMatchObject({ status, exitCode });
      // No stop signal was needed (it would have come only after 30 s).
      expect(outcome.backendExit).toEqual({ code: 0, signal: null });
      expect(events.find((e) => e.type === "tool.completed")).toMatchObject({ output: "not run (cancelled)" });
    },
  );

  it.each([
    [
      "throws an error quoting the request",
      (r: unknown) => {
        throw new Error(`\u001b[2J refused ${JSON.stringify(r)} ${"x".repeat(5000)}`);
      },
    ],
    ["returns the request itself", (r: unknown) => r],
  ])(
    "one that %s: the warning names no secret, sends no escape, stays short, and goes through onNote",
    async (_, callback) => {
      const warnings: string[] = [];
      const onWarning = (w: Error) => warnings.push(w.message);
      process.on("warning", onWarning);
      try {
        const { notes } = await library({
          prompt: "ask",
          env: { ...process.env, FAKE_ACP_SECRET_KEY: SECRET },
          onPermissionRequest: (request) => {
            // The request holds the key, as a call's input may.
            (request.input as Record<string, unknown>).key = SECRET;
            return callback(request) as "allow";
          },
        });
        const said = notes.filter((n) => n.includes("onPermissionRequest"));
        expect(said).toHaveLength(1);
        expect(said[0]).not.toContain(SECRET);
        expect(said[0]).not.toContain("\u001b");
        expect(said[0]!.length).toBeLessThanOrEqual(500);
        expect(warnings.filter((w) => w.includes("onPermissionRequest"))).toEqual([]);
      } finally {
        process.off("warning", onWarning);
      }
    },
  );

  it('pi-acp\'s "never asks" warning goes through onNote, not a process warning', async () => {
    const { notes } = await library({ prompt: "ask", env: { ...process.env, FAKE_ACP_NAME: "pi-acp" } });
    expect(notes.some((n) => n.includes("pi-acp never asks before a tool call"))).toBe(true);
  });
});
