import { describe, expect, it } from "vitest";
import { runScenario } from "./support/live-run.js";
import { describeLiveTarget, targetsFor } from "./support/live-suite.js";
import { ANSWERS } from "./support/scenarios.mjs";

// Gemini CLI writes no thinking and no retry event in stream-json (retries are on its stderr only),
// gives no output for list_directory, and names a call "<tool>__<the model's call id>".
describeLiveTarget("gemini-0.61.0", {
  showsReasoning: false,
  showsRetryOfOne500: false,
  usageComplete: true,
  showsToolOutput: false,
  toolCallId: (call) => `${call.name}__${call.id}`,
});

// The issue's "429 retried" case, for this backend only so far (the other targets' captures predate it).
for (const gemini of targetsFor("gemini-0.61.0")) {
  describe(`${gemini.id} live, rate limited`, () => {
    it("recovers when HTTP 429 comes once", async () => {
      const run = await runScenario(gemini!, "retry429");
      expect(run.finished, run.stderr).toMatchObject({
        status: "succeeded",
        exit_code: 0,
        result: { text: ANSWERS.retry429 },
      });
      expect(run.exitCode).toBe(0);
      expect(run.server.requestsFor("retry429")).toHaveLength(2);
      expect(run.finished.usage).toMatchObject({
        input_tokens: run.server.usage.input_tokens,
        output_tokens: run.server.usage.output_tokens,
      });
    });
  });
}
