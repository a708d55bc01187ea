// Several `agentstream run`s in one throw-away home against one fake model
// server: a run, then the same session continued (--continue-from the first
// run's stream), as the next CI step would.
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, parseJsonl } from "../../helpers/cli.js";
import { runArgsFor, withScenarioHome } from "./backend-home.mjs";
import type { CanonicalLine, LiveRun, LiveTarget, ScenarioName, ServerRecord } from "./live-run.js";
import { SCENARIOS } from "./scenarios.mjs";
import { spawnCollect } from "../../helpers/live/spawn-collect.mjs";

const RUN_TIMEOUT_SECONDS = 300;

/** One step: its options (the stream file of an earlier step by `streamOf(i)`), and its prompt (default: the scenario's). */
export interface Step {
  args: (streamOf: (step: number) => string) => string[];
  prompt?: string;
  /** Leave out --backend (--continue-from names it). */
  noBackend?: boolean;
  /** The step is to be refused before start: no stream is expected (its run is exit code and stderr only). */
  refused?: boolean;
}

export interface StepsRun {
  runs: LiveRun[];
  /** The files of the working directory after each step. */
  files: string[][];
}

/** Run the steps in order in one home; each one's stdout is kept in a file for the next. */
export function runSteps(target: LiveTarget, scenario: ScenarioName, steps: Step[]): Promise<StepsRun> {
  return withScenarioHome(
    target.backend,
    scenario,
    async (home: { root: string; cwd: string; env: Record<string, string> }, server: ServerRecord) => {
      const streamOf = (step: number): string => join(home.root, `step-${step}.jsonl`);
      const runs: LiveRun[] = [];
      const files: string[][] = [];
      for (const [i, step] of steps.entries()) {
        const args = [
          BIN,
          "run",
          ...(step.noBackend ? [] : ["--backend", target.backend]),
          "--bin",
          target.executable,
          "--cwd",
          home.cwd,
          ...runArgsFor(target.backend, scenario, home),
          "--timeout",
          String(RUN_TIMEOUT_SECONDS),
          ...step.args(streamOf),
          step.prompt ?? SCENARIOS[scenario].prompt,
        ];
        const result = await spawnCollect(process.execPath, args, { env: home.env });
        writeFileSync(streamOf(i), result.stdout);
        const events = parseJsonl(result.stdout) as CanonicalLine[];
        const finished = events.at(-1) ?? {};
        if (finished.type !== "run.finished" && !step.refused)
          throw new Error(`step ${i}: no run.finished\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
        runs.push({
          events,
          finished,
          exitCode: result.exitCode,
          stdout: result.stdout,
          stderr: result.stderr,
          server,
        });
        files.push(readdirSync(home.cwd));
      }
      return { runs, files };
    },
  );
}
