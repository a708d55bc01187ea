// The Codex translator's and definition's key facts, stated explicitly. The golden
// files under test/fixtures/golden/codex/ pin every line; this file says what matters.
import { describe, expect, it } from "vitest";
import type { CanonicalEvent, EventOf, EventType } from "../../../../src/canonical/events.js";
import { codex } from "../../../../src/backends/codex/index.js";
import { detectProtocolOwner } from "../../../../src/backends/registry.js";
import { UsageError } from "../../../../src/core/errors.js";
import { NO_STOPS } from "../../../../src/run/stop-signals.js";

const PROBE = { env: {}, graceMs: 0, stops: NO_STOPS };
import { translate, type TranslateOptions } from "../../../helpers/translate.js";
import { argvOf, type ArgvRequest } from "../../../helpers/backend-argv.js";

const lines = (...events: object[]) => events.map((e) => `${JSON.stringify(e)}\n`).join("");
const exit = (code: number): TranslateOptions["end"] => ({ backendExit: { code, signal: null }, stderrTail: [] });

function run(native: string, code = 0) {
  const { events } = translate(native, { from: "codex", end: exit(code) });
  const of = <T extends EventType>(type: T) => events.filter((e): e is EventOf<T> & CanonicalEvent => e.type === type);
  return { events, finished: events.at(-1) as EventOf<"run.finished">, of };
}

const THREAD = { type: "thread.started", thread_id: "t-1" };
const TURN = { type: "turn.started" };
const message = (id: string, text: string) => ({ type: "item.completed", item: { id, type: "agent_message", text } });
const usage = (input: number, cached: number, output: number) => ({
  type: "turn.completed",
  usage: {
    input_tokens: input,
    cached_input_tokens: cached,
    cache_write_input_tokens: 0,
    output_tokens: output,
    reasoning_output_tokens: 0,
  },
});

describe("codex translator", () => {
  it("the result is the last agent message; narration before a tool call is not", () => {
    const command = {
      id: "item_2",
      type: "command_execution",
      command: "ls",
      aggregated_output: "",
      exit_code: null,
      status: "in_progress",
    };
    const { finished } = run(
      lines(
        THREAD,
        TURN,
        message("item_1", "Let me look."),
        { type: "item.started", item: command },
        { type: "item.completed", item: { ...command, status: "completed", exit_code: 0 } },
        usage(10, 0, 2),
      ),
    );
    expect(finished).toMatchObject({ status: "succeeded", exit_code: 0, result: null });
  });

  it("turn.failed: failed, no answer, one error event although the error line repeats it", () => {
    const error = "unexpected status 401 Unauthorized: bad key, url: http://127.0.0.1:1/v1/responses";
    const { finished, of } = run(
      lines(
        THREAD,
        TURN,
        message("item_1", "partial"),
        { type: "error", message: error },
        { type: "turn.failed", error: { message: error } },
      ),
      1,
    );
    expect(finished).toMatchObject({ status: "failed", exit_code: 77, result: null, error: { code: "auth" } });
    expect(of("error")).toHaveLength(1);
  });

  it("a raw provider error body is Codex's HTTP 400: a provider error with its status", () => {
    const body = JSON.stringify({
      error: { message: "bad field", type: "invalid_request_error", param: null, code: null },
    });
    const { finished, of } = run(
      lines(THREAD, TURN, { type: "error", message: body }, { type: "turn.failed", error: { message: body } }),
      1,
    );
    expect(finished).toMatchObject({ status: "failed", exit_code: 1, error: { code: "provider", retryable: false } });
    expect(of("error")).toEqual([expect.objectContaining({ code: "provider", http_status: 400, retryable: false })]);
  });

  it("retry notices are retries, not errors", () => {
    const { finished, of } = run(
      lines(
        THREAD,
        TURN,
        { type: "error", message: "Reconnecting... 1/5 (unexpected status 502 Bad Gateway: x)" },
        message("item_1", "ok"),
        usage(10, 0, 2),
      ),
    );
    expect(finished).toMatchObject({ status: "succeeded", result: { text: "ok" }, counts: { errors: 0, retries: 1 } });
    expect(of("retry.started")[0]).toMatchObject({
      attempt: 1,
      max_attempts: 5,
      error: "unexpected status 502 Bad Gateway: x",
    });
    expect(of("retry.completed")[0]).toMatchObject({ success: true, attempt: 1 });
  });

  it("usage: the thread's running total is counted once; a later total adds only its increase", () => {
    const { finished, of } = run(
      lines(THREAD, TURN, message("item_1", "a"), usage(100, 60, 20), TURN, message("item_2", "b"), usage(150, 90, 25)),
    );
    expect(of("usage").map((u) => [u.scope, u.input_tokens, u.cache_read_input_tokens, u.output_tokens])).toEqual([
      ["run", 100, 60, 20],
      ["run", 50, 30, 5],
    ]);
    expect(finished.usage).toMatchObject({ input_tokens: 150, cache_read_input_tokens: 90, output_tokens: 25 });
  });

  it("a stream that opens with thread.started is detected as codex's", () => {
    expect(detectProtocolOwner(THREAD)).toBe("codex");
  });
});

describe("codex definition", () => {
  const request = (over: Partial<ArgvRequest>): ArgvRequest => ({
    prompt: "hi",
    backendArgs: [],
    promptTerminator: true,
    ...over,
  });

  it("puts the prompt after --, so a prompt starting with - stays a prompt", async () => {
    expect(await codex.promptTerminator("codex", "-x", PROBE)).toBe(true);
    expect(argvOf(codex, request({ prompt: "-x", backendArgs: ["--sandbox", "workspace-write"] }))).toEqual([
      "exec",
      "--json",
      "--skip-git-repo-check",
      "--sandbox",
      "workspace-write",
      "--",
      "-x",
    ]);
  });

  it("maps --model, --provider (a -c model_provider TOML string) and --workdir", () => {
    expect(argvOf(codex, request({ model: "gpt-5.5", provider: "fake", workdir: "/w" }))).toEqual([
      "exec",
      "--json",
      "--skip-git-repo-check",
      "--model",
      "gpt-5.5",
      "-c",
      'model_provider="fake"',
      "--cd",
      "/w",
      "--",
      "hi",
    ]);
  });

  it('refuses the prompt "-", which codex would read from the (empty) stdin', () => {
    expect(() => codex.promptTerminator("codex", "-", PROBE)).toThrow(UsageError);
  });

  it("is stopped with SIGTERM (SIGINT can be swallowed) and has no --no-auto-mode", () => {
    expect(codex.stopSignal).toBe("SIGTERM");
    expect("lacks" in codex.supports.autoMode).toBe(true);
  });
});

describe("codex turns: one model call and the tool calls it asked for", () => {
  const cmd = (phase: "item.started" | "item.completed", id: string) => ({
    type: phase,
    item: { id, type: "command_execution", command: "ls", aggregated_output: "", status: "completed", exit_code: 0 },
  });
  const turnsOf = (native: string) =>
    run(native)
      .events.filter(
        (e) =>
          e.type === "turn.started" ||
          e.type === "turn.completed" ||
          e.type.startsWith("tool.") ||
          e.type === "message.completed",
      )
      .map((e) => (e.type.startsWith("turn.") ? `${e.type}:${(e as EventOf<"turn.started">).turn}` : e.type));

  it("a prompt's turn of two sequential commands and an answer is three model calls", () => {
    const native = lines(
      THREAD,
      TURN,
      cmd("item.started", "a"),
      cmd("item.completed", "a"),
      cmd("item.started", "b"),
      cmd("item.completed", "b"),
      message("m", "done"),
      usage(10, 0, 5),
    );
    expect(turnsOf(native)).toEqual([
      "turn.started:1",
      "tool.started",
      "tool.completed",
      "turn.completed:1",
      "turn.started:2",
      "tool.started",
      "tool.completed",
      "turn.completed:2",
      "turn.started:3",
      "message.completed",
      "turn.completed:3",
    ]);
    expect(run(native).finished.counts.turns).toBe(3);
  });

  it("words before a call and calls running together are one model call", () => {
    const native = lines(
      THREAD,
      TURN,
      message("m1", "Let me look."),
      cmd("item.started", "a"),
      cmd("item.started", "b"),
      cmd("item.completed", "a"),
      cmd("item.completed", "b"),
      message("m2", "done"),
      usage(10, 0, 5),
    );
    expect(run(native).finished.counts.turns).toBe(2);
  });

  it("a stream cut mid-call still closes its turn", () => {
    const native = lines(THREAD, TURN, cmd("item.started", "a"));
    const { of } = run(native, 130);
    expect(of("turn.started").length).toBe(of("turn.completed").length);
  });
});
