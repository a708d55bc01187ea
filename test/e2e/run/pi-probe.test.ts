import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import {
  expectCanonical,
  expectNoneLeftRunning,
  killAfterTest,
  readRecord,
  Scratch,
  STAND_IN,
  startCli,
  transcript,
} from "../../helpers/stand-in.js";

// A prompt starting with "-" makes agentstream ask pi its version first
// (`pi --version`). That probe is run like the backend: bounded in time,
// stopped with its process group and what holds its output, and a stop signal
// during it still ends the stream with run.started and run.finished cancelled.

const scratch = new Scratch();
afterAll(() => scratch.remove());

/** Wait until the probe has written its record (it is running, set up as asked). */
async function probeRunning(record: string): Promise<void> {
  while (!existsSync(record)) await new Promise((resolve) => setTimeout(resolve, 20));
}

const PI_RUN = ["run", "--backend", "pi", "--bin", STAND_IN, "--grace", "0.5", "--", "-a prompt"];

describe.concurrent("agentstream run: the pi --version probe", () => {
  it.for([
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const)(
    "%s during the probe (which ignores SIGTERM): run.started, run.finished cancelled, exit %i, the probe killed",
    async ([signal, code], { onTestFinished }) => {
      const probe = scratch.recordPath();
      const record = scratch.recordPath();
      const run = startCli(PI_RUN, {
        env: { STANDIN_VERSION_PROBE: "deaf", STANDIN_VERSION_RECORD: probe, STANDIN_RECORD: record },
      });
      killAfterTest(onTestFinished, run, probe, record);
      await probeRunning(probe);
      run.child.kill(signal);
      const result = await run.done;
      const { events, finished } = expectCanonical(result);
      expect(events.map((e) => e.type)).toEqual(["run.started", "prompt.submitted", "run.finished"]);
      expect(finished).toMatchObject({ status: "cancelled", backend_exit: null, error: { code: "cancelled" } });
      expect(result.code).toBe(code);
      expectNoneLeftRunning(probe);
      // The backend itself never started.
      expect(existsSync(record)).toBe(false);
    },
  );

  it("a probe that ignores SIGTERM is killed after its 10 s and --grace: the version is unknown, the prompt refused (exit 2)", {
    timeout: 60_000,
  }, async ({ onTestFinished }) => {
    const probe = scratch.recordPath();
    const run = startCli(PI_RUN, { env: { STANDIN_VERSION_PROBE: "deaf", STANDIN_VERSION_RECORD: probe } });
    killAfterTest(onTestFinished, run, probe);
    const result = await run.done;
    expectNoneLeftRunning(probe);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain('pi (version unknown) has no "--"');
  });

  it("a probe that answers and leaves a child holding its stdout: the run goes on at once, the child stopped", {
    timeout: 60_000,
  }, async ({ onTestFinished }) => {
    const probe = scratch.recordPath();
    const record = scratch.recordPath();
    const run = startCli(PI_RUN, {
      env: {
        STANDIN_VERSION_PROBE: "leaves-child",
        STANDIN_VERSION: "1.6.0",
        STANDIN_VERSION_RECORD: probe,
        STANDIN_RECORD: record,
        STANDIN_TRANSCRIPT: transcript("atomic-success.jsonl"),
      },
    });
    killAfterTest(onTestFinished, run, probe, record);
    const result = await run.done;
    expect(expectNoneLeftRunning(probe)?.grandchild).toBeTypeOf("number");
    expect(readRecord(record).argv.slice(-2)).toEqual(["--", "-a prompt"]);
    expect(expectCanonical(result).finished).toMatchObject({ status: "succeeded" });
    expect(result.code).toBe(0);
    expectNoneLeftRunning(record);
  });
});
