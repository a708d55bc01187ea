// agentstream compare, the built bin run as a process, with the stand-in agent (Claude Code's stream-json)
// in worktrees of a scratch repository: each cell sees only its own edits, its check decides its verdict,
// no more than --parallel cells run at once, a check that hangs is stopped, the budget across cells holds.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { agentLog, agents, COMPARE_AGENT, mostAtOnce, rowsOf, scratchRepo } from "../../helpers/compare.js";
import { Scratch } from "../../helpers/stand-in.js";
import { verifyLines } from "../../helpers/verify.js";

const scratch = new Scratch();
afterAll(() => scratch.remove());

describe("agentstream compare", () => {
  it("two cells writing the same file each see only their own, in worktrees removed at the end; the check decides", {
    timeout: 60_000,
  }, async () => {
    const repo = scratchRepo(scratch.path("repo"));
    const out = join(scratch.dir, "isolation-out");
    const log = scratch.path("log.jsonl");
    const result = await runCli(
      ["compare", ...agents("m1", "m2"), "--out", out, "--check", "grep -q m1 same.txt", "write:same.txt"],
      { cwd: repo, env: { COMPARE_AGENT_LOG: log } },
    );
    const rows = rowsOf(result.stdout);
    expect(rows.map((row) => [row.model, row.status, row.check, row.passed]).sort()).toEqual([
      ["m1", "succeeded", "passed", true],
      ["m2", "succeeded", "failed", false],
    ]);
    // Mixed outcomes: 1.
    expect(result.code).toBe(1);
    for (const row of rows) {
      // The agent made the file: no other cell's was there.
      const stream = readFileSync(join(out, row.paths.stream!), "utf8");
      expect(stream).toContain('"text":"made same.txt"');
      expect(verifyLines(stream.split("\n").filter(Boolean))).toEqual([]);
      const diff = readFileSync(join(out, row.paths.diff!), "utf8");
      expect(diff).toContain(`+++ b/same.txt\n@@ -0,0 +1 @@\n+${row.model}\n`);
      expect(diff).not.toContain(row.model === "m1" ? "+m2" : "+m1");
      expect([row.files_changed, row.lines_added]).toEqual([1, 1]);
    }
    // Each ran in a worktree of its own, none in the repository itself, and none is left.
    const cwds = agentLog(log)
      .filter((n) => n.at === "start")
      .map((n) => n.cwd);
    expect(new Set(cwds).size).toBe(2);
    for (const cwd of cwds) expect(cwd.startsWith(join(out, "work"))).toBe(true);
    expect(existsSync(join(repo, "same.txt"))).toBe(false);
    expect(readdirSync(join(out, "work"))).toEqual([]);
    expect(execFileSync("git", ["worktree", "list"], { cwd: repo, encoding: "utf8" }).trim().split("\n")).toHaveLength(
      1,
    );
    // stdout holds the rows and nothing else; stderr the side by side.
    expect(result.stdout.split("\n").filter(Boolean)).toHaveLength(2);
    expect(result.stderr).toMatch(/claude:m1 +1 +1 \(100%\) +1\/1 \(100%\)/);
    expect(result.stderr).toContain("1 of 2 cells passed");
  });

  it("never runs more than --parallel cells at once", { timeout: 60_000 }, async () => {
    const repo = scratchRepo(scratch.path("repo"));
    const log = scratch.path("log.jsonl");
    const models = ["a", "b", "c", "d", "e", "f"].map((m) => `${m}-sleep-300`);
    const result = await runCli(
      ["compare", ...agents(...models), "--out", join(scratch.dir, "parallel-out"), "--parallel", "2", "go"],
      { cwd: repo, env: { COMPARE_AGENT_LOG: log } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(rowsOf(result.stdout)).toHaveLength(6);
    const notes = agentLog(log);
    expect(notes.filter((n) => n.at === "start")).toHaveLength(6);
    expect(mostAtOnce(notes)).toBeLessThanOrEqual(2);
  });

  it("a plan (YAML) whose task's check hangs: the check is stopped at --check-timeout, the other task passes", {
    timeout: 60_000,
  }, async () => {
    const repo = scratchRepo(scratch.path("repo"));
    const plan = join(scratch.dir, "hang-plan.yaml");
    writeFileSync(
      plan,
      `tasks:
  - id: hangs
    prompt: write:x.txt
    check: sleep 600
  - id: fine
    prompt: write:y.txt
    check: { shell: "test -f y.txt && echo checked" }
agents:
  - backend: claude
    model: m1
    bin: ${COMPARE_AGENT}
`,
    );
    const result = await runCli(
      ["compare", "--plan", plan, "--out", join(scratch.dir, "hang-out"), "--check-timeout", "1"],
      {
        cwd: repo,
      },
    );
    const rows = rowsOf(result.stdout);
    const byTask = Object.fromEntries(rows.map((row) => [row.task, row]));
    expect(byTask.hangs).toMatchObject({ status: "succeeded", check: "timed_out", passed: false });
    expect(byTask.fine).toMatchObject({ status: "succeeded", check: "passed", passed: true });
    expect(readFileSync(join(scratch.dir, "hang-out", byTask.fine!.paths.check_log!), "utf8")).toContain("checked\n");
    expect(readFileSync(join(scratch.dir, "hang-out", byTask.hangs!.paths.check_log!), "utf8")).toContain(
      "timed out after 1 s",
    );
    expect(result.code).toBe(1);
  });

  it("--max-total-cost-usd: once spent, the running cell stops (failed, budget) and no cell starts", {
    timeout: 60_000,
  }, async () => {
    const repo = scratchRepo(scratch.path("repo"));
    const log = scratch.path("log.jsonl");
    // In order, two at once: a long one, one that costs 1 USD at once, then one that never starts.
    const result = await runCli(
      [
        "compare",
        ...agents("long-sleep-20000", "costly-cost-1.0", "later"),
        "--out",
        join(scratch.dir, "budget-out"),
        "--parallel",
        "2",
        "--max-total-cost-usd",
        "0.5",
        "go",
      ],
      { cwd: repo, env: { COMPARE_AGENT_LOG: log } },
    );
    const rows = Object.fromEntries(rowsOf(result.stdout).map((row) => [row.model, row]));
    expect(rows["long-sleep-20000"]).toMatchObject({ status: "failed", error: { code: "budget" }, exit_code: 1 });
    expect(rows["long-sleep-20000"]!.error!.message).toContain("max-total-cost-usd 0.5 reached");
    expect(rows.later).toMatchObject({ status: "not_run", error: { code: "budget" }, exit_code: null });
    expect(rows["costly-cost-1.0"]!.cost_usd).toBe(1);
    // The one that never started never ran.
    expect(agentLog(log).filter((n) => n.model === "later")).toEqual([]);
    expect(result.code).toBe(1);
  });

  it("the replay backend, outside git: each cell in a copy of the folder, --repeat 2, --atif per cell", {
    timeout: 60_000,
  }, async () => {
    const folder = scratch.path("plain");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(folder);
    writeFileSync(join(folder, "data.csv"), "a,b\n1,2\n");
    const out = join(scratch.dir, "replay-out");
    const replay = fileURLToPath(new URL("../../../examples/replay-backend.mjs", import.meta.url));
    const result = await runCli(
      [
        "compare",
        "--backend",
        "evosci",
        "--bin",
        replay,
        "--repeat",
        "2",
        "--atif",
        "x.json",
        "--out",
        out,
        "Summarize",
      ],
      { cwd: folder, env: { REPLAY_SPEED: "50" } },
    );
    expect(result.code, result.stderr).toBe(0);
    const rows = rowsOf(result.stdout);
    expect(rows.map((row) => [row.backend, row.repeat, row.status]).sort()).toEqual([
      ["evosci", 1, "succeeded"],
      ["evosci", 2, "succeeded"],
    ]);
    for (const row of rows) {
      expect(verifyLines(readFileSync(join(out, row.paths.stream!), "utf8").split("\n").filter(Boolean))).toEqual([]);
      expect(JSON.parse(readFileSync(join(out, row.paths.atif!), "utf8")).schema_version).toMatch(/^ATIF/);
      // The copy held the folder's file; the replay changed nothing in it.
      expect(row.files_changed).toBe(0);
      expect(readFileSync(join(out, row.paths.stderr!), "utf8")).toContain("[replay] not a live agent");
    }
    expect(existsSync(join(folder, "x.json"))).toBe(false);
    expect(readdirSync(join(out, "work"))).toEqual([]);
  });

  it("refuses what cannot apply across cells before any starts", async () => {
    const repo = scratchRepo(scratch.path("repo"));
    const log = scratch.path("log.jsonl");
    const refused = await runCli(
      ["compare", ...agents("m1"), "--out", join(scratch.dir, "refused-out"), "--resume", "abc", "go"],
      { cwd: repo, env: { COMPARE_AGENT_LOG: log } },
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--resume continues one session: it cannot apply to every cell of a compare");
    expect(refused.stdout).toBe("");
    const ask = await runCli(
      ["compare", ...agents("m1", "m2"), "--out", join(scratch.dir, "ask-out"), "--approvals", "ask", "go"],
      { cwd: repo, env: { COMPARE_AGENT_LOG: log } },
    );
    expect(ask.code).toBe(2);
    expect(ask.stderr).toContain("with more than one cell at once the questions would mix (give --parallel 1)");
    expect(agentLog(log)).toEqual([]);
  });

  it("--workspace none: the cells run in the folder itself, one at a time, and stderr says so", {
    timeout: 60_000,
  }, async () => {
    const repo = scratchRepo(scratch.path("repo"));
    const log = scratch.path("log.jsonl");
    const result = await runCli(
      [
        "compare",
        ...agents("a-sleep-200", "b-sleep-200", "c-sleep-200"),
        "--workspace",
        "none",
        "--parallel",
        "3",
        "--out",
        join(scratch.dir, "none-out"),
        "go",
      ],
      { cwd: repo, env: { COMPARE_AGENT_LOG: log } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("workspace none: the cells share one folder, so they run one at a time");
    const notes = agentLog(log);
    expect(mostAtOnce(notes)).toBe(1);
    expect(new Set(notes.map((n) => n.cwd))).toEqual(new Set([repo]));
    expect(rowsOf(result.stdout).map((row) => row.files_changed)).toEqual([null, null, null]);
  });
});
