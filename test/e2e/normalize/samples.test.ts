// Every reference transcript (real Atomic and pi captures, reconstructed
// EvoScientist streams) through the built CLI: the outcome and exit code the
// contract gives for its scenario. The manifests give the backend's own exit
// code, which is an input here, never the expectation.
import { BACKEND_NAMES } from "../../../src/backends/registry.js";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { captureReader } from "../../helpers/capture-folders.js";
import { parseJsonl, runCli, SAMPLES } from "../../helpers/cli.js";
import { strictProblems } from "../../helpers/strict-schema.js";

interface Expected {
  status: string;
  exit: number;
  error?: string;
  retryable?: boolean;
  result?: string | null;
  /** With --output-schema (the manifest's output_schema): result.json, when the answer matched. */
  json?: unknown;
  counts?: Record<string, number>;
}

const ok = (result?: string | null, counts?: Record<string, number>): Expected => ({
  status: "succeeded",
  exit: 0,
  result,
  counts,
});
// A run that ended by its user's hand (an aborted turn): cancelled, exit 130, as every backend's.
const cancelled = (): Expected => ({
  status: "cancelled",
  exit: 130,
  error: "cancelled",
  retryable: false,
  result: null,
});
const failed = (exit: number, error: string, retryable = false): Expected => ({
  status: "failed",
  exit,
  error,
  retryable,
});

const EXPECTED: Record<string, Record<string, Expected>> = {
  atomic: {
    "text.jsonl": ok(),
    "tool.jsonl": ok("The directory contains a.txt and b.txt.", {
      tool_calls: 1,
      tool_failures: 0,
      turns: 2,
      messages: 2,
    }),
    "tools2.jsonl": ok(undefined, { tool_calls: 2 }),
    "toolerror.jsonl": ok(undefined, { tool_calls: 1, tool_failures: 1 }),
    "thinking.jsonl": ok("Hi there!"),
    "error400.jsonl": failed(1, "provider"),
    "error500.jsonl": failed(75, "provider", true),
    "retry500.jsonl": ok(undefined, { errors: 1, retries: 1 }),
    "overflow.jsonl": ok("Answer after overflow compaction.", { errors: 1 }),
    "compaction.jsonl": ok("Answer with a big context."),
    "session.jsonl": ok(),
    "sigterm.jsonl": failed(76, "backend_crashed"),
    "abort.jsonl": cancelled(),
    "nokey.jsonl": failed(77, "auth"),
    "badprovider.jsonl": failed(78, "config"),
  },
  pi: {
    "0.73.1-text.jsonl": ok("Hello from the fake model."),
    "0.73.1-tool.jsonl": ok("The directory contains a.txt and b.txt.", { tool_calls: 1 }),
    "0.73.1-error400.jsonl": failed(1, "provider"),
    "0.84.2-text.jsonl": ok(),
    "0.84.2-tool.jsonl": ok("The directory contains a.txt and b.txt.", { tool_calls: 1 }),
    "0.84.2-thinking.jsonl": ok(),
    "1.6.0-text.jsonl": ok(),
    "1.6.0-tool.jsonl": ok("The directory contains a.txt and b.txt.", { tool_calls: 1 }),
    "1.6.0-abort.jsonl": cancelled(),
    "1.6.0-toolerror.jsonl": ok(undefined, { tool_calls: 1, tool_failures: 1 }),
  },
  evosci: {
    "01-text-only.jsonl": ok(undefined, { messages: 1, tool_calls: 0 }),
    "02-tool-calls-one-failing.jsonl": ok(
      "Done. `notes.md` summarizes `data/results_v2.csv`: `ours+aug` is the best configuration (0.861 accuracy, 0.838 macro-F1), +4.9 points accuracy over the baseline.",
      { tool_calls: 5, tool_failures: 1, messages: 5 },
    ),
    "03-thinking-blocks.jsonl": ok(undefined, { tool_calls: 1 }),
    "05-tool-selection.jsonl": ok(undefined, { tool_calls: 1 }),
    "06-summarization-multi-usage.jsonl": ok(undefined, { tool_calls: 4 }),
    "07-no-auto-mode-hitl-interrupt.jsonl": { status: "needs_input", exit: 3 },
    "08-no-auto-mode-ask-user.jsonl": { status: "needs_input", exit: 3 },
    "09-error-midrun-provider.jsonl": failed(75, "overloaded", true),
  },
};

// Real captures of the current releases (npm run capture), the same scenarios for each.
// "slow" was stopped by a signal: a recording cannot tell that agentstream sent it, so it reads as a crash.
// A turn is one model call and the tools it calls, the same count for every backend (the manifests' model_requests).
const LIVE_SCENARIOS: Record<string, Expected> = {
  "text.jsonl": ok(undefined, { turns: 1 }),
  "tool.jsonl": ok(undefined, { tool_calls: 1, tool_failures: 0, turns: 2 }),
  "thinking.jsonl": ok(undefined, { turns: 1 }),
  "error400.jsonl": failed(1, "provider"),
  "retry500.jsonl": ok(),
  "error503.jsonl": failed(75, "overloaded", true),
  "slow.jsonl": failed(76, "backend_crashed"),
};
/**
 * Not in every release's captures: a rare ending added by hand to one release's folder (capture-claude.mjs
 * keeps them), a scenario newer than a capture (loop, structured).
 */
const NOT_IN_EVERY_CAPTURE = new Set([
  "slow-noresult.jsonl",
  "sigintTool-noresult.jsonl",
  "loop.jsonl",
  // --output-schema's, of the pins it was captured with (test/live/capture-output-schema.mjs).
  "structured.jsonl",
  "structuredbad.jsonl",
]);
// Captures beyond the standard scenarios, per backend.
const FINE = "The folder holds notes.txt and data.csv.";
const HELLO = "Hello from the fake model. All good.";
// --output-schema (the manifest names the schema): the same verdict for every backend, natively or by the prompt.
const VERDICT = { verdict: "pass", files: 2 };
const VERDICT_FENCED = `Here is the verdict.\n\n\`\`\`json\n${JSON.stringify(VERDICT)}\n\`\`\``;
const STRUCTURED = (text: string): Record<string, Expected> => ({
  "structured.jsonl": { ...ok(text), json: VERDICT },
  "structuredbad.jsonl": failed(1, "output_schema"),
});
const LIVE_EXTRA: Record<string, Record<string, Expected>> = {
  gemini: STRUCTURED(VERDICT_FENCED),
  copilot: {
    // SIGINT: exit 0, no result line, but its abort line says the run was stopped.
    "slow.jsonl": { status: "cancelled", exit: 130, error: "cancelled", retryable: false },
    "retry429.jsonl": ok("Recovered after one rate limit.", { retries: 1 }),
    // Copilot retries a 429 without Retry-After too.
    "bare429.jsonl": ok("Recovered after one rate limit.", { retries: 1 }),
    "toolfail.jsonl": ok("That file does not exist.", { tool_calls: 1, tool_failures: 1 }),
    // The 30 s command outlasts its 30 s shell timeout: Copilot makes a second call of its own to wait for it.
    "slowtool.jsonl": ok("The long command finished.", { tool_calls: 2, tool_failures: 0 }),
  },
  codex: {
    ...STRUCTURED(JSON.stringify(VERDICT)),
    "retry429.jsonl": ok("Recovered after one rate limit.", { retries: 1 }),
    // Codex retries a 429 only when it says when (Retry-After).
    "bare429.jsonl": { ...failed(75, "rate_limit", true), result: null },
    "toolfail.jsonl": ok("That file does not exist.", { tool_calls: 1, tool_failures: 1, turns: 2 }),
    // Codex stops waiting for a long command after ~10 s and answers; the command never completes on stdout.
    "slowtool.jsonl": ok("The long command finished.", { tool_calls: 1, tool_failures: 0 }),
  },
  opencode: {
    ...STRUCTURED(VERDICT_FENCED),
    // OpenCode retries a 429 with or without Retry-After, silently.
    "retry429.jsonl": ok("Recovered after one rate limit.", { retries: 0 }),
    "bare429.jsonl": ok("Recovered after one rate limit.", { retries: 0 }),
    // The command ran and exited 2: OpenCode says completed, with the exit status in its metadata.
    "toolfail.jsonl": ok("That file does not exist.", { tool_calls: 1, tool_failures: 1 }),
    "slowtool.jsonl": ok("The long command finished.", { tool_calls: 1, tool_failures: 0 }),
    // The model calls a tool LOOP_CALLS (5) times, then answers: 6 model calls.
    "loop.jsonl": ok(FINE, { tool_calls: 5, tool_failures: 0, turns: 6 }),
  },
  claude: {
    ...STRUCTURED(JSON.stringify(VERDICT)),
    "sigterm.jsonl": failed(76, "backend_crashed"),
    "sighup.jsonl": failed(76, "backend_crashed"),
    // SIGINT: exit 0, a result saying aborted_* or none at all; a recording reads both as a crash (live: cancelled).
    "slow-noresult.jsonl": failed(76, "backend_crashed"),
    "sigintTool.jsonl": failed(76, "backend_crashed"),
    "sigintTool-noresult.jsonl": failed(76, "backend_crashed"),
    "sigintRetry.jsonl": failed(76, "backend_crashed"),
    // A limit the caller set (--max-turns) ended the run: error.code "budget", as agentstream's own limits.
    "maxturns.jsonl": failed(1, "budget"),
    // The denied call is the approval the run needs: needs_input, never a silent success (paused: no result).
    "denied.jsonl": { status: "needs_input", exit: 3, result: null, counts: { tool_calls: 1, tool_failures: 1 } },
    "toolFails.jsonl": ok(FINE, { tool_calls: 1, tool_failures: 1 }),
    "twoTools.jsonl": ok(FINE, { tool_calls: 2, tool_failures: 0, turns: 2 }),
    "nopartial.jsonl": ok(FINE, { tool_calls: 1, messages: 2 }),
    // result.subtype "success" with is_error: the synthetic "API Error" text is no answer.
    "error401.jsonl": { ...failed(77, "auth"), result: null },
    "error403.jsonl": failed(77, "auth"),
    "nokey.jsonl": failed(77, "auth"),
    "error422.jsonl": failed(1, "provider"),
    "tooLong.jsonl": failed(1, "context_length"),
    "error429.jsonl": failed(75, "rate_limit", true),
    "retryAfter.jsonl": failed(75, "rate_limit", true),
    "error529.jsonl": failed(75, "overloaded", true),
    "error503default.jsonl": { ...failed(75, "overloaded", true), counts: { retries: 10 } },
    // Retried without streaming: the abandoned deltas are no message, the answer comes whole.
    "cut.jsonl": ok(HELLO, { messages: 1, retries: 2 }),
    "sseError.jsonl": ok(HELLO, { messages: 1, retries: 0 }),
    "error404.jsonl": ok(HELLO, { messages: 1 }),
    "retry429.jsonl": ok("Recovered after one rate limit.", { retries: 1 }),
    "retry529.jsonl": ok("Recovered after one overload.", { retries: 1 }),
    // The sub-agent's answer is its own message (forwarded with parent_tool_use_id), then the main answer.
    "subagent.jsonl": ok("The sub-agent says the folder holds notes.txt and data.csv.", { tool_calls: 1, messages: 2 }),
    // Continued three times after max_tokens, then given up: the four replies are messages, no result.
    "maxTokens.jsonl": { ...failed(1, "provider"), result: null, counts: { messages: 4 } },
  },
};
const LIVE = fileURLToPath(new URL("../../fixtures/live/", import.meta.url));

// Agents driven over the Agent Client Protocol (node test/live/capture-acp.mjs), read with --from acp:
// <agent>-acp-<version>/. A client's answer is not in the agent's stdout: "denied" (rejected, the turn goes on)
// ends as the agent ended it; "norule" (the client cancelled the turn at the request) needs input.
const ANSWERS_DENIED = "I was not allowed to create the file.";
const ACP_CANCELLED: Expected = { status: "cancelled", exit: 130, error: "cancelled", retryable: false };
const ACP_NEEDS_INPUT: Expected = { status: "needs_input", exit: 3, result: null, counts: { tool_calls: 1 } };
const ACP_SCENARIOS: Record<string, Expected> = {
  "text.jsonl": ok(HELLO, { turns: 1, messages: 1 }),
  "tool.jsonl": ok(FINE, { tool_calls: 1, tool_failures: 0, turns: 2 }),
  "norule.jsonl": ACP_NEEDS_INPUT,
  "error400.jsonl": { ...failed(1, "provider"), result: null },
  "error503.jsonl": failed(75, "overloaded", true),
  "slow.jsonl": ACP_CANCELLED,
};
const ACP_EXTRA: Record<string, Record<string, Expected>> = {
  // The rejected call is never shown (its permission request was its first sight); the model answers.
  gemini: { "denied.jsonl": ok(ANSWERS_DENIED, { tool_calls: 1, tool_failures: 0, turns: 1 }) },
  // Its errors only in message text: "Info: ... Retrying..." five times, then "Error: ... Last error: 503 ...".
  copilot: {
    "denied.jsonl": ok(null, { tool_calls: 1, tool_failures: 1 }),
    "error503.jsonl": { ...failed(75, "overloaded", true), counts: { retries: 5, messages: 0 } },
  },
  // It ends the turn after a rejected call, without asking the model again.
  opencode: { "denied.jsonl": ok(null, { tool_calls: 1, tool_failures: 1 }) },
  qwen: {
    // Its model asked for "ls", a tool it does not have: the call fails, the model answers.
    "tool.jsonl": ok(FINE, { tool_calls: 1, tool_failures: 1, turns: 2 }),
    "denied.jsonl": ok(null, { tool_calls: 1, tool_failures: 1 }),
    // A persistent 503 is retried past the capture's 4 minutes with no word on stdout: killed, no response.
    "error503.jsonl": failed(76, "backend_crashed"),
  },
};

interface ManifestEntry {
  file: string;
  /** The schema the run had (--output-schema), a file of the same folder. */
  output_schema?: string;
  exit_code: number | null;
  signal: string | null;
}

function checkTranscripts(dir: string, backend: string, expectations: Record<string, Expected>): void {
  const manifestPath = join(dir, "manifest.json");
  // Read strictly: a folder without its manifest fails here, never passes with nothing checked.
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as ManifestEntry[];
  it("the table covers every transcript", () => {
    const files = manifest.map((m) => m.file);
    const expected = Object.keys(expectations).filter(
      (file) => !NOT_IN_EVERY_CAPTURE.has(file) || files.includes(file),
    );
    expect(expected.sort()).toEqual(files.sort());
  });
  for (const entry of manifest) {
    const expected = expectations[entry.file];
    if (!expected) continue;
    it(`${entry.file} → ${expected.status}, exit ${expected.exit}`, async () => {
      const file = join(dir, entry.file);
      const stderrFile = file.replace(/\.jsonl$/, ".stderr.txt");
      const ended = entry.signal ?? String(entry.exit_code);
      const args = [
        "normalize",
        "--from",
        backend,
        "--backend-exit",
        ended,
        ...(existsSync(stderrFile) ? ["--stderr", stderrFile] : []),
        ...(entry.output_schema ? ["--output-schema", join(dir, entry.output_schema)] : []),
        file,
      ];
      const run = await runCli(args);
      // Nothing on stderr but, for a bad outcome, normalize's one summary line (no hint: --from matches the content).
      if (expected.exit === 0) expect(run.stderr).toBe("");
      else
        expect(run.stderr).toMatch(
          new RegExp(
            `^agentstream: [^\n]+: (empty input|\\d+ JSON events?[^\n]*), read as ${backend} \\(as given\\) · [^\n]* · exit ${expected.exit}\n$`,
          ),
        );
      expect(run.code).toBe(expected.exit);
      const events = parseJsonl(run.stdout);
      for (const event of events) expect(strictProblems(event), `seq ${String(event.seq)}`).toEqual([]);
      const finished = events.at(-1)!;
      expect(finished).toMatchObject({ type: "run.finished", status: expected.status, exit_code: expected.exit });
      if (expected.error) expect(finished.error).toMatchObject({ code: expected.error, retryable: expected.retryable });
      else expect(finished.error).toBeUndefined();
      if (expected.result !== undefined)
        expect(finished.result).toEqual(
          expected.result === null
            ? null
            : { text: expected.result, ...(expected.json ? { json: expected.json } : {}) },
        );
      if (expected.counts) expect(finished.counts).toMatchObject(expected.counts);
      const verified = await runCli(["verify"], { input: run.stdout });
      expect(verified.stderr).toMatch(/^ok/);
      expect(verified.code).toBe(0);
    });
  }
}

describe("reference samples", () => {
  for (const [folder, expectations] of Object.entries(EXPECTED)) {
    describe(folder, () => checkTranscripts(join(SAMPLES, folder), folder, expectations));
  }
});

describe("live captures", () => {
  for (const folder of readdirSync(LIVE)) {
    const backend = folder.split("-")[0]!;
    if (captureReader(folder) === "acp") {
      describe(folder, () => checkTranscripts(join(LIVE, folder), "acp", { ...ACP_SCENARIOS, ...ACP_EXTRA[backend] }));
      continue;
    }
    // Captured ahead of its translator (the protocol reference is written from them): nothing to check yet.
    if (!(BACKEND_NAMES as readonly string[]).includes(backend)) it.todo(`${folder}: ${backend} has no translator yet`);
    else {
      describe(folder, () =>
        checkTranscripts(join(LIVE, folder), backend, { ...LIVE_SCENARIOS, ...LIVE_EXTRA[backend] }),
      );
    }
  }
});
