import { describeLiveTarget } from "./support/live-suite.js";

// Gemini CLI writes no thinking and no retry event in stream-json (retries are on its stderr only),
// gives no output for list_directory, and names a call "<tool>__<the model's call id>".
describeLiveTarget("gemini-0.61.0", {
  showsReasoning: false,
  showsRetryOfOne500: false,
  usageComplete: true,
  showsToolOutput: false,
  toolCallId: (call) => `${call.name}__${call.id}`,
});
