import { describe, expect, it } from "vitest";
import type { ErrorCode } from "../../../src/canonical/events.js";
import { classifyStartupFailure } from "../../../src/core/classify.js";
import { classifyError } from "../../../src/backends/classification.js";
import { exitCodeFor } from "../../../src/core/exit-codes.js";

describe("classifyError", () => {
  it.each([
    // EvoScientist: the Python SDKs' "Error code: N - {...}"
    ["Error code: 529 - {'type': 'error', 'error': {'type': 'overloaded_error'}}", "overloaded", true, 529],
    ["Error code: 401 - {'error': {'message': 'invalid x-api-key'}}", "auth", false, 401],
    ["Error code: 429 - rate limited", "rate_limit", true, 429],
    ["Error code: 500 - internal", "provider", true, 500],
    // Atomic and pi >= 0.84: "400: {json}"
    ['400: {"message":"Invalid request"}', "provider", false, 400],
    [
      '400: {"message":"This model\'s maximum context length is 8192 tokens.","code":"context_length_exceeded"}',
      "context_length",
      false,
      400,
    ],
    ['500: {"message":"The server had an error"}', "provider", true, 500],
    ['503: {"message":"unavailable"}', "overloaded", true, 503],
    // pi 0.73: "400 message"
    ["400 Invalid request: fake provider rejected the prompt", "provider", false, 400],
    ["403 Forbidden", "auth", false, 403],
    ["request failed with status code 502", "provider", true, 502],
    // OpenRouter's errors carry the status as "(code: N)".
    ["Provider returned error (code: 429)", "rate_limit", true, 429],
    ["Provider returned error (code: 502)", "provider", true, 502],
    ["Invalid model (code: 400)", "provider", false, 400],
    // A used-up quota is a 429 that waiting does not cure.
    [
      "Error code: 429 - {'error': {'message': 'You exceeded your current quota, please check your plan and billing details.', 'type': 'insufficient_quota', 'code': 'insufficient_quota'}}",
      "provider",
      false,
      429,
    ],
    [
      "Error code: 400 - {'type': 'error', 'error': {'type': 'invalid_request_error', 'message': 'Your credit balance is too low to access the Anthropic API.'}}",
      "provider",
      false,
      400,
    ],
    ["503: Error code: 503 - scenario error503: the service is overloaded", "overloaded", true, 503],
    // Copilot CLI's session.error (issue 37): its API's error class, then the status.
    ["CAPIError: 400 The requested model is not supported.", "provider", false, 400],
    ["CAPIError: 503 Service Unavailable", "overloaded", true, 503],
    ["Internal error: API Error: 400 scenario error400: the request was rejected", "provider", false, 400],
    ["Internal error: API Error: 529 Overloaded", "overloaded", true, 529],
    // A status after "failed: " (issue 45: OpenCode's token refresh), alone or before its words.
    ["Token refresh failed: 401", "auth", false, 401],
    ["Request failed: 503 Service Unavailable", "overloaded", true, 503],
  ])("%s → %s", (message, code, retryable, status) => {
    expect(classifyError(message)).toEqual({ code, retryable, http_status: status });
  });

  it.each([
    ["connect ECONNREFUSED 127.0.0.1:443", "network", true],
    ["fetch failed", "network", true],
    ["Rate limit reached for requests", "rate_limit", true],
    ["Overloaded", "overloaded", true],
    // Issue 53: no word says a user aborted (a run whose backend says so ends cancelled); these are failures.
    ["Request was aborted", "unknown", false],
    ["Aborted: required dependency `npm` is missing; cannot continue.", "unknown", false],
    ["No API key found for openai.", "auth", false],
    ["prompt is too long: 210000 tokens > 200000 maximum", "context_length", false],
    // Issue 17: finish reasons and error words with no HTTP status.
    ["Provider finish_reason: network_error", "network", true],
    ["Provider finish_reason: overloaded", "overloaded", true],
    ["Provider finish_reason: overloaded_error", "overloaded", true],
    ["Provider finish_reason: rate_limit_exceeded", "rate_limit", true],
    ["Provider finish_reason: context_length_exceeded", "context_length", false],
    ["network_error", "network", true],
    ["{'type': 'error', 'error': {'type': 'overloaded_error', 'message': 'Overloaded'}}", "overloaded", true],
    ["rate_limit_exceeded", "rate_limit", true],
    ["context_length_exceeded", "context_length", false],
    ["read ECONNRESET", "network", true],
    ["connect ETIMEDOUT 10.0.0.1:443", "network", true],
    ["TypeError: fetch failed", "network", true],
    ["socket hang up", "network", true],
    ["Provider finish_reason: timeout", "network", true],
    ["Recursion limit of 25 reached without hitting a stop condition.", "unknown", false],
    ["", "unknown", false],
    // EvoScientist 0.3.8: what its error event says for the failures its own retry
    // (middleware/model_retry.py) judges transient or not, once the retries ran out.
    ["The model ended its response with finish_reason=error (the provider reported a failure)", "provider", true],
    [
      "ModelErrorFinishError: The model ended its response with finish_reason=error (the provider reported a failure)",
      "provider",
      true,
    ],
    ["{'type': 'error', 'error': {'type': 'api_error', 'message': 'Internal server error'}}", "provider", true],
    [
      "{'error': {'message': 'The server had an error processing your request.', 'type': 'server_error'}}",
      "provider",
      true,
    ],
    ["Connection error.", "network", true],
    ["Request timed out.", "network", true],
    ["APIConnectionError: Connection error.", "network", true],
    ["peer closed connection without sending complete message body (incomplete chunked read)", "network", true],
    ["Server disconnected without sending a response.", "network", true],
    ["('Connection aborted.', RemoteDisconnected('Remote end closed connection without response'))", "network", true],
    ["Cannot connect to host api.example.com:443 ssl:default [Connection reset by peer]", "network", true],
    ["[Errno -3] Temporary failure in name resolution", "network", true],
    ["RESOURCE_EXHAUSTED", "rate_limit", true],
    // Deterministic: a retry does not help.
    [
      "The model exhausted its output budget during reasoning and returned no answer (finish reason: length). Lower reasoning_effort, disable reasoning with none when supported, or increase the provider output-token limit.",
      "provider",
      false,
    ],
    ["This request exceeds the model's context_window_exceeded limit", "context_length", false],
    ["max_tokens_exceeded", "context_length", false],
    ["Your credit balance is too low to access the Anthropic API.", "provider", false],
  ])("%s → %s (from the words)", (message, code, retryable) => {
    expect(classifyError(message)).toEqual({ code, retryable });
  });

  // Issue 25: a file the agent may not touch is its tool's failure (exit 1), not the credentials' (auth, exit 77).
  it.each([
    ["Permission denied: cannot write to /etc/hosts", "tool"],
    ["EACCES: permission denied, open '/srv/app/notes.md'", "tool"],
    ["bash: line 1: /usr/local/bin/x: Permission denied", "tool"],
    ["rm: cannot remove '/sys/x': Operation not permitted", "tool"],
    ["OSError: [Errno 30] Read-only file system: '/app/out.txt'", "tool"],
    ["Write to /etc is forbidden by the sandbox policy", "unknown"],
    // What model APIs say of credentials stays auth.
    ["invalid x-api-key", "auth"],
    ["Unauthorized", "auth"],
    ["authentication_error: invalid bearer token", "auth"],
    ["PERMISSION_DENIED: Method doesn't allow unregistered callers", "auth"],
    ["permission_error: Your API key does not have permission to use the specified resource.", "auth"],
    ["Invalid API key · Please run /login", "auth"],
  ])("%s → %s (a file's permission or the credentials)", (message, code) => {
    expect(classifyError(message).code).toBe(code);
  });

  it("does not read a number inside the text as a status", () => {
    expect(classifyError("the model produced 400 tokens and stopped").code).toBe("unknown");
    expect(classifyError("RangeError: 400 tokens is more than the limit of 300").code).toBe("unknown");
  });
});

describe("classifyStartupFailure", () => {
  it.each([
    ["No API key found for openai.\n\nUse /login to log into a provider", "auth"],
    ['Error: Unknown provider "nope". Use --list-models to see available providers/models.', "config"],
    ["Error: Unknown option --frobnicate", "config"],
    ["usage: EvoSci [-h] [-p PROMPT] ...\nEvoSci: error: argument --output-format: invalid choice", "config"],
    ["Traceback (most recent call last):\n  ...\nRuntimeError: agent build failed", "backend_startup"],
  ])("%s → %s", (stderr, kind) => {
    expect(classifyStartupFailure(stderr)).toBe(kind);
  });
});

describe("exitCodeFor (the contract's table)", () => {
  const failed = (code: ErrorCode, retryable = false) => exitCodeFor("failed", { code, retryable });
  it("maps every outcome to its code", () => {
    expect(exitCodeFor("succeeded")).toBe(0);
    expect(failed("provider")).toBe(1);
    expect(failed("aborted")).toBe(1);
    expect(exitCodeFor("needs_input")).toBe(3);
    expect(failed("backend_not_found")).toBe(69);
    expect(failed("rate_limit", true)).toBe(75);
    expect(failed("provider", true)).toBe(75);
    expect(failed("backend_crashed")).toBe(76);
    expect(failed("backend_protocol")).toBe(76);
    expect(failed("auth")).toBe(77);
    expect(failed("config")).toBe(78);
    expect(failed("backend_startup")).toBe(78);
    expect(exitCodeFor("timed_out")).toBe(124);
    expect(exitCodeFor("cancelled", undefined, "SIGINT")).toBe(130);
    expect(exitCodeFor("cancelled", undefined, "SIGTERM")).toBe(143);
  });
});
