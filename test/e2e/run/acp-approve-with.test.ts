// run --approve-with CMD end to end: the built CLI drives the fake ACP agent (test/fixtures/acp/fake-agent.mjs),
// and each permission request no rule decides is answered by a real command, given the request on its stdin.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { processRunning } from "../../../src/run/process-group.js";
import { parseJsonl, runCli } from "../../helpers/cli.js";
import { fakeAcpArgs } from "../../helpers/fake-acp.js";

const tmp = mkdtempSync(join(tmpdir(), "agentstream-approve-with-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let scripts = 0;
/** A script file in the test's folder: its path. */
function script(body: string): string {
  const path = join(tmp, `approve-${++scripts}.sh`);
  writeFileSync(path, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return path;
}

async function runAgent(prompt: string, flags: string[], env: NodeJS.ProcessEnv = {}) {
  const run = await runCli(fakeAcpArgs(...flags, "--", prompt), { env, cwd: tmp });
  const events = parseJsonl(run.stdout);
  const answers = events.filter((e) => e.type === "input.answered");
  return { run, events, answers, finished: events.at(-1)! };
}

describe("run --approve-with CMD", () => {
  it("gives the command the input.requested event as the stream shows it (one JSON line) on its stdin", async () => {
    const seen = join(tmp, "seen.jsonl");
    const { run, events, answers } = await runAgent("ask", ["--approve-with", `cat > ${seen}`]);
    expect(run.code).toBe(0);
    const requested = events.find((e) => e.type === "input.requested");
    expect(readFileSync(seen, "utf8")).toBe(`${JSON.stringify(requested)}\n`);
    expect(answers).toMatchObject([{ decision: "allow", option_id: "yes", by: "command" }]);
  });

  // Each exit of the command, and what becomes of the call and the run: only 0 allows, a reject is an answer.
  const CASES: { exit: string; decision: string; why?: RegExp }[] = [
    { exit: "exit 0", decision: "allow" },
    { exit: "exit 1", decision: "reject" },
    { exit: "exit 2", decision: "reject", why: /--approve-with exited 2, not 0 \(allow\) or 1 \(reject\)/ },
    { exit: "echo 'no idea' >&2; exit 7", decision: "reject", why: /exited 7.*\(stderr: no idea\)/ },
    { exit: "kill -9 $$", decision: "reject", why: /was killed by SIGKILL/ },
    { exit: "exec /nonexistent/approver", decision: "reject", why: /exited 127/ },
  ];
  for (const { exit, decision, why } of CASES)
    it(`\`${exit}\` ${decision === "allow" ? "allows" : "rejects"} the call; the run goes on`, async () => {
      const { run, answers, finished } = await runAgent("ask", ["--approve-with", `cat >/dev/null; ${exit}`]);
      expect(answers).toMatchObject([{ decision, by: "command" }]);
      expect(finished).toMatchObject({
        status: "succeeded",
        result: { text: decision === "allow" ? "Made x." : "I was not allowed." },
      });
      expect(run.code).toBe(0);
      if (why) expect(run.stderr).toMatch(why);
      else expect(run.stderr).not.toMatch(/--approve-with .*rejected/);
      // The renderer says what was decided, and by whom.
      expect(run.stderr).toContain(`${decision === "allow" ? "allowed" : "rejected"} execute: touch x (by command)`);
    });

  it("is not run for a request a rule decides: deny beats it, allow needs it not", async () => {
    const ran = join(tmp, "ran-for-rule");
    const approver = script(`touch ${ran}; exit 0`);
    const denied = await runAgent("ask", ["--deny-tool", "shell", "--approve-with", approver]);
    expect(denied.answers).toMatchObject([{ decision: "reject", by: "rule", rule: "shell" }]);
    // A deny rule's reject is an answer: the agent is told, the run goes on.
    expect(denied.finished).toMatchObject({ status: "succeeded", result: { text: "I was not allowed." } });
    const allowed = await runAgent("ask", ["--allow-tool", "shell", "--approve-with", approver]);
    expect(allowed.answers).toMatchObject([{ decision: "allow", by: "rule" }]);
    expect(existsSync(ran)).toBe(false);
  });

  it("a command that gives no answer within --answer-timeout is killed, its group with it, and the call rejected", async () => {
    const pidFile = join(tmp, "sleeper.pid");
    // A child in the background holds the group: it must not outlive the answer.
    const { run, answers } = await runAgent("ask", [
      "--answer-timeout",
      "1",
      "--approve-with",
      script(`sleep 300 & echo $! > ${pidFile}; wait`),
    ]);
    expect(answers).toMatchObject([{ decision: "reject", by: "command" }]);
    expect(run.stderr).toMatch(/--approve-with gave no answer within 1 s \(killed\): request \S+ is rejected/);
    const pid = Number(readFileSync(pidFile, "utf8"));
    // Killed with its group; a zombie until its new parent reaps it is no process running.
    expect(processRunning(pid)).toBe(false);
  });

  // A daemon (a new session, out of reach of its group) that holds the command's stdout and ignores SIGTERM: after
  // the answer (exit 0) or at --answer-timeout, it is killed too, and the run ends, not held open by the pipe.
  for (const [how, after, decision] of [
    ["answered", "exit 0", "allow"],
    ["timed out", "sleep 300", "reject"],
  ] as const)
    it(`a command that started a daemon holding its stdout (${how}): the daemon is killed, the run ends`, async () => {
      const pidFile = join(tmp, `daemon-${decision}.pid`);
      const approver = script(
        `cat >/dev/null; setsid sh -c 'trap "" TERM; echo $$ > ${pidFile}; exec sleep 300' & while [ ! -s ${pidFile} ]; do sleep 0.01; done; ${after}`,
      );
      const { run, answers, finished } = await runAgent("ask", ["--answer-timeout", "2", "--approve-with", approver]);
      expect(answers).toMatchObject([{ decision, by: "command" }]);
      expect(finished).toMatchObject({ type: "run.finished", status: "succeeded" });
      expect(run.code).toBe(0);
      expect(processRunning(Number(readFileSync(pidFile, "utf8")))).toBe(false);
    });

  it("is refused (exit 2) where the backend is not asked live, naming the transport that is", async () => {
    const native = await runCli(["run", "--backend", "gemini", "--approve-with", "true", "--", "hi"]);
    expect(native.code).toBe(2);
    expect(native.stderr).toContain("--approve-with: Gemini CLI is not asked live");
    expect(native.stderr).toContain("--transport acp drives Gemini CLI over ACP");
    const codex = await runCli(["run", "--backend", "evosci", "--approve-with", "true", "--", "hi"]);
    expect(codex.code).toBe(2);
    expect(codex.stderr).toContain("only an agent driven over ACP is asked live");
    expect(native.stdout).toBe("");
  });

  it("with --approvals auto or ask is refused: one answerer decides", async () => {
    for (const mode of ["auto", "ask"]) {
      const { run } = await runAgent("ask", ["--approve-with", "true", "--approvals", mode]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("--approve-with");
    }
  });
});
