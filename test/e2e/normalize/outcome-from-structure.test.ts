// Outcomes come from structure, not words (issue 53 item 9): a turn ends cancelled only where a structured field of
// its backend says its user aborted it (docs/canonical-stream.md "Outcome rules"), never because an error's message
// holds "aborted". Each backend's recording, normalized by the built CLI: a failure worded "Aborted: ..." is failed
// (exit 1); the structured abort beside it is cancelled (130).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseJsonl, runCli } from "../../helpers/cli.js";

const WORDS = "Aborted: required dependency `npm` is missing; cannot continue.";
const lines = (...objects: unknown[]) => objects.map((o) => `${JSON.stringify(o)}\n`).join("");
const golden = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../../fixtures/golden/${name}.native.jsonl`, import.meta.url)), "utf8");

const ACP_START = [
  { jsonrpc: "2.0", id: 0, result: { protocolVersion: 1, agentInfo: { name: "some-agent", version: "1.0.0" } } },
  { jsonrpc: "2.0", id: 1, result: { sessionId: "s1" } },
];

/** Each backend's recording of a failure in those words, and of its user's abort as its structure says it. */
const CASES: { backend: string; words: string; structure?: string }[] = [
  {
    backend: "codex",
    words: lines(
      { type: "thread.started", thread_id: "t1" },
      { type: "turn.started" },
      { type: "turn.failed", error: { message: WORDS } },
    ),
  },
  {
    backend: "claude",
    words: lines(
      { type: "system", subtype: "init", session_id: "s1", model: "m" },
      { type: "result", subtype: "error_during_execution", is_error: true, session_id: "s1", errors: [WORDS] },
    ),
  },
  {
    backend: "gemini",
    words: lines(
      { type: "init", session_id: "s1", model: "m" },
      { type: "result", status: "error", error: { type: "Error", message: WORDS } },
    ),
    structure: lines(
      { type: "init", session_id: "s1", model: "m" },
      { type: "result", status: "error", error: { type: "FatalCancellationError", message: "Operation cancelled." } },
    ),
  },
  {
    backend: "opencode",
    words: lines({ type: "error", sessionID: "s1", error: { name: "UnknownError", data: { message: WORDS } } }),
    structure: lines({
      type: "error",
      sessionID: "s1",
      error: { name: "MessageAbortedError", data: { message: "The operation was aborted." } },
    }),
  },
  {
    backend: "atomic",
    // pi's own words for a request it stopped, but its stopReason says "error": a failure.
    words: golden("atomic/atomic-error400").replace(
      /"errorMessage":"(?:[^"\\]|\\.)*"/g,
      `"errorMessage":"Request was aborted"`,
    ),
    structure: golden("atomic/atomic-error400")
      .replace(/"errorMessage":"(?:[^"\\]|\\.)*"/g, `"errorMessage":"Request was aborted"`)
      .replaceAll('"stopReason":"error"', '"stopReason":"aborted"'),
  },
  { backend: "evosci", words: lines({ type: "text", content: "Installing." }, { type: "error", message: WORDS }) },
  {
    backend: "copilot",
    words: lines(
      { type: "session.error", data: { errorType: "query", message: WORDS } },
      { type: "result", sessionId: "s1", exitCode: 1 },
    ),
  },
  {
    backend: "acp",
    words: lines(...ACP_START, { jsonrpc: "2.0", id: 2, error: { code: -32603, message: WORDS } }),
  },
];

async function normalize(backend: string, recording: string) {
  const run = await runCli(["normalize", "--from", backend, "-"], { input: recording });
  return { run, finished: parseJsonl(run.stdout).at(-1)! };
}

describe("a failure worded 'aborted' is failed, not cancelled", () => {
  it.each(CASES.map((c) => [c.backend, c.words] as const))("%s", async (backend, recording) => {
    const { run, finished } = await normalize(backend, recording);
    expect(finished).toMatchObject({ type: "run.finished", status: "failed", exit_code: 1 });
    expect((finished.error as { code: string }).code).not.toMatch(/^(aborted|cancelled)$/);
    expect(run.code).toBe(1);
  });
});

describe("the user's abort as its backend's structure says it is cancelled", () => {
  it.each(CASES.filter((c) => c.structure).map((c) => [c.backend, c.structure!] as const))(
    "%s",
    async (backend, recording) => {
      const { run, finished } = await normalize(backend, recording);
      expect(finished).toMatchObject({ status: "cancelled", exit_code: 130, error: { code: "cancelled" } });
      expect(run.code).toBe(130);
    },
  );
});
