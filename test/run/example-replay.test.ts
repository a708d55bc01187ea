import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { expectCanonical } from "./helpers.js";

// The README's first command: `agentstream run` on the bundled replay of a recorded EvoScientist run.
const REPLAY = fileURLToPath(new URL("../../examples/replay-backend.mjs", import.meta.url));

describe("examples/replay-backend.mjs", () => {
  it("runs end to end through agentstream run and says it is a replay", async () => {
    const result = await runCli(["run", "--backend", "evosci", "--bin", REPLAY, "--verbose", "Summarize data/results.csv into notes.md"], {
      env: { REPLAY_SPEED: "200" },
    });
    const { events, finished } = expectCanonical(result);
    expect(result.code).toBe(0);
    expect(finished).toMatchObject({
      status: "succeeded",
      counts: { tool_calls: 6, tool_failures: 1, unparsed_lines: 0, unknown_events: 0 },
      resume: { session_id: "3f9c2a71" },
    });
    expect((finished.result as { text: string }).text).toMatch(/^Done: notes\.md summarizes the results\./);
    expect(events.some((e) => e.type === "subagent.started")).toBe(true);
    expect(result.stderr).toContain("[evosci] [replay] not a live agent");
  });
});
