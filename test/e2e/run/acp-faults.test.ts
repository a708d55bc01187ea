// run --backend acp when the agent misbehaves or the run is stopped (issue 39 items 3, 4 and 8): the built CLI
// drives the fake ACP agent (test/fixtures/acp/fake-agent.mjs, its fault prompts and flags) as a real process.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, parseJsonl, runCli } from "../../helpers/cli.js";

const FAKE_AGENT = fileURLToPath(new URL("../../fixtures/acp/fake-agent.mjs", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "agentstream-acp-faults-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** run --backend acp with the fake agent, its own flags after its script. */
const agentArgs = (agentFlags: string[], ...more: string[]) => [
  "run",
  "--backend",
  "acp",
  "--bin",
  process.execPath,
  ...[FAKE_AGENT, ...agentFlags].flatMap((arg) => ["--backend-arg", arg]),
  ...more,
];

async function runAgent(prompt: string, opts: { agent?: string[]; flags?: string[]; env?: NodeJS.ProcessEnv } = {}) {
  const pidFile = join(tmp, `${prompt.replace(/\W/g, "_")}-${Math.random().toString(36).slice(2)}.pid`);
  const run = await runCli([...agentArgs(opts.agent ?? [], ...(opts.flags ?? [])), "--", prompt], {
    env: { FAKE_ACP_PID_FILE: pidFile, ...opts.env },
  });
  const events = parseJsonl(run.stdout);
  // The agent writes its pid once started: one stopped before that is gone too.
  const agentPid = existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8")) : undefined;
  return { run, events, finished: events.at(-1)!, agentPid };
}

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("run --backend acp: honest outcomes", () => {
  it("an agent that never answers initialize is timed_out at --timeout (124), and stopped", async () => {
    const { run, finished, agentPid } = await runAgent("say text", {
      agent: ["--mute"],
      flags: ["--timeout", "2", "--grace", "0.5"],
    });
    expect(run.code).toBe(124);
    expect(finished).toMatchObject({ type: "run.finished", status: "timed_out", error: { code: "timeout" } });
    expect(alive(agentPid)).toBe(false);
  });

  it("an agent deaf to session/cancel gets the stop signal after --grace: SIGINT still ends it cancelled (130)", async () => {
    const pidFile = join(tmp, "deaf.pid");
    const child = spawn(process.execPath, [BIN, ...agentArgs([], "--grace", "0.5"), "--", "deaf"], {
      env: { ...process.env, NO_COLOR: "1", FAKE_ACP_PID_FILE: pidFile },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let signalled = false;
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
      if (!signalled && stdout.includes("tick 2.")) {
        signalled = true;
        child.kill("SIGINT");
      }
    });
    child.stderr.resume();
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(130);
    const finished = parseJsonl(stdout).at(-1)!;
    expect(finished).toMatchObject({ type: "run.finished", status: "cancelled", exit_code: 130 });
    // It went on talking after session/cancel: only ACP's stop signal (SIGTERM) ended it.
    expect(finished.backend_exit).toEqual({ code: null, signal: "SIGTERM" });
    expect(alive(Number(readFileSync(pidFile, "utf8")))).toBe(false);
  });

  it("an agent that never answers the prompt after session/cancel (a request no one decided) is stopped after --grace: needs_input (3), the call pending", async () => {
    const { run, finished, agentPid } = await runAgent("ignore-cancel", { flags: ["--grace", "0.5"] });
    expect(run.code).toBe(3);
    expect(finished).toMatchObject({
      type: "run.finished",
      status: "needs_input",
      pending: [{ tool_call_id: "i1", kind: "approval" }],
    });
    expect(finished.backend_exit).toEqual({ code: null, signal: "SIGTERM" });
    expect(run.stderr).toContain("the agent did not end its turn within the grace period after session/cancel");
    expect(alive(agentPid)).toBe(false);
  });

  it("an agent that closes its stdout mid-prompt and lives on is backend_crashed (76), and stopped", async () => {
    const { run, finished, agentPid } = await runAgent("unplug", { flags: ["--grace", "0.5"] });
    expect(run.code).toBe(76);
    expect(finished).toMatchObject({ status: "failed", error: { code: "backend_crashed" } });
    expect(alive(agentPid)).toBe(false);
  });

  it("an agent that lives on once the turn is over and its stdin closed is stopped at --linger; the answer stands", async () => {
    const { run, finished, agentPid } = await runAgent("stubborn", { flags: ["--linger", "0.5"] });
    expect(run.code).toBe(0);
    expect(finished).toMatchObject({ status: "succeeded", result: { text: "Done, but staying." } });
    expect(finished.backend_exit).toEqual({ code: null, signal: "SIGTERM" });
    expect(alive(agentPid)).toBe(false);
  });

  it("what the agent writes after the prompt's response is still read and translated (Claude's adapter's title)", async () => {
    const { run, events, finished } = await runAgent("epilogue");
    expect(run.code).toBe(0);
    expect(events.find((e) => e.type === "session.updated")).toMatchObject({ name: "A late title" });
    expect(finished).toMatchObject({ status: "succeeded", result: { text: "Done." } });
    expect(finished.backend_exit).toEqual({ code: 0, signal: null });
  });
});

describe("run --backend acp: limits stop the turn with session/cancel", () => {
  it.each([
    ["--max-turns", "2", /max-turns 2 reached/],
    ["--max-tokens", "3000", /max-tokens 3000 reached/],
    ["--max-cost-usd", "0.01", /max-cost-usd 0.01 reached/],
  ])("%s %s: the agent ends the turn itself (no signal), the run fails budget", async (flag, value, said) => {
    const { run, events, finished } = await runAgent("spend", {
      agent: ["--model=gpt-4o"],
      flags: [flag, value, "--grace", "2"],
    });
    expect(run.code).toBe(1);
    expect(finished).toMatchObject({
      status: "failed",
      error: { code: "budget", message: expect.stringMatching(said) },
    });
    // session/cancel was heard: the agent ended the turn "cancelled" and exited when its stdin closed, before
    // the stop signal that follows the grace period (its turn would last minutes).
    expect(events.filter((e) => e.type === "turn.completed").at(-1)).toMatchObject({ stop_reason: "cancelled" });
    expect(finished.backend_exit).toEqual({ code: 0, signal: null });
  });

  it("per-call tokens of a known model are priced (estimated), the run's total too", async () => {
    const { finished, events } = await runAgent("spend", { agent: ["--model=gpt-4o"], flags: ["--max-turns", "2"] });
    expect(events.find((e) => e.type === "usage")).toMatchObject({
      model: "gpt-4o",
      input_tokens: 1000,
      output_tokens: 100,
      cost_source: "estimated",
    });
    expect(finished.usage).toMatchObject({ cost_source: "estimated", cost_usd: expect.any(Number) });
  });
});

describe("run --backend acp: bad input", () => {
  const SECRET = "sk-fake-acp-secret-0123456789";

  it("requests it does not serve are refused (-32601), an unknown update kept whole, a huge line unparsed: the run goes on", async () => {
    const { run, events, finished } = await runAgent("odd", {
      flags: ["--max-line-bytes", "4096"],
      env: { FAKE_ACP_HUGE: "10000" },
    });
    expect(run.code).toBe(0);
    expect(events.find((e) => e.type === "message.delta")).toMatchObject({
      text: "terminal/create: refused -32601, craft/drainMidTurnQueue: refused -32601. ",
    });
    const unknownKind = events.find(
      (e) => e.type === "backend.event" && JSON.stringify(e.raw).includes("hologram_update"),
    );
    expect(unknownKind).toMatchObject({ native_type: "session/update" });
    expect(events.filter((e) => e.type === "backend.unparsed")).toHaveLength(2);
    expect(finished).toMatchObject({
      status: "succeeded",
      result: { text: "terminal/create: refused -32601, craft/drainMidTurnQueue: refused -32601. " },
    });
  });

  it("a secret the agent echoes (message, tool call, stray line, error) is hidden everywhere", async () => {
    const { run, events, finished } = await runAgent("odd", { env: { FAKE_ACP_TOKEN: SECRET } });
    expect(run.code).toBe(77);
    expect(finished).toMatchObject({ status: "failed", error: { code: "auth" } });
    expect(run.stdout).not.toContain(SECRET);
    expect(run.stderr).not.toContain(SECRET);
    expect(events.find((e) => e.type === "tool.started")).toBeDefined();
    expect(JSON.stringify(events)).toContain("[redacted]");
  });
});
