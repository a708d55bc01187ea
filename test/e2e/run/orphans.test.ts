import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { expectCanonical, isRunning, killRunningWith, Scratch } from "../../helpers/stand-in.js";

// What a backend leaves behind must not outlive agentstream, also under load:
// a backend done at once can have exited before agentstream gets to look at
// it, and the process it started in a session of its own (setsid) holding its
// stdout was then left running.

const scratch = new Scratch();
afterAll(() => scratch.remove());

const SETSID_AT_EXIT = fileURLToPath(new URL("../../fixtures/backends/setsid-at-exit.sh", import.meta.url));
const hasSetsid = process.platform === "linux" && spawnSync("setsid", ["true"]).status === 0;
const PARALLEL = 20;

describe.runIf(hasSetsid)("agentstream run: no orphans under parallel load", () => {
  it(`${PARALLEL} runs at once, each backend leaving a setsid process on its stdout as it exits: none left running`, {
    timeout: 120_000,
  }, async ({ onTestFinished }) => {
    // A sleep this long is ours alone: it names the processes this test started.
    const seconds = `1000.${process.pid}${Date.now() % 100_000}`;
    const pidFiles = Array.from({ length: PARALLEL }, () => scratch.path("escapee.pid"));
    // Also should the test time out.
    onTestFinished(() => void killRunningWith(seconds));
    const results = await Promise.all(
      pidFiles.map((pidFile) =>
        runCli(["run", "--backend", "pi", "--bin", SETSID_AT_EXIT, "--grace", "1", "x"], {
          env: { ESCAPEE_SECONDS: seconds, ESCAPEE_PID_FILE: pidFile },
        }),
      ),
    );
    for (const result of results)
      expect(expectCanonical(result).finished).toMatchObject({ backend_exit: { code: 0, signal: null } });
    // Each backend did start its escapee...
    expect(pidFiles.filter((file) => !existsSync(file))).toEqual([]);
    // ...and none of them is running now.
    expect(pidFiles.map((file) => Number(readFileSync(file, "utf8"))).filter(isRunning)).toEqual([]);
    expect(killRunningWith(seconds)).toEqual([]);
  });
});
