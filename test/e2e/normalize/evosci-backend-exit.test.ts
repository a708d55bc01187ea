// `normalize --backend-exit` on EvoScientist recordings, through the built CLI,
// one value at a time, as docs/commands.md states it. EvoScientist always ends its
// stream with done or error, so a recording without either was cut short or
// its backend crashed: exit 76 whatever the exit code; the code only words the
// error and fills backend_exit. Before any event, a non-zero exit is a start-up
// failure; after done, 3 is a rubric that was not satisfied.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseJsonl, runCli } from "../../helpers/cli.js";

const GOLDEN = fileURLToPath(new URL("../../fixtures/golden/evosci/", import.meta.url));
const CUT = `${GOLDEN}no-terminal-exit-0.native.jsonl`;

async function normalize(file: string, backendExit?: string) {
  const args = [
    "normalize",
    "--from",
    "evosci",
    ...(backendExit === undefined ? [] : ["--backend-exit", backendExit]),
    file,
  ];
  const run = await runCli(args);
  const finished = parseJsonl(run.stdout).at(-1)!;
  expect(finished).toMatchObject({ type: "run.finished", exit_code: run.code });
  return { run, finished };
}

describe.concurrent("evosci: normalize --backend-exit on a recording cut before done", () => {
  it.each([
    ["0", { code: 0, signal: null }, "the backend exited with code 0 without a terminal event"],
    ["1", { code: 1, signal: null }, "the backend exited with code 1 without a terminal event"],
    ["SIGTERM", { code: null, signal: "SIGTERM" }, "the backend was killed by SIGTERM"],
    [undefined, null, "the stream ended without a terminal event"],
  ])("--backend-exit %s: failed, backend_crashed, exit 76, saying so", async (value, backendExit, message) => {
    const { run, finished } = await normalize(CUT, value);
    expect(run.code).toBe(76);
    expect(finished).toMatchObject({
      status: "failed",
      backend_exit: backendExit,
      error: { code: "backend_crashed", message, retryable: false },
    });
  });

  it("--backend-exit 1 before any event: a start-up failure (78), not a crash", async () => {
    const { run, finished } = await normalize(`${GOLDEN}startup-failure.native.jsonl`, "1");
    expect(run.code).toBe(78);
    expect(finished).toMatchObject({ status: "failed", error: { code: "backend_startup" } });
  });

  it("--backend-exit 3 after done with no verdict: the rubric was not checked (acceptance, exit 1)", async () => {
    const { run, finished } = await normalize(`${GOLDEN}rubric-no-verdict.native.jsonl`, "3");
    expect(run.code).toBe(1);
    expect(finished).toMatchObject({ status: "failed", error: { code: "acceptance" } });
    // Without the exit code, the same stream reads as the success it shows.
    expect((await normalize(`${GOLDEN}rubric-no-verdict.native.jsonl`)).run.code).toBe(0);
  });
});
