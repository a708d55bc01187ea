// The one-line summaries (normalize's stderr line, the renderer's error lines) show a message's first line.
import { describe, expect, it } from "vitest";
import { firstLine } from "../../../src/human/format.js";
import { translate } from "../../helpers/translate.js";
import { normalizeSummary } from "../../../src/cli/normalize-summary.js";
import { Chalk } from "chalk";
import type { EventOf } from "../../../src/canonical/events.js";

const pretty =
  '{\n  "error": {\n    "message": "scenario error400: the request was rejected",\n    "type": "invalid_request_error"\n  }\n}';

describe("firstLine", () => {
  it("is the first line of a message of many lines", () => {
    expect(firstLine("Traceback (most recent call last):\n  File x")).toBe("Traceback (most recent call last):");
  });

  it("joins a pretty-printed JSON body, whose first line is only its opening brace", () => {
    expect(firstLine(pretty)).toBe(
      '{ "error": { "message": "scenario error400: the request was rejected", "type": "invalid_request_error" } }',
    );
    expect(firstLine(`Error code: 400 - ${pretty}`)).toMatch(/^Error code: 400 - \{ "error": \{ "message": "scenario/);
  });

  it("normalize's summary line shows what the error says, not `provider: {`", () => {
    const native = [
      '{"type":"thread.started","thread_id":"t1"}',
      '{"type":"turn.started"}',
      JSON.stringify({ type: "turn.failed", error: { message: pretty } }),
    ].join("\n");
    const { events } = translate(native, { from: "codex", end: { backendExit: { code: 1, signal: null } } });
    const finished = events.at(-1) as EventOf<"run.finished">;
    const content = {
      decided: { backend: "codex", detection: "detected" },
      showedNative: true,
      protocolFamily: "codex",
      canonicalEvents: 0,
      typesSeen: [],
    } as never;
    const line = normalizeSummary(
      {
        input: "x.jsonl",
        backend: "codex",
        detection: "given",
        content,
        bytesRead: native.length,
        nativeEvents: 3,
        finished,
        nativeSpanMs: null,
      },
      new Chalk({ level: 0 }),
    );
    expect(line).toMatch(/provider: \{ "error": \{ "message": "scenario error400: the request was rejected"/);
    expect(line).not.toMatch(/provider: \{ ·/);
  });
});
