// examples/ci/compare-sharded.yml run as GitHub would run it, offline: each matrix job's compare step in a
// checkout of its own (a clone of a scratch repository holding compare.yaml, a plan of the replay agent),
// its --out folder copied as its artifact would be, then the merge job's steps over them all, with this
// checkout's agentstream on PATH. The merged rows are the rows of one unsharded compare of the same plan;
// a shard left out is named by the merge step, which then fails.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { BIN, parseJsonl } from "../helpers/cli.js";

const REPLAY = fileURLToPath(new URL("../../examples/replay-backend.mjs", import.meta.url));
const WORKFLOW = parse(
  readFileSync(fileURLToPath(new URL("../../examples/ci/compare-sharded.yml", import.meta.url)), "utf8"),
) as {
  jobs: Record<
    string,
    { strategy?: { matrix: { shard: number[] } }; steps: { run?: string; env?: Record<string, string> }[] }
  >;
};
// Two tasks × the replay agent × 2 repeats: 4 cells; each checked in its worktree.
const PLAN = `repeat: 2
tasks:
  - id: summarize
    prompt: Summarize data/results.csv into notes.md
    check: test -f README.md
  - id: explain
    prompt: Explain the results
agents:
  - backend: evosci
    bin: ${REPLAY}
`;
// The fields of a row that do not depend on the machine or the moment.
const KEPT = ["cell_id", "task", "backend", "model", "repeat", "status", "exit_code", "check", "passed", "turns"];

let root: string;
let env: NodeJS.ProcessEnv;

/** A step's script run as GitHub runs `run:` (bash, -e, pipefail) in `cwd`. */
function step(script: string, cwd: string, extra: NodeJS.ProcessEnv = {}) {
  return spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], {
    cwd,
    env: { ...env, ...extra },
    encoding: "utf8",
    timeout: 120_000,
  });
}

/** A runner's checkout: a clone of the scratch repository. */
function checkout(name: string): string {
  const dir = join(root, name);
  const clone = spawnSync("git", ["clone", "--quiet", join(root, "origin"), dir], { encoding: "utf8" });
  if (clone.status !== 0) throw new Error(clone.stderr);
  return dir;
}

const shardJob = () => WORKFLOW.jobs.shard!;
const compareStep = () => shardJob().steps.find((s) => s.run?.startsWith("agentstream compare --plan"))!;
const mergeSteps = () => WORKFLOW.jobs.merge!.steps.filter((s) => s.run?.includes("shards/*"));

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "agentstream-compare-ci-"));
  const origin = join(root, "origin");
  mkdirSync(origin);
  writeFileSync(join(origin, "README.md"), "# a project\n");
  writeFileSync(join(origin, "compare.yaml"), PLAN);
  const git = (...args: string[]) => spawnSync("git", args, { cwd: origin, encoding: "utf8" });
  git("init", "--quiet");
  git("add", "--all");
  git("-c", "user.name=ci", "-c", "user.email=ci@localhost", "commit", "--quiet", "-m", "project");
  const bin = join(root, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "agentstream"), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
  env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH}`, NO_COLOR: "1", REPLAY_SPEED: "50" };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("examples/ci/compare-sharded.yml, its steps run", { timeout: 300_000 }, () => {
  it("each matrix job runs its shard; the merge job gives the rows of one unsharded compare and the job summary", () => {
    const shards = shardJob().strategy!.matrix.shard;
    const merge = join(root, "merge");
    for (const shard of shards) {
      const dir = checkout(`shard-${shard}`);
      const shardEnv = compareStep()
        // biome-ignore lint/suspicious/noTemplateCurlyInString: GitHub Actions expressions, not a template
        .env!.SHARD!.replace("${{ matrix.shard }}", String(shard))
        // biome-ignore lint/suspicious/noTemplateCurlyInString: GitHub Actions expressions, not a template
        .replace("${{ strategy.job-total }}", String(shards.length));
      const ran = step(compareStep().run!, dir, { SHARD: shardEnv });
      expect(ran.status, ran.stderr).toBe(0);
      // upload-artifact of `results`, then download-artifact of every shard into shards/<artifact name>/.
      cpSync(join(dir, "results"), join(merge, "shards", `compare-shard-${shard}`), { recursive: true });
    }
    const summary = join(merge, "summary.md");
    for (const s of mergeSteps()) {
      const ran = step(s.run!, merge, { GITHUB_STEP_SUMMARY: summary });
      expect(ran.status, `${s.run}\n${ran.stderr}`).toBe(0);
    }
    const whole = checkout("whole");
    const one = spawnSync(process.execPath, [BIN, "compare", "--plan", "compare.yaml", "--out", "results"], {
      cwd: whole,
      env,
      encoding: "utf8",
    });
    expect(one.status, one.stderr).toBe(0);
    // compare prints a row as its cell ends, a merge in the plan's order: the same rows, in cell id order here.
    const kept = (text: string) =>
      parseJsonl(text)
        .map((row) => Object.fromEntries(KEPT.map((key) => [key, row[key]])))
        .sort((a, b) => String(a.cell_id).localeCompare(String(b.cell_id)));
    const merged = kept(readFileSync(join(merge, "compare.jsonl"), "utf8"));
    expect(merged).toHaveLength(4);
    expect(merged).toEqual(kept(one.stdout));
    expect(merged.every((row) => row.passed === true)).toBe(true);
    const report = readFileSync(summary, "utf8");
    expect(report).toMatch(/^## agentstream compare\n\n4 of 4 cells passed\./);
    for (const row of merged) expect(report).toContain(`| ${row.cell_id} |`);
    expect(readFileSync(join(merge, "compare-report.html"), "utf8")).toMatch(/^<!DOCTYPE html>/i);
  });

  it("a shard left out: the merge step fails, naming its cells", () => {
    const merge = join(root, "merge");
    const left = join(merge, "shards", "compare-shard-2");
    const cells = readdirSync(join(left, "cells"));
    expect(cells.length).toBeGreaterThan(0);
    rmSync(left, { recursive: true, force: true });
    const ran = step(mergeSteps()[0]!.run!, merge);
    expect(ran.status).not.toBe(0);
    for (const cell of cells) expect(ran.stderr).toContain(`no folder holds the cell ${cell}`);
  });
});
