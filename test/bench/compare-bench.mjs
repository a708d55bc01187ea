// Issue 55 item 11: `agentstream compare` of N cells of a replay agent (--parallel 4, each cell in a git
// worktree) against the same N `agentstream run`s driven by `xargs -P 4` in a shell, the loop a user writes
// today, with the same workspaces: the loop makes a worktree per run too, keeps its stdout, stderr and diff
// in files of their own as compare keeps each cell's, and removes the worktree. (`--workspace none` would
// run compare's cells one at a time: they would share one folder.) Alternating rounds, medians, at 25, 50
// and 100 cells. Targets: compare's time per cell ≤ 1.1× the loop's, its peak RSS flat in the number of
// cells. The agent is examples/replay-backend.mjs (a recorded EvoScientist run, no model called) played
// REPLAY_SPEED times faster: paced like an agent, fast enough that agentstream's own share shows.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { canMeasureResources, measureAlternating, measureProcess } from "./measure-process.mjs";
import { median } from "./stats.mjs";

const REPLAY = fileURLToPath(new URL("../../examples/replay-backend.mjs", import.meta.url));
// The recording lasts 12.8 s: 0.64 s a cell.
const REPLAY_SPEED = 20;
const PARALLEL = 4;
const CELLS = [25, 50, 100];
// compare alone, once, past the loop's sizes: whether its peak RSS still grows once its heap has settled.
const MEMORY_CELLS = [400];
const PROMPT = "Summarize data/results.csv into notes.md";
const TIME_TARGET = 1.1;
// The repository the cells work in: a small project, committed.
const FILES = 40;

/**
 * The loop, run in the repository: per cell a detached worktree of HEAD (added and removed one at a time,
 * as compare does: each writes the repository's list of worktrees), `agentstream run` in it, its stdout
 * and stderr to $OUT/<cell>.jsonl and .stderr, what it changed to $OUT/<cell>.patch; PARALLEL cells at once.
 */
const LOOP = `#!/bin/sh
seq 1 "$CELLS" | xargs -P "$PARALLEL" -I{} sh -c '
wt="$WORK/{}"
flock .git/bench.lock git worktree add --quiet --detach "$wt" HEAD || exit 1
(cd "$wt" && exec "$NODE" "$BIN" run --backend evosci --bin "$REPLAY" "$PROMPT" >"$OUT/{}.jsonl" 2>"$OUT/{}.stderr")
status=$?
git -C "$wt" add --all && git -C "$wt" diff --cached --binary HEAD >"$OUT/{}.patch"
flock .git/bench.lock git worktree remove --force "$wt"
exit $status'
`;

/** A fresh repository of FILES small files, one commit. */
function scratchRepository(dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(`${dir}/src`, { recursive: true });
  for (let i = 0; i < FILES; i++)
    writeFileSync(`${dir}/src/module-${i}.js`, `export const value${i} = ${i};\n`.repeat(50));
  writeFileSync(`${dir}/README.md`, "# scratch\n");
  const git = (...args) => execFileSync("git", args, { cwd: dir, stdio: "ignore" });
  git("init", "--quiet");
  git("add", "--all");
  git("-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "--quiet", "-m", "scratch");
}

const fresh = (dir) => () => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
};

/** Each of the loop's runs ended with a successful run.finished. */
function loopSucceeded(dir, cells) {
  const streams = readdirSync(dir).filter((name) => name.endsWith(".jsonl"));
  if (streams.length !== cells) return false;
  return streams.every((name) => {
    const last = JSON.parse(readFileSync(`${dir}/${name}`, "utf8").trimEnd().split("\n").pop());
    return last.type === "run.finished" && last.status === "succeeded";
  });
}

/** compare printed one row per cell and exited 0: every cell succeeded. */
function compareSucceeded(result, cells) {
  try {
    return result.code === 0 && result.outLines === cells && JSON.parse(result.lastLine).passed === true;
  } catch {
    return false;
  }
}

/** Per number of cells: medians of compare and of the loop over alternating rounds, per cell, and peak RSS. */
export async function measureCompare({ bin, cacheDir, rounds, log, cells: sizes = CELLS, memoryCells = MEMORY_CELLS }) {
  const dir = `${cacheDir}compare-bench/`;
  const [repo, work, compareOut, loopOut] = ["repo", "work", "compare-out", "loop-out"].map((d) => `${dir}${d}`);
  scratchRepository(repo);
  mkdirSync(work, { recursive: true });
  const loop = `${dir}loop.sh`;
  writeFileSync(loop, LOOP);
  const env = [`REPLAY_SPEED=${REPLAY_SPEED}`];
  // The agent alone, once: the floor of every cell, and a peak RSS that no side's largest process is below.
  const agent = await measureProcess("env", [
    ...env,
    process.execPath,
    REPLAY,
    "-p",
    PROMPT,
    "--output-format",
    "stream-json",
  ]);
  if (agent.code !== 0) throw new Error(`compare bench: the replay agent failed: ${agent.stderr}`);
  const rows = [];
  const runs = [
    ...sizes.map((cells) => ({ cells, loop: true })),
    ...memoryCells.map((cells) => ({ cells, loop: false })),
  ];
  for (const { cells, loop: withLoop } of runs) {
    const programs = {
      compare: {
        command: "env",
        args: [
          ...env,
          process.execPath,
          bin,
          "compare",
          "--backend",
          "evosci",
          "--bin",
          REPLAY,
          "--repeat",
          String(cells),
          "--parallel",
          String(PARALLEL),
          "--workspace",
          "worktree",
          "--out",
          compareOut,
          PROMPT,
        ],
        cwd: repo,
        // A new --out each round: the same one would resume, every cell already done.
        prepare: () => rmSync(compareOut, { recursive: true, force: true }),
        check: (r) => compareSucceeded(r, cells),
      },
      "xargs -P loop": {
        command: "env",
        args: [
          ...env,
          `CELLS=${cells}`,
          `PARALLEL=${PARALLEL}`,
          `NODE=${process.execPath}`,
          `BIN=${bin}`,
          `REPLAY=${REPLAY}`,
          `PROMPT=${PROMPT}`,
          `WORK=${work}`,
          `OUT=${loopOut}`,
          "sh",
          loop,
        ],
        cwd: repo,
        prepare: fresh(loopOut),
        check: (r) => r.code === 0 && loopSucceeded(loopOut, cells),
      },
    };
    if (!withLoop) delete programs["xargs -P loop"];
    const n = !withLoop ? 1 : cells === Math.max(...sizes) ? rounds : Math.max(1, rounds - 1);
    const { results, seconds } = await measureAlternating(programs, n, `compare ${cells} cells`, log);
    const peak = (name) =>
      canMeasureResources && results[name] ? median(results[name].map((r) => r.peakRssMiB)) : undefined;
    const cpu = (name) =>
      canMeasureResources && results[name] ? median(results[name].map((r) => r.cpuSeconds)) : undefined;
    const compare = median(seconds.compare);
    const shell = withLoop ? median(seconds["xargs -P loop"]) : undefined;
    rows.push({
      cells,
      parallel: PARALLEL,
      rounds: n,
      seconds: { compare, loop: shell },
      per_cell_seconds: { compare: compare / cells, loop: shell && shell / cells },
      ratio: shell && compare / shell,
      target: TIME_TARGET,
      cpu_seconds: { compare: cpu("compare"), loop: cpu("xargs -P loop") },
      peak_rss_mib: { compare: peak("compare"), loop: peak("xargs -P loop") },
      all: seconds,
    });
  }
  for (const d of [compareOut, loopOut, work, repo]) rmSync(d, { recursive: true, force: true });
  return {
    replay_speed: REPLAY_SPEED,
    workspace: "worktree",
    agent: { seconds: agent.seconds, peak_rss_mib: agent.peakRssMiB },
    rows,
  };
}

export function formatCompare({ agent, rows }) {
  const s = (x) => (x === undefined ? "-" : `${x.toFixed(2)} s`);
  const mib = (x) => (x === undefined ? "-" : `${Math.round(x)} MiB`);
  const ms = (x) => (x === undefined ? "-" : `${(x * 1000).toFixed(0)} ms`);
  const head = [
    `Compare: \`agentstream compare\` of N cells of a replay agent (${s(agent.seconds)} and ${mib(agent.peak_rss_mib)} alone), \`--parallel ${PARALLEL}\`, a worktree each, against the same N \`agentstream run\`s under \`xargs -P ${PARALLEL}\`, a worktree each (medians; target ≤ ${TIME_TARGET}× per cell, peak RSS flat; ${MEMORY_CELLS.join(", ")} cells: compare alone, once):`,
    "",
    "| cells | compare | loop | per cell: compare / loop | compare / loop | CPU per cell: compare / loop | peak RSS: compare / loop |",
    "|---|---|---|---|---|---|---|",
  ];
  const perCell = (x, cells) => (x === undefined ? undefined : x / cells);
  return head
    .concat(
      rows.map(
        (row) =>
          `| ${row.cells} | ${s(row.seconds.compare)} | ${s(row.seconds.loop)} | ${s(row.per_cell_seconds.compare)} / ${s(row.per_cell_seconds.loop)} | ${row.ratio === undefined ? "-" : `${row.ratio.toFixed(2)}×`} | ${ms(perCell(row.cpu_seconds.compare, row.cells))} / ${ms(perCell(row.cpu_seconds.loop, row.cells))} | ${mib(row.peak_rss_mib.compare)} / ${mib(row.peak_rss_mib.loop)} |`,
      ),
    )
    .join("\n");
}
