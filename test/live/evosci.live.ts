import { describeLiveTarget } from "./support/live-suite.js";

// Through an OpenAI-compatible provider EvoScientist 0.3.8 drops `reasoning_content`,
// leaves a lone HTTP 500 to the OpenAI SDK's silent retry, and reports main-agent usage only.
describeLiveTarget("evosci-0.3.8", {
  showsReasoning: false,
  retryNative: "model_retry",
  showsRetryOfOne500: false,
  usageComplete: false,
});
