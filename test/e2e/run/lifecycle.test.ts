import { existsSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import {
  expectCanonical,
  expectNoneLeftRunning,
  nextOfType,
  Scratch,
  STAND_IN,
  startCli,
  transcript,
} from "../../helpers/stand-in.js";

// Signals, --timeout, --linger and what the backend leaves behind. Each test
// waits for a canonical line proving the backend is mid-run before it acts,
// and ends by checking that no stand-in (or grandchild) is left running.

const scratch = new Scratch();
afterAll(() => scratch.remove());

/** Wait until the stand-in has logged a signal (it does so as it receives it). */
async function signalLogged(log: string): Promise<string> {
  while (!existsSync(log) || readFileSync(log, "utf8") === "") await new Promise((resolve) => setTimeout(resolve, 10));
  return readFileSync(log, "utf8");
}

function midRun(backend: "evosci" | "atomic", knobs: Record<string, string>, extra: string[] = []) {
  const record = scratch.recordPath();
  const run = startCli(["run", "--backend", backend, "--bin", STAND_IN, ...extra, "a long task"], {
    env: {
      STANDIN_RECORD: record,
      STANDIN_TRANSCRIPT: transcript(backend === "evosci" ? "evosci-partial.jsonl" : "atomic-header.jsonl"),
      STANDIN_END: "hang",
      ...knobs,
    },
  });
  // evosci-partial ends with an open tool call; atomic-header is just the session header.
  const started = nextOfType(run, backend === "evosci" ? "tool.started" : "session.started");
  return { run, record, started };
}

/** Signal agentstream while the backend is mid-run; check the stream and that nothing is left running. */
async function signalMidRun(backend: "evosci" | "atomic", signal: NodeJS.Signals, knobs: Record<string, string> = {}) {
  const { run, record, started } = midRun(backend, knobs);
  await started;
  run.child.kill(signal);
  const result = await run.done;
  const stream = expectCanonical(result);
  return { result, ...stream, standIn: expectNoneLeftRunning(record) };
}

describe.concurrent("agentstream run: stopping the backend", () => {
  it("SIGINT → the backend gets its clean stop signal (EvoSci: SIGINT), run.finished cancelled, exit 130", async () => {
    const log = scratch.path("signals.log");
    const { result, events, finished } = await signalMidRun("evosci", "SIGINT", { STANDIN_SIGNAL_LOG: log });
    expect(result.code).toBe(130);
    expect(finished).toMatchObject({
      status: "cancelled",
      error: { code: "cancelled" },
      backend_exit: { code: 130, signal: null },
    });
    expect(events.find((e) => e.type === "tool.completed")).toMatchObject({ status: "cancelled", synthetic: true });
    expect(readFileSync(log, "utf8")).toBe("SIGINT\n");
    expect(result.stderr).toMatch(/■ cancelled by SIGINT after [^\n]* · exit 130\n/);
    expect(result.stderr).not.toContain("cancelled: cancelled");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("SIGINT → Atomic gets SIGTERM (it dies on SIGINT without cleanup), exit 130", async () => {
    const log = scratch.path("signals.log");
    const { result, finished } = await signalMidRun("atomic", "SIGINT", { STANDIN_SIGNAL_LOG: log });
    expect(finished).toMatchObject({ status: "cancelled", backend_exit: { code: 143 } });
    expect(result.code).toBe(130);
    expect(readFileSync(log, "utf8")).toBe("SIGTERM\n");
  });

  it("SIGTERM → run.finished cancelled, exit 143", async () => {
    const { result, finished } = await signalMidRun("atomic", "SIGTERM");
    expect(finished).toMatchObject({
      status: "cancelled",
      error: { code: "cancelled", message: "cancelled by SIGTERM" },
    });
    expect(result.code).toBe(143);
  });

  it("SIGHUP (the terminal went away) → cancelled like SIGTERM, exit 143; the backend does not outlive agentstream", async () => {
    const { result, finished } = await signalMidRun("evosci", "SIGHUP");
    expect(finished).toMatchObject({ status: "cancelled", error: { message: "cancelled by SIGHUP" } });
    expect(result.code).toBe(143);
  });

  it("a second SIGINT kills at once, without waiting for the grace period", async () => {
    const log = scratch.path("signals.log");
    // The backend ignores its stop signal and the grace period is far longer than the test may take.
    const { run, record, started } = midRun("evosci", { STANDIN_SIGNAL_LOG: log, STANDIN_IGNORE_SIGNALS: "1" }, [
      "--grace",
      "300",
    ]);
    await started;
    run.child.kill("SIGINT");
    await signalLogged(log);
    run.child.kill("SIGINT");
    const result = await run.done;
    expect(expectCanonical(result).finished).toMatchObject({
      status: "cancelled",
      backend_exit: { code: null, signal: "SIGKILL" },
    });
    expect(result.code).toBe(130);
    expectNoneLeftRunning(record);
  });

  it("the backend's own children are stopped with it", async () => {
    const { result, standIn } = await signalMidRun("evosci", "SIGINT", { STANDIN_GRANDCHILD: "hang" });
    expect(result.code).toBe(130);
    expect(standIn?.grandchild).toBeTypeOf("number");
  });

  it("--timeout → SIGTERM, run.finished timed_out, exit 124", async () => {
    const record = scratch.recordPath();
    const result = await runCli(["run", "--backend", "evosci", "--bin", STAND_IN, "--timeout", "0.3", "x"], {
      env: {
        STANDIN_RECORD: record,
        STANDIN_TRANSCRIPT: transcript("evosci-partial.jsonl"),
        STANDIN_END: "hang",
        STANDIN_GRANDCHILD: "hang",
      },
    });
    const { finished } = expectCanonical(result);
    expect(result.code).toBe(124);
    expect(finished).toMatchObject({
      status: "timed_out",
      error: { code: "timeout" },
      backend_exit: { code: null, signal: "SIGTERM" },
    });
    expectNoneLeftRunning(record);
  });

  it.each(["0.2", "0"])(
    "--timeout: a backend that ignores SIGTERM is killed after --grace %s (0: at once)",
    async (grace) => {
      const record = scratch.recordPath();
      // Long enough for the stand-in to have set its handlers even on a busy machine.
      const result = await runCli(
        ["run", "--backend", "atomic", "--bin", STAND_IN, "--timeout", "2", "--grace", grace, "x"],
        {
          env: {
            STANDIN_RECORD: record,
            STANDIN_TRANSCRIPT: transcript("atomic-header.jsonl"),
            STANDIN_END: "hang",
            STANDIN_SIGNAL_LOG: scratch.path(`signals-${grace}.log`),
            STANDIN_IGNORE_SIGNALS: "1",
          },
        },
      );
      expect(expectCanonical(result).finished).toMatchObject({
        status: "timed_out",
        backend_exit: { code: null, signal: "SIGKILL" },
      });
      expect(result.code).toBe(124);
      expectNoneLeftRunning(record);
    },
  );
});

describe.concurrent("agentstream run: after the backend's last event", () => {
  it("waits for the backend to exit by default (EvoSci's resume hint comes after done)", async () => {
    const record = scratch.recordPath();
    const result = await runCli(["run", "--backend", "evosci", "--bin", STAND_IN, "x"], {
      env: {
        STANDIN_RECORD: record,
        STANDIN_TRANSCRIPT: transcript("evosci-success.jsonl"),
        STANDIN_END_DELAY_MS: "300",
        STANDIN_STDERR_AT_END: "Goodbye!\n\nResume this session with:\nEvoSci --resume 5e1f00d2\n",
      },
    });
    const { finished } = expectCanonical(result);
    expect(result.code).toBe(0);
    expect(finished).toMatchObject({
      status: "succeeded",
      backend_exit: { code: 0, signal: null },
      resume: { session_id: "5e1f00d2" },
    });
    expectNoneLeftRunning(record);
  });

  it("--linger caps that wait: the backend is stopped and the outcome stays what done said", async () => {
    const record = scratch.recordPath();
    const result = await runCli(["run", "--backend", "evosci", "--bin", STAND_IN, "--linger", "0.1", "x"], {
      env: { STANDIN_RECORD: record, STANDIN_TRANSCRIPT: transcript("evosci-success.jsonl"), STANDIN_END: "hang" },
    });
    const { finished } = expectCanonical(result);
    expect(result.code).toBe(0);
    expect(finished).toMatchObject({
      status: "succeeded",
      backend_exit: { code: null, signal: "SIGINT" },
      result: { text: "There are two entries: README.md and data/." },
    });
    expectNoneLeftRunning(record);
  });

  it("--linger 0 stops the backend as soon as its terminal event arrives", async () => {
    const record = scratch.recordPath();
    const result = await runCli(["run", "--backend", "atomic", "--bin", STAND_IN, "--linger", "0", "x"], {
      env: { STANDIN_RECORD: record, STANDIN_TRANSCRIPT: transcript("atomic-success.jsonl"), STANDIN_END: "hang" },
    });
    expect(expectCanonical(result).finished).toMatchObject({
      status: "succeeded",
      backend_exit: { signal: "SIGTERM" },
      result: { text: "Hi there." },
    });
    expect(result.code).toBe(0);
    expectNoneLeftRunning(record);
  });

  it("a process the backend left holding stdout does not keep the run open, and is stopped", async () => {
    const record = scratch.recordPath();
    const result = await runCli(["run", "--backend", "evosci", "--bin", STAND_IN, "x"], {
      env: {
        STANDIN_RECORD: record,
        STANDIN_TRANSCRIPT: transcript("evosci-success.jsonl"),
        STANDIN_GRANDCHILD: "holds-stdout",
      },
    });
    expect(expectCanonical(result).finished).toMatchObject({
      status: "succeeded",
      backend_exit: { code: 0, signal: null },
    });
    expect(result.code).toBe(0);
    expect(expectNoneLeftRunning(record)?.grandchild).toBeTypeOf("number");
  });
});
