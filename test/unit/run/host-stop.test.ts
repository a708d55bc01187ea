// A host that stops its run for a reason of its own (a compare's stop signal or spent budget) aborts the
// run's AbortSignal with a HostStop: the run ends as that says, not as a plain abort (cancelled).
import { describe, expect, it } from "vitest";
import type { EventOf } from "../../../src/canonical/events.js";
import { run } from "../../../src/index.js";
import { HostStop } from "../../../src/run/host.js";
import { COMPARE_AGENT } from "../../helpers/compare.js";

async function stoppedWith(reason: unknown): Promise<EventOf<"run.finished">> {
  const stop = new AbortController();
  let finished: EventOf<"run.finished"> | undefined;
  // The stand-in takes 30 s unless it is stopped.
  for await (const event of run({
    backend: "claude",
    bin: COMPARE_AGENT,
    model: "x-sleep-30000",
    prompt: "go",
    signal: stop.signal,
  })) {
    if (event.type === "session.started") stop.abort(reason);
    if (event.type === "run.finished") finished = event;
  }
  return finished!;
}

describe("a run stopped by its host", () => {
  it("for the budget: failed, error budget with the host's words, exit 1", { timeout: 30_000 }, async () => {
    const finished = await stoppedWith(new HostStop({ kind: "budget", message: "max-total-cost-usd 1 reached" }));
    expect(finished).toMatchObject({
      status: "failed",
      exit_code: 1,
      error: { code: "budget", message: "max-total-cost-usd 1 reached" },
    });
  });

  it("for a stop signal: cancelled by that signal (SIGTERM: exit 143)", { timeout: 30_000 }, async () => {
    const finished = await stoppedWith(new HostStop({ kind: "signal", signal: "SIGTERM" }));
    expect(finished).toMatchObject({ status: "cancelled", exit_code: 143 });
  });

  it("any other reason is a plain abort: cancelled, exit 130", { timeout: 30_000 }, async () => {
    const finished = await stoppedWith(new Error("the caller's own"));
    expect(finished).toMatchObject({ status: "cancelled", exit_code: 130 });
  });
});
