// A compare stopped part way: killed with SIGKILL, run again with the same --out, it runs only the cells
// that had not finished (their agents left running are killed first); stopped with SIGINT, every running
// cell ends cancelled and nothing is left running.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, runCli } from "../../helpers/cli.js";
import { agentLog, agents, rowsOf, scratchRepo } from "../../helpers/compare.js";
import { isRunning, Scratch } from "../../helpers/stand-in.js";

const scratch = new Scratch();
afterAll(() => scratch.remove());

async function until(done: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !done(); waited += 50) {
    if (waited > 30_000) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function startCompare(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const ended = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr })),
  );
  return { child, ended };
}

describe("agentstream compare, stopped", () => {
  it("killed with SIGKILL mid-compare and run again: only the unfinished cells run, the one cut is killed and run again", {
    timeout: 90_000,
  }, async ({ onTestFinished }) => {
    const repo = scratchRepo(scratch.path("repo"));
    const out = join(scratch.dir, "resume-out");
    const log = scratch.path("log.jsonl");
    const hold = scratch.path("hold");
    writeFileSync(hold, "");
    // One at a time: "first" finishes, "second-hold" holds (the first to take the hold file), "third" waits its turn.
    const args = ["compare", ...agents("first", "second-hold", "third"), "--out", out, "--parallel", "1", "go"];
    const env = { COMPARE_AGENT_LOG: log, COMPARE_AGENT_HOLD: hold };
    const first = startCompare(args, repo, env);
    onTestFinished(() => {
      first.child.kill("SIGKILL");
      for (const note of agentLog(log)) if (isRunning(note.pid)) process.kill(note.pid, "SIGKILL");
    });
    await until(() => agentLog(log).some((n) => n.at === "holding"), "the second cell holds");
    first.child.kill("SIGKILL");
    const killed = await first.ended;
    expect(rowsOf(killed.stdout).map((row) => row.model)).toEqual(["first"]);
    const holder = agentLog(log).find((n) => n.at === "holding")!;
    // Its agent outlived the compare killed with SIGKILL...
    expect(isRunning(holder.pid)).toBe(true);

    const again = await runCli(args, { cwd: repo, env });
    expect(again.code, again.stderr).toBe(0);
    const rows = rowsOf(again.stdout);
    expect(rows.map((row) => [row.model, row.status, row.resumed])).toEqual([
      ["first", "succeeded", true],
      ["second-hold", "succeeded", false],
      ["third", "succeeded", false],
    ]);
    // ...until the next run with that folder killed it.
    expect(isRunning(holder.pid)).toBe(false);
    const starts = agentLog(log)
      .filter((n) => n.at === "start")
      .map((n) => n.model);
    expect(starts).toEqual(["first", "second-hold", "second-hold", "third"]);
    expect(readdirSync(join(out, "work"))).toEqual([]);

    // A third run has nothing left to run: every row is printed again, as finished.
    const third = await runCli(args, { cwd: repo, env });
    expect(rowsOf(third.stdout).map((row) => row.resumed)).toEqual([true, true, true]);
    expect(agentLog(log).filter((n) => n.at === "start")).toHaveLength(4);
  });

  it("SIGINT: every running cell ends cancelled (exit 130), the compare with 130, nothing left running", {
    timeout: 60_000,
  }, async ({ onTestFinished }) => {
    const repo = scratchRepo(scratch.path("repo"));
    const out = join(scratch.dir, "sigint-out");
    const log = scratch.path("log.jsonl");
    const runs = scratch.path("runs");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(runs);
    const args = [
      "compare",
      ...agents("a-sleep-60000", "b-sleep-60000", "c-sleep-60000"),
      "--out",
      out,
      "--parallel",
      "2",
      "go",
    ];
    const compare = startCompare(args, repo, { COMPARE_AGENT_LOG: log, COMPARE_AGENT_RUNS: runs });
    onTestFinished(() => {
      compare.child.kill("SIGKILL");
      for (const note of agentLog(log)) if (isRunning(note.pid)) process.kill(note.pid, "SIGKILL");
    });
    await until(() => agentLog(log).filter((n) => n.at === "start").length === 2, "two cells run");
    compare.child.kill("SIGINT");
    const ended = await compare.ended;
    expect(ended.code).toBe(130);
    const rows = rowsOf(ended.stdout);
    expect(rows.map((row) => [row.status, row.exit_code])).toEqual([
      ["cancelled", 130],
      ["cancelled", 130],
    ]);
    for (const note of agentLog(log)) expect(isRunning(note.pid), `agent ${note.pid}`).toBe(false);
    // The third never started; its cell has no record, so the next run runs it.
    expect(agentLog(log).filter((n) => n.model.startsWith("c-"))).toEqual([]);
    expect(readdirSync(join(out, "work"))).toEqual([]);
    expect(existsSync(join(out, "compare.json"))).toBe(true);
  });

  it("a second SIGINT kills every cell's agent at once (as run does), not after --grace: cancelled, exit 130", {
    timeout: 60_000,
  }, async ({ onTestFinished }) => {
    const repo = scratchRepo(scratch.path("repo"));
    const out = join(scratch.dir, "twice-out");
    const log = scratch.path("log.jsonl");
    // Agents that ignore their stop signal, and a grace period longer than the test: only a kill ends them in time.
    const args = [
      "compare",
      ...agents("a-stubborn-sleep-600000", "b-stubborn-sleep-600000"),
      "--out",
      out,
      "--parallel",
      "2",
      "--grace",
      "600",
      "go",
    ];
    const compare = startCompare(args, repo, { COMPARE_AGENT_LOG: log });
    onTestFinished(() => {
      compare.child.kill("SIGKILL");
      for (const note of agentLog(log)) if (isRunning(note.pid)) process.kill(note.pid, "SIGKILL");
    });
    await until(() => agentLog(log).filter((n) => n.at === "start").length === 2, "two cells run");
    compare.child.kill("SIGINT");
    const ignoring = () => new Set(agentLog(log).flatMap((n) => (n.at === "ignored" ? [n.pid] : []))).size;
    await until(() => ignoring() === 2, "both agents ignore their stop signal");
    compare.child.kill("SIGINT");
    const ended = await compare.ended;
    expect(ended.code).toBe(130);
    expect(ended.stderr).toContain("SIGINT again: killing every cell now");
    expect(rowsOf(ended.stdout).map((row) => [row.status, row.exit_code])).toEqual([
      ["cancelled", 130],
      ["cancelled", 130],
    ]);
    // Killed: neither ended on its own nor is running.
    expect(agentLog(log).filter((n) => n.at === "end" || n.at === "stopped")).toEqual([]);
    for (const note of agentLog(log)) expect(isRunning(note.pid), `agent ${note.pid}`).toBe(false);
    expect(readdirSync(join(out, "work"))).toEqual([]);
  });
});
