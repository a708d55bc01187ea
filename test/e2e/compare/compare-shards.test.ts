// A compare cut in three shards, run by three processes (as three CI jobs would), their folders merged:
// the same rows and side by side as one unsharded compare; a merge names a missing shard's cells and
// refuses a cell two folders hold.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { COMPARE_AGENT, rowsOf, scratchRepo, type Row } from "../../helpers/compare.js";
import { Scratch } from "../../helpers/stand-in.js";

const scratch = new Scratch();
afterAll(() => scratch.remove());

/** A row without what differs from run to run (its time). */
const steady = (row: Row): Partial<Row> => ({ ...row, duration_ms: null });

describe("agentstream compare --shard and --merge", () => {
  it("three shards in three processes, merged, equal one unsharded compare", { timeout: 90_000 }, async () => {
    const repo = scratchRepo(scratch.path("repo"));
    const plan = join(scratch.dir, "plan.json");
    writeFileSync(
      plan,
      JSON.stringify({
        tasks: [
          { id: "one", prompt: "write:one.txt", check: "test -f one.txt" },
          { id: "two", prompt: "write:two.txt", check: "grep -q m1 two.txt" },
        ],
        agents: ["m1", "m2", "m3-fail"].map((model) => ({ backend: "claude", model, bin: COMPARE_AGENT })),
      }),
    );
    const whole = await runCli(["compare", "--plan", plan, "--out", join(scratch.dir, "whole")], { cwd: repo });
    const shards = await Promise.all(
      [1, 2, 3].map((i) =>
        runCli(["compare", "--plan", plan, "--out", join(scratch.dir, `shard-${i}`), "--shard", `${i}/3`], {
          cwd: repo,
        }),
      ),
    );
    // Every cell of every shard ran (a cell that could not be, its worktree not made, has no record to merge).
    const unrun = shards.flatMap((shard) => rowsOf(shard.stdout)).filter((row) => row.status === "not_run");
    expect(unrun.map((row) => row.error)).toEqual([]);
    // Each shard ran its own third of the cells, none twice.
    expect(shards.map((shard) => rowsOf(shard.stdout).length)).toEqual([2, 2, 2]);
    const ids = shards.flatMap((shard) => rowsOf(shard.stdout).map((row) => row.cell_id));
    expect(new Set(ids).size).toBe(6);

    const merged = await runCli(["compare", "--merge", ...[1, 2, 3].map((i) => join(scratch.dir, `shard-${i}`))], {
      cwd: repo,
    });
    const wholeRows = rowsOf(whole.stdout);
    const inPlanOrder = (rows: Row[]): Row[] => {
      const order = JSON.parse(readFileSync(join(scratch.dir, "whole", "compare.json"), "utf8")).cells.map(
        (c: { id: string }) => c.id,
      );
      return [...rows].sort((a, b) => order.indexOf(a.cell_id) - order.indexOf(b.cell_id));
    };
    expect(rowsOf(merged.stdout).map(steady)).toEqual(inPlanOrder(wholeRows).map(steady));
    expect(merged.code).toBe(whole.code);
    expect(whole.code).toBe(1);
    // `report DIR...` reads the same folders.
    const report = await runCli(
      ["report", "--format", "json", ...[1, 2, 3].map((i) => join(scratch.dir, `shard-${i}`))],
      { cwd: repo },
    );
    expect(report.code, report.stderr).toBe(0);
    const summary = JSON.parse(report.stdout);
    expect(summary.cells).toBe(6);
    expect(summary.passed).toBe(wholeRows.filter((row) => row.passed).length);
    expect(summary.rows.map((row: Row) => row.cell_id)).toEqual(rowsOf(merged.stdout).map((row) => row.cell_id));
    // The same side by side as the unsharded compare's folder gives (its times aside).
    const wholeReport = await runCli(["report", "--format", "json", join(scratch.dir, "whole")], { cwd: repo });
    const timeless = (report: { agents: Record<string, unknown>[]; rows: Row[] }): unknown => ({
      ...report,
      agents: report.agents.map((agent) => ({ ...agent, median_duration_ms: null })),
      rows: report.rows.map(steady),
    });
    expect(timeless(summary)).toEqual(timeless(JSON.parse(wholeReport.stdout)));
    const shardDirs = [1, 2, 3].map((i) => join(scratch.dir, `shard-${i}`));
    const md = await runCli(["report", ...shardDirs], { cwd: repo });
    expect(md.stdout).toContain(`## agentstream compare\n\n${summary.passed} of 6 cells passed.`);
    expect(md.stdout).toMatch(/\| claude:m1 \| 2 \| 2 \(100%\) \| 2\/2 \(100%\) \|/);
    const html = await runCli(["report", "--format", "html", ...shardDirs], { cwd: repo });
    expect(html.stdout).toMatch(/^<!doctype html>/);
    expect(html.stdout).toContain("<td>claude:m3-fail</td>");

    // One shard missing: its cells are named, and the merge does not pass.
    const partial = await runCli(["compare", "--merge", join(scratch.dir, "shard-1"), join(scratch.dir, "shard-2")], {
      cwd: repo,
    });
    expect(partial.code).toBe(1);
    for (const row of rowsOf(shards[2]!.stdout))
      expect(partial.stderr).toContain(`no folder holds the cell ${row.cell_id}`);
    // A cell in two folders is refused.
    const twice = await runCli(["compare", "--merge", join(scratch.dir, "shard-1"), join(scratch.dir, "whole")], {
      cwd: repo,
    });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/the cell \w+ .* is in both/);
    expect(twice.stdout).toBe("");
  });

  it("--shard auto takes a Kubernetes Indexed Job's 0-based index, or GitLab's 1-based one", async () => {
    const repo = scratchRepo(scratch.path("repo"));
    const base = [
      "compare",
      "--backend",
      "claude:m1,claude:m2,claude:m3",
      "--bin",
      COMPARE_AGENT,
      "--shard",
      "auto",
      "go",
    ];
    const k8s = await runCli([...base, "--out", join(scratch.dir, "k8s")], {
      cwd: repo,
      env: { JOB_COMPLETION_INDEX: "0", AGENTSTREAM_SHARD_TOTAL: "3" },
    });
    expect(rowsOf(k8s.stdout).map((row) => row.model)).toEqual(["m1"]);
    const gitlab = await runCli([...base, "--out", join(scratch.dir, "gitlab")], {
      cwd: repo,
      env: { CI_NODE_INDEX: "3", CI_NODE_TOTAL: "3" },
    });
    expect(rowsOf(gitlab.stdout).map((row) => row.model)).toEqual(["m3"]);
    const none = await runCli([...base, "--out", join(scratch.dir, "none")], {
      cwd: repo,
      env: { CI_NODE_INDEX: undefined, CI_NODE_TOTAL: undefined, JOB_COMPLETION_INDEX: undefined },
    });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("--shard auto: no CI variables name a shard");
  });
});
