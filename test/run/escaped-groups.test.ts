import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { expectCanonical, isRunning, killRunningWith, Scratch } from "./helpers.js";

// A backend's child that made a process group of its own and holds none of the
// backend's stdio (OpenCode's shell commands) is stopped with the backend, when
// agentstream stops it: it is found among the backend's descendants before the
// backend dies (its children then become init's).

const scratch = new Scratch();
afterAll(() => scratch.remove());

const OWN_GROUP_CHILD = fileURLToPath(new URL("../fixtures/backends/own-group-child.sh", import.meta.url));
const hasSetsid = process.platform === "linux" && spawnSync("setsid", ["true"]).status === 0;

describe.runIf(hasSetsid)("agentstream run: a child in a process group of its own", () => {
  it("stopped by --timeout, the backend's own-group child is not left running", { timeout: 60_000 }, async ({
    onTestFinished,
  }) => {
    const seconds = `900.${process.pid}${Date.now() % 100_000}`;
    const pidFile = scratch.path("escapee.pid");
    onTestFinished(() => void killRunningWith(seconds));
    const result = await runCli(
      ["run", "--backend", "evosci", "--bin", OWN_GROUP_CHILD, "--timeout", "2", "--grace", "1", "x"],
      { env: { ESCAPEE_SECONDS: seconds, ESCAPEE_PID_FILE: pidFile } },
    );
    expect(expectCanonical(result).finished).toMatchObject({ status: "timed_out", exit_code: 124 });
    expect(existsSync(pidFile)).toBe(true);
    expect(isRunning(Number(readFileSync(pidFile, "utf8")))).toBe(false);
    expect(killRunningWith(seconds)).toEqual([]);
  });
});
