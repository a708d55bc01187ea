// run --backend acp end to end: the built CLI drives the fake ACP agent (test/fixtures/acp/fake-agent.mjs)
// as a real process over its stdin and stdout, answering its permission requests by the run's rules.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  run as runAgentLibrary,
  steppingClock,
  type CanonicalEvent,
  type RunOptions,
  type ToolPermissionRequest,
} from "../../../src/index.js";
import { BIN, parseJsonl, runCli } from "../../helpers/cli.js";
import { fakeAcpArgs } from "../../helpers/fake-acp.js";

const FAKE_AGENT = fileURLToPath(new URL("../../fixtures/acp/fake-agent.mjs", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "agentstream-acp-run-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The fake agent as --bin (node) and its script as the agent's own argument. */
const agentArgs = fakeAcpArgs;

async function runAgent(prompt: string, ...flags: string[]) {
  const run = await runCli([...agentArgs(...flags), "--", prompt]);
  const events = parseJsonl(run.stdout);
  return { run, events, finished: events.at(-1)! };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("run --backend acp", () => {
  it("drives a text turn: initialize, session/new, session/prompt; the response ends the run", async () => {
    const { run, events, finished } = await runAgent("say text");
    expect(run.code).toBe(0);
    expect(events.find((e) => e.type === "session.started")).toMatchObject({
      session_id: "fake-session-1",
      agent_info: { name: "fake-agent", version: "1.0.0" },
    });
    // The agent's stray line is kept as data, the run goes on.
    expect(events.some((e) => e.type === "backend.unparsed")).toBe(true);
    expect(finished).toMatchObject({
      type: "run.finished",
      status: "succeeded",
      result: { text: "Hello from the fake agent." },
      usage: { input_tokens: 12, output_tokens: 4 },
      backend_exit: { code: 0, signal: null },
    });
  });

  it("allows a call a rule allows: the tool runs, the run succeeds", async () => {
    const { run, events, finished } = await runAgent("ask", "--allow-tool", "shell(touch *)");
    expect(run.code).toBe(0);
    const asked = events.find((e) => e.type === "input.requested");
    expect(asked).toMatchObject({ kind: "approval", tool_call_id: "t1" });
    // The answer is an event of its own, right after the request, naming the rule that decided.
    expect(events[events.indexOf(asked!) + 1]).toMatchObject({
      type: "input.answered",
      request_id: asked!.request_id,
      tool_call_id: "t1",
      decision: "allow",
      option_id: "yes",
      by: "rule",
      rule: "shell(touch *)",
    });
    // stderr says what happened: allowed by that rule, not "needs input".
    expect(run.stderr).toMatch(/✔ allowed execute: touch x \(rule shell\(touch \*\)\)/);
    expect(run.stderr).not.toContain("needs input");
    expect(events.find((e) => e.type === "tool.completed")).toMatchObject({ status: "succeeded", output: "done" });
    expect(finished).toMatchObject({ status: "succeeded", result: { text: "Made x." } });
  });

  it("rejects a call a rule denies: the agent is told, the run goes on", async () => {
    const { run, events, finished } = await runAgent("ask", "--deny-tool", "shell");
    expect(run.code).toBe(0);
    expect(events.find((e) => e.type === "input.answered")).toMatchObject({
      decision: "reject",
      option_id: "no",
      by: "rule",
      rule: "shell",
    });
    expect(run.stderr).toMatch(/✖ rejected execute: touch x \(rule shell\)/);
    expect(run.stderr).not.toContain("needs input");
    expect(events.find((e) => e.type === "tool.completed")).toMatchObject({ status: "failed", output: "not run (no)" });
    expect(finished).toMatchObject({ status: "succeeded", result: { text: "I was not allowed." } });
  });

  it("--approvals auto allows what no rule denies", async () => {
    const { run, events, finished } = await runAgent("ask", "--approvals", "auto");
    expect(run.code).toBe(0);
    expect(events.find((e) => e.type === "input.answered")).toMatchObject({ decision: "allow", by: "approvals" });
    expect(events.find((e) => e.type === "input.answered")).not.toHaveProperty("rule");
    expect(finished).toMatchObject({ status: "succeeded", result: { text: "Made x." } });
  });

  it("no rule allows the call: the turn is cancelled, the run ends needs_input with it pending (exit 3)", async () => {
    const { run, events, finished } = await runAgent("ask", "--allow-tool", "read");
    expect(run.code).toBe(3);
    // Answered cancelled (no option selected), as the protocol asks of a turn being cancelled.
    const answered = events.find((e) => e.type === "input.answered")!;
    expect(answered).toMatchObject({ decision: "reject", by: "default", tool_call_id: "t1" });
    expect(answered).not.toHaveProperty("option_id");
    expect(run.stderr).toMatch(/\? needs input: approve execute: touch x/);
    expect(finished).toMatchObject({
      status: "needs_input",
      exit_code: 3,
      pending: [{ kind: "approval", tool_call_id: "t1" }],
    });
  });

  it("pending holds only the requests no one answered: one allowed by a rule, the next by default", async () => {
    const { run, events, finished } = await runAgent("ask twice", "--allow-tool", "shell");
    expect(run.code).toBe(3);
    expect(events.filter((e) => e.type === "input.answered").map((e) => [e.tool_call_id, e.by])).toEqual([
      ["t1", "rule"],
      ["t2", "default"],
    ]);
    expect(finished).toMatchObject({ status: "needs_input", pending: [{ tool_call_id: "t2" }] });
    expect((finished.pending as unknown[]).length).toBe(1);
  });

  it("answers a request it does not serve (fs/read_text_file) with a JSON-RPC error, never a hang", async () => {
    const { events } = await runAgent("ask", "--approvals", "auto");
    expect(events.find((e) => e.type === "message.completed")).toMatchObject({ text: "fs: refused -32601. " });
  });

  it("authenticates only where the agent demands it, with an env_var method whose variables are set", async () => {
    const run = await runCli([...agentArgs(), "--", "say text"], {
      env: { FAKE_ACP_AUTH: "1", FAKE_ACP_KEY: "k-123" },
    });
    const events = parseJsonl(run.stdout);
    expect(run.code, run.stderr).toBe(0);
    // session/new was refused first (an error event), then the session started after authenticate.
    expect(events.find((e) => e.type === "error")).toMatchObject({ code: "auth" });
    expect(events.at(-1)).toMatchObject({ status: "succeeded", result: { text: "Hello from the fake agent." } });
  });

  it("an agent that wants a login agentstream cannot give fails auth (exit 77), naming its methods", async () => {
    const run = await runCli([...agentArgs(), "--", "say text"], { env: { FAKE_ACP_AUTH: "1", FAKE_ACP_KEY: "" } });
    expect(run.code).toBe(77);
    expect(parseJsonl(run.stdout).at(-1)).toMatchObject({
      status: "failed",
      error: {
        code: "auth",
        message: expect.stringContaining(
          "fake-agent offers: login (Log in with a browser: log in with the agent itself before the run), tui (Log in in a terminal: a person's login in a terminal, before the run), api-key (API key: set FAKE_ACP_KEY)",
        ),
      },
    });
  });

  describe("an agent that cannot be governed is refused the rules, never run ungoverned in silence", () => {
    const as = (name: string) => ({ env: { FAKE_ACP_NAME: name } });

    it("pi-acp (never asks) with rules: run.finished failed usage, exit 2, nothing prompted", async () => {
      const run = await runCli([...agentArgs("--deny-tool", "shell"), "--", "ask"], as("pi-acp"));
      expect(run.code).toBe(2);
      const events = parseJsonl(run.stdout);
      expect(events.at(-1)).toMatchObject({
        status: "failed",
        exit_code: 2,
        error: { code: "usage", message: expect.stringContaining("pi-acp never asks before a tool call") },
      });
      expect(events.some((e) => e.type === "tool.started" || e.type === "message.delta")).toBe(false);
    });

    it("pi-acp without rules runs as it is, saying on stderr that its calls run unasked (not with --approvals auto)", async () => {
      const run = await runCli([...agentArgs(), "--", "ask"], as("pi-acp"));
      expect(run.code).toBe(0);
      expect(parseJsonl(run.stdout).at(-1)).toMatchObject({ status: "succeeded", result: { text: "Made x." } });
      expect(run.stderr).toContain("pi-acp never asks before a tool call: every call it makes runs unasked");
      const auto = await runCli([...agentArgs("--approvals", "auto"), "--", "ask"], as("pi-acp"));
      expect(auto.code).toBe(0);
      expect(auto.stderr).not.toContain("never asks");
      // The driver's word is a note: --quiet keeps only what went wrong (issue 46 item 3).
      const quiet = await runCli([...agentArgs("--quiet"), "--", "ask"], as("pi-acp"));
      expect(quiet.code).toBe(0);
      expect(quiet.stderr).not.toContain("never asks");
    });

    it("Claude's adapter is set to mode default when rules are given, so that it asks", async () => {
      const claude = as("@agentclientprotocol/claude-agent-acp");
      const ruled = await runCli([...agentArgs("--deny-tool", "shell"), "--", "ask"], claude);
      const events = parseJsonl(ruled.stdout);
      expect(ruled.code).toBe(0);
      expect(events.find((e) => e.type === "input.answered")).toMatchObject({ decision: "reject", by: "rule" });
      expect(events.at(-1)).toMatchObject({ status: "succeeded", result: { text: "I was not allowed." } });
      // Only --approvals auto leaves its own mode (auto) standing: it does not ask.
      const free = await runCli([...agentArgs("--approvals", "auto"), "--", "ask"], claude);
      expect(parseJsonl(free.stdout).some((e) => e.type === "input.requested")).toBe(false);
      expect(parseJsonl(free.stdout).at(-1)).toMatchObject({ status: "succeeded", result: { text: "Made x." } });
    });

    it("Claude's adapter with no rule is set to mode default too: the unasked call ends the run needs_input (exit 3)", async () => {
      const run = await runCli([...agentArgs(), "--", "ask"], as("@agentclientprotocol/claude-agent-acp"));
      const events = parseJsonl(run.stdout);
      expect(run.code).toBe(3);
      expect(events.find((e) => e.type === "input.answered")).toMatchObject({ decision: "reject", by: "default" });
      expect(events.at(-1)).toMatchObject({ status: "needs_input", exit_code: 3 });
    });
  });

  describe("--resume SESSION: session/load where the agent can load sessions", () => {
    const loads = { env: { FAKE_ACP_LOAD: "1" } };

    it("a run that stopped for an approval says how to resume it", async () => {
      const run = await runCli([...agentArgs(), "--", "ask"], loads);
      expect(run.code).toBe(3);
      expect(parseJsonl(run.stdout).at(-1)).toMatchObject({
        status: "needs_input",
        resume: { session_id: "fake-session-1", hint: expect.stringContaining("--resume fake-session-1") },
      });
      // An agent that cannot load sessions gives no such hint.
      const cannot = await runAgent("ask");
      expect(cannot.finished).not.toHaveProperty("resume");
    });

    it("loads the session, keeps its replayed history as data, and goes on with the prompt", async () => {
      const run = await runCli([...agentArgs("--resume", "old-7", "--allow-tool", "shell"), "--", "ask"], loads);
      const events = parseJsonl(run.stdout);
      expect(run.code, run.stderr).toBe(0);
      expect(events[0]).toMatchObject({ type: "run.started", resumed_from: "old-7" });
      expect(events.find((e) => e.type === "session.started")).toMatchObject({ session_id: "old-7" });
      const replayed = events.filter((e) => e.type === "backend.event" && JSON.stringify(e.raw).includes("earlier"));
      expect(replayed).toHaveLength(2);
      expect(events.some((e) => e.type === "message.delta" && String(e.text).includes("earlier"))).toBe(false);
      expect(events.at(-1)).toMatchObject({ status: "succeeded", result: { text: "Made x." } });
    });

    it("is refused (failed usage, exit 2, nothing prompted) where the agent cannot load sessions", async () => {
      const { run, events, finished } = await runAgent("ask", "--resume", "old-7");
      expect(run.code).toBe(2);
      expect(finished).toMatchObject({
        error: { code: "usage", message: expect.stringContaining("cannot load a session") },
      });
      expect(events.some((e) => e.type === "tool.started" || e.type === "message.delta")).toBe(false);
    });
  });

  it("an error response fails the run as the provider's error (exit 1)", async () => {
    const { run, finished } = await runAgent("fail");
    expect(run.code).toBe(1);
    expect(finished).toMatchObject({
      status: "failed",
      error: { code: "provider", message: expect.stringContaining("the model refused the request") },
    });
  });

  it("an agent that dies mid-prompt is backend_crashed (76), whatever its exit code", async () => {
    for (const prompt of ["die", "die quietly"]) {
      const { run, finished } = await runAgent(prompt);
      expect(run.code, prompt).toBe(76);
      expect(finished, prompt).toMatchObject({ status: "failed", error: { code: "backend_crashed" } });
    }
  });

  it("refuses web_search before anything starts (ACP's search kind is a file search), exit 2", async () => {
    const { run } = await runAgent("say text", "--allow-tool", "web_search");
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
  });

  it("--timeout sends session/cancel and ends the run timed_out (124), though the agent says cancelled", async () => {
    const { run, finished } = await runAgent("slow", "--timeout", "0.5");
    expect(run.code).toBe(124);
    expect(finished).toMatchObject({ status: "timed_out", error: { code: "timeout" } });
  });

  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)(
    "%s during a slow answer sends session/cancel: run.finished cancelled, exit %i, no agent left",
    async (signal, exitCode) => {
      const pidFile = join(tmp, `slow-${signal}.pid`);
      const child = spawn(process.execPath, [BIN, ...agentArgs(), "--", "slow"], {
        env: { ...process.env, NO_COLOR: "1", FAKE_ACP_PID_FILE: pidFile },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let signalled = false;
      child.stdout.setEncoding("utf8").on("data", (d: string) => {
        stdout += d;
        if (!signalled && stdout.includes("tick 2.")) {
          signalled = true;
          child.kill(signal);
        }
      });
      child.stderr.resume();
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect(code).toBe(exitCode);
      const finished = parseJsonl(stdout).at(-1)!;
      expect(finished).toMatchObject({ type: "run.finished", status: "cancelled", exit_code: exitCode });
      // The agent ended the turn itself (stopReason cancelled) and exited once its stdin closed: no signal.
      expect(finished.backend_exit).toEqual({ code: 0, signal: null });
      expect(alive(Number(readFileSync(pidFile, "utf8")))).toBe(false);
    },
  );

  it("the library's run() drives it the same way, the rules given as options", async () => {
    const running = runAgentLibrary({
      backend: "acp",
      bin: process.execPath,
      backendArgs: [FAKE_AGENT],
      prompt: "ask",
      allowTools: ["shell(touch *)"],
    });
    const types: string[] = [];
    let next = await running.next();
    for (; !next.done; next = await running.next()) types.push(next.value.type);
    expect(types).toContain("input.requested");
    expect(next.value).toMatchObject({ status: "succeeded", resultText: "Made x.", exitCode: 0 });
  });

  describe("the driver's refusals in run.finished are the library's to read too: they name no CLI flag", () => {
    /** The library's run of the fake agent under `env` (its name, whether it loads sessions): run.finished. */
    async function finishedUnder(env: Record<string, string>, options: Partial<RunOptions>) {
      const saved = Object.keys(env).map((key) => [key, process.env[key]] as const);
      Object.assign(process.env, env);
      try {
        const running = runAgentLibrary({
          backend: "acp",
          bin: process.execPath,
          backendArgs: [FAKE_AGENT],
          prompt: "ask",
          ...options,
        });
        let finished: CanonicalEvent | undefined;
        for (let next = await running.next(); !next.done; next = await running.next())
          if (next.value.type === "run.finished") finished = next.value;
        return finished as Extract<CanonicalEvent, { type: "run.finished" }>;
      } finally {
        for (const [key, value] of saved)
          if (value === undefined) delete process.env[key];
          else process.env[key] = value;
      }
    }

    it('an agent that never asks, given rules (before: "--allow-tool, --deny-tool, --approvals, --approve-with")', async () => {
      const finished = await finishedUnder({ FAKE_ACP_NAME: "pi-acp" }, { denyTools: ["shell"] });
      expect(finished).toMatchObject({ status: "failed", error: { code: "usage" } });
      expect(finished.error!.message).toContain("pi-acp never asks before a tool call");
      expect(finished.error!.message).not.toMatch(/--[a-z]/);
    });

    it('a session to resume where the agent cannot load one (before: "--resume old-7")', async () => {
      const finished = await finishedUnder({ FAKE_ACP_LOAD: "0" }, { resume: "old-7" });
      expect(finished).toMatchObject({ status: "failed", error: { code: "usage" } });
      expect(finished.error!.message).toContain("old-7");
      expect(finished.error!.message).toContain("cannot load a session");
      expect(finished.error!.message).not.toMatch(/--[a-z]/);
    });
  });

  describe("the library's onPermissionRequest answers a request live", () => {
    async function library(options: Partial<RunOptions> & { prompt: string }) {
      const running = runAgentLibrary({ backend: "acp", bin: process.execPath, backendArgs: [FAKE_AGENT], ...options });
      const events: CanonicalEvent[] = [];
      let next = await running.next();
      for (; !next.done; next = await running.next()) events.push(next.value);
      return { events, outcome: next.value };
    }
    const answers = (events: CanonicalEvent[]) => events.filter((e) => e.type === "input.answered");

    it("is given the request (kind, target, input) and its allow runs the call though no rule allows it", async () => {
      const seen: ToolPermissionRequest[] = [];
      const { events, outcome } = await library({
        prompt: "ask",
        onPermissionRequest: async (request) => {
          seen.push(request);
          await new Promise((resolve) => setTimeout(resolve, 20));
          return "allow" as const;
        },
      });
      expect(seen).toEqual([
        {
          requestId: expect.any(String),
          toolCallId: "t1",
          kind: "execute",
          title: "touch x",
          target: "touch x",
          input: { command: "touch x" },
        },
      ]);
      expect(answers(events)).toMatchObject([
        { request_id: seen[0]!.requestId, decision: "allow", option_id: "yes", by: "callback" },
      ]);
      expect(outcome).toMatchObject({ status: "succeeded", resultText: "Made x.", exitCode: 0 });
    });

    it("its reject is an answer: the agent is told, the run goes on", async () => {
      const { events, outcome } = await library({ prompt: "ask", onPermissionRequest: () => "reject" });
      expect(answers(events)).toMatchObject([{ decision: "reject", option_id: "no", by: "callback" }]);
      expect(outcome).toMatchObject({ status: "succeeded", resultText: "I was not allowed." });
    });

    it("is asked only where no rule decides: a rule, deny or allow, answers first", async () => {
      let asked = 0;
      const onPermissionRequest = () => {
        asked++;
        return "reject" as const;
      };
      const allowed = await library({ prompt: "ask", allowTools: ["shell"], onPermissionRequest });
      expect(answers(allowed.events)).toMatchObject([{ decision: "allow", by: "rule" }]);
      const denied = await library({ prompt: "ask", denyTools: ["shell"], onPermissionRequest: () => "allow" });
      expect(answers(denied.events)).toMatchObject([{ decision: "reject", by: "rule" }]);
      expect(asked).toBe(0);
    });

    it("undefined leaves the request to the rules (here none: needs_input, exit 3)", async () => {
      const { events, outcome } = await library({ prompt: "ask", onPermissionRequest: () => undefined });
      expect(answers(events)).toMatchObject([{ decision: "reject", by: "default" }]);
      expect(outcome).toMatchObject({ status: "needs_input", exitCode: 3 });
    });

    it("a callback that throws rejects the call, never allows it by mistake", async () => {
      const { events } = await library({
        prompt: "ask",
        approvals: "auto",
        onPermissionRequest: () => {
          throw new Error("no idea");
        },
      });
      expect(answers(events)).toMatchObject([{ decision: "reject", by: "callback" }]);
    });

    it("is the same answerer as --approve-with, which the library takes too: one per run", async () => {
      const { events } = await library({ prompt: "ask", approveWith: "cat >/dev/null; exit 1" });
      expect(answers(events)).toMatchObject([{ decision: "reject", by: "command" }]);
      const both = runAgentLibrary({
        backend: "acp",
        bin: process.execPath,
        backendArgs: [FAKE_AGENT],
        prompt: "ask",
        approveWith: "true",
        onPermissionRequest: () => "allow",
      });
      await expect(both.next()).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining("approveWith") });
    });

    it("is refused (exit 2) for a backend that is not asked live, before anything starts", async () => {
      const running = runAgentLibrary({ backend: "claude", prompt: "hi", onPermissionRequest: () => "allow" });
      await expect(running.next()).rejects.toMatchObject({
        exitCode: 2,
        message: expect.stringContaining("option onPermissionRequest"),
      });
    });
  });

  it("a run's requests and answers, as a golden (library run, injected clock and run id)", async () => {
    const running = runAgentLibrary({
      backend: "acp",
      bin: process.execPath,
      backendArgs: [FAKE_AGENT],
      prompt: "ask twice",
      allowTools: ["shell(touch *)"],
      runId: "run-test",
      clock: steppingClock(),
    });
    const lines: string[] = [];
    let next = await running.next();
    for (; !next.done; next = await running.next()) {
      const e = next.value as unknown as Record<string, unknown>;
      // What depends on the machine: the command line (node's path, the fixture's) and the folder.
      if (e.type === "run.started")
        Object.assign(e, { command: ["NODE", "FAKE_AGENT"], cwd: "CWD", agentstream_version: "VERSION" });
      lines.push(JSON.stringify(e));
    }
    const golden = fileURLToPath(new URL("../../fixtures/acp/run-answered.canonical.jsonl", import.meta.url));
    if (process.env.UPDATE_GOLDEN === "1") writeFileSync(golden, `${lines.join("\n")}\n`);
    expect(`${lines.join("\n")}\n`).toBe(readFileSync(golden, "utf8"));
  });
});

describe("run --backend acp --output-schema: the schema goes in the prompt, the answer is checked", () => {
  const schema = join(tmp, "verdict.schema.json");
  writeFileSync(
    schema,
    JSON.stringify({ type: "object", required: ["approve"], properties: { approve: { type: "boolean" } } }),
  );

  it("a matching answer: result.json holds it, run.started says the schema went by the prompt", async () => {
    const { run, events, finished } = await runAgent("give the verdict", "--output-schema", schema);
    expect(events[0]).toMatchObject({ type: "run.started", output_schema: { via: "prompt", file: schema } });
    expect(finished).toMatchObject({ status: "succeeded", result: { json: { approve: true } } });
    expect(run.code).toBe(0);
  });

  it("an answer that does not match: failed, output_schema, exit 1, no result (the text is in its message)", async () => {
    const { run, events, finished } = await runAgent("give the verdict wrong", "--output-schema", schema);
    expect(finished).toMatchObject({ status: "failed", error: { code: "output_schema" }, result: null });
    const said = events.filter((e) => e.type === "message.completed").map((e) => (e as { text: string }).text);
    expect(said.join("")).toContain('"approve":"maybe"');
    expect(run.code).toBe(1);
  });
});
