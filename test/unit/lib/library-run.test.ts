// The library's run(): the same supervision as `agentstream run`, as an async
// iterator, driven against the stand-in backend as a real process tree.
import { existsSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../../../src/lib/run.js";
import type { CanonicalEvent } from "../../../src/canonical/events.js";
import { UsageError } from "../../../src/core/errors.js";
import { runCli } from "../../helpers/cli.js";
import { expectNoneLeftRunning, openGate, Scratch, STAND_IN, transcript } from "../../helpers/stand-in.js";

const scratch = new Scratch();
afterAll(() => scratch.remove());

const standIn = (vars: Record<string, string>): NodeJS.ProcessEnv => ({ ...process.env, ...vars });

/** What does not depend on when or as which run it happened. */
function withoutClock(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutClock);
  if (typeof value !== "object" || value === null) return value;
  const kept = Object.entries(value).filter(([key]) => !["ts", "elapsed_ms", "run_id", "duration_ms"].includes(key));
  return Object.fromEntries(kept.map(([key, item]) => [key, withoutClock(item)]));
}

async function collect(events: AsyncIterable<CanonicalEvent>): Promise<CanonicalEvent[]> {
  const out: CanonicalEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe("library run()", () => {
  it("yields each event while the backend still runs, and ends with run.finished", async () => {
    const gate = await openGate();
    const record = scratch.recordPath();
    const events = run({
      backend: "evosci",
      bin: STAND_IN,
      prompt: "x",
      env: standIn({
        STANDIN_RECORD: record,
        STANDIN_TRANSCRIPT: transcript("evosci-steps.jsonl"),
        STANDIN_GATE_PORT: String(gate.port),
      }),
    });
    expect((await events.next()).value).toMatchObject({
      type: "run.started",
      command: [STAND_IN, "-p", "x", "--output-format", "stream-json"],
    });
    expect((await events.next()).value).toMatchObject({ type: "prompt.submitted", text: "x" });
    // Held at the gate after its first line: these events came while the backend ran.
    expect((await events.next()).value).toMatchObject({ type: "turn.started", synthetic: true });
    expect((await events.next()).value).toMatchObject({ type: "message.delta", text: "first" });
    for (let i = 0; i < 4; i++) gate.next();
    const rest = await collect({ [Symbol.asyncIterator]: () => events });
    await gate.close();
    expect(rest.at(-1)).toMatchObject({
      type: "run.finished",
      status: "succeeded",
      exit_code: 0,
      result: { text: "first" },
    });
    expectNoneLeftRunning(record);
  });

  it("gives the events the CLI writes for the same backend, envelope timing aside", async () => {
    const env = { STANDIN_TRANSCRIPT: transcript("evosci-success.jsonl"), STANDIN_STDERR_AT_END: "some stderr" };
    const cli = await runCli(["run", "--backend", "evosci", "--bin", STAND_IN, "--", "same prompt"], { env });
    const fromCli = cli.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown);
    const fromLibrary = await collect(
      run({ backend: "evosci", bin: STAND_IN, prompt: "same prompt", env: standIn(env) }),
    );
    expect(fromLibrary.length).toBeGreaterThan(3);
    expect(withoutClock(fromLibrary)).toEqual(withoutClock(fromCli));
  });

  it("aborting stops the backend its clean way (SIGINT for EvoScientist) and ends cancelled; nothing is left running", async () => {
    const record = scratch.recordPath();
    const signals = scratch.path("signals");
    const controller = new AbortController();
    const env = standIn({
      STANDIN_RECORD: record,
      STANDIN_SIGNAL_LOG: signals,
      STANDIN_GRANDCHILD: "hang",
      STANDIN_TRANSCRIPT: transcript("evosci-partial.jsonl"),
      STANDIN_END: "hang",
    });
    const seen: CanonicalEvent[] = [];
    for await (const event of run({ backend: "evosci", bin: STAND_IN, prompt: "x", env, signal: controller.signal })) {
      seen.push(event);
      // The first event of the backend's (run.started and the prompt come before it starts).
      if (event.type !== "run.started" && event.type !== "prompt.submitted") controller.abort();
    }
    expect(seen.at(-1)).toMatchObject({ type: "run.finished", status: "cancelled", error: { code: "cancelled" } });
    expect(readFileSync(signals, "utf8")).toContain("SIGINT");
    expectNoneLeftRunning(record);
  });

  it("leaving the loop early stops the backend and waits for it", async () => {
    const record = scratch.recordPath();
    const env = standIn({
      STANDIN_RECORD: record,
      STANDIN_GRANDCHILD: "hang",
      STANDIN_TRANSCRIPT: transcript("evosci-partial.jsonl"),
      STANDIN_END: "hang",
    });
    for await (const event of run({ backend: "evosci", bin: STAND_IN, prompt: "x", env })) {
      if (event.type !== "run.started" && event.type !== "prompt.submitted") break;
    }
    expect(existsSync(record)).toBe(true);
    expectNoneLeftRunning(record);
  });

  it("a request that cannot run throws a UsageError before anything starts; a missing backend ends backend_not_found", async () => {
    await expect(collect(run({ backend: "evosci", bin: STAND_IN, prompt: "x", model: "m" }))).rejects.toThrow(
      UsageError,
    );
    await expect(collect(run({ backend: "pi", bin: STAND_IN, prompt: "a\0b" }))).rejects.toThrow(/NUL/);
    const missing = await collect(run({ backend: "pi", bin: "/nonexistent/pi", prompt: "x" }));
    expect(missing.map((e) => e.type)).toEqual(["run.started", "prompt.submitted", "run.finished"]);
    expect(missing[2]).toMatchObject({ status: "failed", exit_code: 69, error: { code: "backend_not_found" } });
  });
});
