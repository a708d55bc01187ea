// No refused call ends in success (issue 53 item 1): an agent that runs a call agentstream rejected (a rule, the
// --approve-with command, a person, the library's callback) fails the run with refused_call_ran, exit 1, the call
// named, whatever stop reason it gives after (end_turn; cancelled, as codex-acp's reject option ends the turn).
// The hand-written hostile agent (test/fixtures/acp/hostile-agent.mjs, run-anyway) runs "t1" whatever the answer.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run as runLibrary, type CanonicalEvent } from "../../../src/index.js";
import { BIN, parseJsonl, runCli } from "../../helpers/cli.js";
import { HAS_TMUX, sh, Terminal } from "../../helpers/terminal.js";
import { HOSTILE_AGENT, hostileAcpArgs } from "../../helpers/fake-acp.js";

const tmp = mkdtempSync(join(tmpdir(), "agentstream-refused-ran-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const hostileArgs = (agent: string[], flags: string[]) => hostileAcpArgs(["run-anyway", ...agent], flags);

async function runAnyway(flags: string[], agent: string[] = []) {
  const run = await runCli([...hostileArgs(agent, flags), "--", "go"]);
  const events = parseJsonl(run.stdout);
  return { run, events, finished: events.at(-1)! };
}

const REFUSED_RAN = {
  status: "failed",
  exit_code: 1,
  result: null,
  error: { code: "refused_call_ran", retryable: false },
};

describe("a call that was rejected and ran anyway fails the run", () => {
  it.each([
    ["a deny rule, the turn ended end_turn", ["--deny-tool", "shell"], [], "rule"],
    ["the --approve-with command (exit 1), end_turn", ["--approve-with", "exit 1"], [], "command"],
    ["a deny rule, codex-acp's turn ended cancelled", ["--deny-tool", "shell"], ["--codex"], "rule"],
    [
      "the --approve-with command, codex-acp's turn ended cancelled",
      ["--approve-with", "exit 1"],
      ["--codex"],
      "command",
    ],
  ])("%s: failed, refused_call_ran, exit 1, the call named", async (_, flags, agent, by) => {
    const { run, events, finished } = await runAnyway(flags, agent);
    expect(run.code).toBe(1);
    expect(finished).toMatchObject(REFUSED_RAN);
    expect((finished.error as { message: string }).message).toBe(
      `the agent ran a call that was rejected (by ${by}): execute "t1"`,
    );
    expect(events.filter((e) => e.type === "input.answered")).toMatchObject([{ decision: "reject", by }]);
    expect(events.filter((e) => e.type === "tool.completed")).toMatchObject([{ tool_call_id: "t1", unapproved: true }]);
    expect(finished).not.toHaveProperty("pending");
    expect(run.stderr).toContain("the agent ran a call that was refused");
    expect(run.stderr).not.toMatch(/succeeded/);
  });

  it("two rejected calls ran: the first is named, the other counted", async () => {
    const { finished } = await runAnyway(["--deny-tool", "shell", "--deny-tool", "read"], ["--twice"]);
    expect(finished).toMatchObject(REFUSED_RAN);
    expect((finished.error as { message: string }).message).toBe(
      `the agent ran a call that was rejected (by rule): execute "t1" (and 1 more rejected calls)`,
    );
  });

  it("begun (in_progress) and never finished by the turn's end: closed cancelled, still unapproved, the run failed", async () => {
    const { run, events, finished } = await runAnyway(["--deny-tool", "shell"], ["--unfinished"]);
    expect(run.code).toBe(1);
    expect(finished).toMatchObject(REFUSED_RAN);
    expect(events.filter((e) => e.type === "tool.completed")).toMatchObject([
      { tool_call_id: "t1", status: "cancelled", reason: "run_ended", unapproved: true },
    ]);
  });

  it("a call a rule allowed and ran is no refusal: the run succeeds", async () => {
    const { run, finished } = await runAnyway(["--allow-tool", "shell"]);
    expect(run.code).toBe(0);
    expect(finished).toMatchObject({ status: "succeeded", result: { text: "Made x anyway." } });
  });

  it("the library's onPermissionRequest rejected it: the outcome is failed, refused_call_ran, exit 1", async () => {
    const running = runLibrary({
      backend: "acp",
      bin: process.execPath,
      backendArgs: [HOSTILE_AGENT, "run-anyway"],
      prompt: "go",
      onPermissionRequest: () => "reject",
    });
    const events: CanonicalEvent[] = [];
    let next = await running.next();
    for (; !next.done; next = await running.next()) events.push(next.value);
    expect(next.value).toMatchObject({ status: "failed", exitCode: 1, error: { code: "refused_call_ran" } });
    expect(next.value.error?.message).toBe(`the agent ran a call that was rejected (by callback): execute "t1"`);
    expect(events.at(-1)).toMatchObject(REFUSED_RAN);
  });

  it.skipIf(!HAS_TMUX)("a person who gave no answer within --answer-timeout rejected it: failed, exit 1", async () => {
    const out = join(tmp, "person.jsonl");
    const args = [...hostileArgs([], ["--approvals", "ask", "--answer-timeout", "1"]), "--", "go"];
    const terminal = new Terminal(tmp, `${sh(process.execPath)} ${sh(BIN)} ${args.map(sh).join(" ")} > ${sh(out)}`, {
      width: 200,
    });
    try {
      expect(await terminal.exited()).toBe(1);
      const events = existsSync(out) ? parseJsonl(readFileSync(out, "utf8")) : [];
      expect(events.filter((e) => e.type === "input.answered")).toMatchObject([{ decision: "reject", by: "person" }]);
      expect(events.at(-1)).toMatchObject(REFUSED_RAN);
    } finally {
      terminal.close();
    }
  });
});

describe("a call no one decided that ran anyway still waits for its approval", () => {
  it("no rule, no answerer, codex-acp's turn ended cancelled: needs_input (3), the call pending", async () => {
    const { run, finished } = await runAnyway([], ["--codex"]);
    expect(run.code).toBe(3);
    expect(finished).toMatchObject({ status: "needs_input", pending: [{ request_id: "7", tool_call_id: "t1" }] });
  });
});
