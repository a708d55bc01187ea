import { describeLiveTarget } from "./support/live-suite.js";

// pi 0.73's OpenAI SDK retries a lone HTTP 500 itself, so pi shows no retry for it.
describeLiveTarget("pi-0.73.1", {
  showsReasoning: true,
  retryNative: "auto_retry_start",
  showsRetryOfOne500: false,
  usageComplete: true,
});

describeLiveTarget("pi-0.84.4", {
  showsReasoning: true,
  retryNative: "auto_retry_start",
  showsRetryOfOne500: true,
  usageComplete: true,
});

describeLiveTarget("pi-1.6.0", {
  showsReasoning: true,
  retryNative: "auto_retry_start",
  showsRetryOfOne500: true,
  usageComplete: true,
});
