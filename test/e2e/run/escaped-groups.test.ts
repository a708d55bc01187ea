import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { expectCanonical, isRunning, killRunningWith, Scratch } from "../../helpers/stand-in.js";

// A backend's child that made a process group of its own and holds none of the
// backend's stdio (OpenCode's shell commands) is stopped with the backend, when
// agentstream stops it: it is found among the backend's descendants before the
// backend dies (its children then become init's).

const scratch = new Scratch();
afterAll(() => scratch.remove());

const OWN_GROUP_CHILD = fileURLToPath(new URL("../../fixtures/backends/own-group-child.sh", import.meta.url));
const hasSetsid = process.platform === "linux" && spawnSync("setsid", ["true"]).status === 0;

// The next pid the kernel hands out can be set (as root, in a checkpoint/restore capable namespace): a pid reuse made on purpose.
const NEXT_PID = "/proc/sys/kernel/ns_last_pid";
const canSetNextPid = ((): boolean => {
  try {
    writeFileSync(NEXT_PID, readFileSync(NEXT_PID, "utf8"));
    return true;
  } catch {
    return false;
  }
})();

/** A process of the test's own (not the backend's), with pid `pid`, leading a process group of that id; undefined if others took the pid first. */
async function takePid(pid: number, token: string): Promise<ChildProcess | undefined> {
  for (let attempt = 0; attempt < 50; attempt++) {
    writeFileSync(NEXT_PID, String(pid - 1));
    // detached: setsid, so it leads a new group (and session) whose id is its pid.
    const child = spawn("sleep", [token], { detached: true, stdio: "ignore" });
    if (child.pid === pid) return child;
    child.kill("SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > 20_000) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

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

  it.runIf(canSetNextPid)(
    "a stopped own-group child's id, taken meanwhile by an unrelated process's group, is not signalled again",
    { timeout: 60_000 },
    async ({ onTestFinished, skip }) => {
      const seconds = `900.${process.pid}${Date.now() % 100_000}`;
      const impostorToken = `901.${process.pid}${Date.now() % 100_000}`;
      const pidFile = scratch.path("reused-escapee.pid");
      onTestFinished(() => void killRunningWith(seconds));
      onTestFinished(() => void killRunningWith(impostorToken));
      // The backend ignores SIGTERM: it is SIGKILLed 4 s after --timeout's SIGTERM, which stops its own-group child at once.
      const run = runCli(
        ["run", "--backend", "evosci", "--bin", OWN_GROUP_CHILD, "--timeout", "2", "--grace", "4", "x"],
        { env: { ESCAPEE_SECONDS: seconds, ESCAPEE_PID_FILE: pidFile, ESCAPEE_BACKEND_IGNORES_TERM: "1" } },
      );
      await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", "the escapee's pid");
      const escapee = Number(readFileSync(pidFile, "utf8"));
      // Stopped by the timeout and reaped: its pid is free.
      await until(() => !existsSync(`/proc/${escapee}`), "the escapee stopped and reaped");
      const impostor = await takePid(escapee, impostorToken);
      if (impostor === undefined) {
        await run;
        return skip(`pid ${escapee} was taken by another process before this test could take it`);
      }
      const result = await run;
      expect(expectCanonical(result).finished).toMatchObject({ status: "timed_out", exit_code: 124 });
      expect(isRunning(impostor.pid!)).toBe(true);
      expect(killRunningWith(seconds)).toEqual([]);
    },
  );
});
