// prompt.submitted (issue 48 item 3): what the user asked, written once, its secrets hidden before it is
// bounded, and left out entirely with promptInStream: false.
import { describe, expect, it } from "vitest";
import type { CanonicalEvent } from "../../../src/canonical/events.js";
import { wellFormed } from "../../../src/canonical/strict-json.js";
import { steppingClock } from "../../../src/core/clock.js";
import { MAX_PROMPT_EVENT_CHARS, shortenedPrompt } from "../../../src/core/prompt-text.js";
import { Redactor } from "../../../src/core/redactor.js";
import { TranslationSession, type TranslationSessionOptions } from "../../../src/core/translation-session.js";
import { TRANSLATORS } from "../../../src/backends/registry.js";
import { warnOfTranslatorBug } from "../../helpers/translate.js";

const SECRET = "s3cr3t-value-of-the-env";

function translate(from: string, lines: object[], options: Partial<TranslationSessionOptions> = {}): CanonicalEvent[] {
  const events: CanonicalEvent[] = [];
  const redactor = new Redactor([SECRET]);
  const session = new TranslationSession({
    from,
    translators: TRANSLATORS,
    runId: "run-test",
    clock: steppingClock(),
    agentstreamVersion: "0.0.0-test",
    started: { mode: options.prompt === undefined ? "normalize" : "run" },
    redact: (text) => redactor.text(text),
    onTranslatorBug: warnOfTranslatorBug,
    sink: (e) => events.push(e),
    ...options,
  });
  session.write(Buffer.from(lines.map((l) => `${JSON.stringify(l)}\n`).join("")));
  session.end({ backendExit: { code: 0, signal: null }, stderrTail: [] });
  return events;
}

const prompts = (events: CanonicalEvent[]) => events.filter((e) => e.type === "prompt.submitted");

// Each backend's native user message, as its recordings hold it.
const USER_MESSAGES: [string, object][] = [
  ["pi", { type: "message_end", message: { role: "user", content: [{ type: "text", text: "list the files" }] } }],
  ["atomic", { type: "message_end", message: { role: "user", content: "list the files" } }],
  ["gemini", { type: "message", role: "user", content: "list the files" }],
  [
    "copilot",
    { type: "user.message", data: { content: "list the files", transformedContent: "<now/>list the files" } },
  ],
  ["claude", { type: "user", message: { role: "user", content: "list the files" }, parent_tool_use_id: null }],
];

describe("prompt.submitted", () => {
  it.each(USER_MESSAGES)("normalize --from %s: the recording's user message is the prompt", (from, line) => {
    const found = prompts(translate(from, [line]));
    expect(found.map((e) => [e.type, (e as { text: string }).text, e.native])).toEqual([
      ["prompt.submitted", "list the files", (line as { type: string }).type],
    ]);
  });

  it.each(USER_MESSAGES)(
    "run --backend %s: the caller's prompt right after run.started, the echo not again",
    (from, line) => {
      const events = translate(from, [line], { prompt: `use ${SECRET} to list the files` });
      expect(events[1]).toMatchObject({ type: "prompt.submitted", text: "use [redacted] to list the files" });
      expect(events[1]!.native).toBeUndefined();
      expect(prompts(events)).toHaveLength(1);
    },
  );

  it.each(USER_MESSAGES)("promptInStream false (%s): no prompt in run or normalize", (from, line) => {
    expect(prompts(translate(from, [line], { promptInStream: false }))).toEqual([]);
    expect(prompts(translate(from, [line], { promptInStream: false, prompt: "list the files" }))).toEqual([]);
  });

  it("a sub-agent's user message (its task) is no prompt", () => {
    const line = { type: "user", message: { role: "user", content: "look around" }, parent_tool_use_id: "toolu_1" };
    expect(prompts(translate("claude", [line]))).toEqual([]);
  });

  it("a long prompt is cut at the bound with a marker and its whole size; a secret across the cut is hidden first", () => {
    // The secret at every offset around the cut: hidden before the cut, never half of it left.
    for (let at = MAX_PROMPT_EVENT_CHARS - SECRET.length - 2; at <= MAX_PROMPT_EVENT_CHARS + 2; at++) {
      const text = `${"a".repeat(at)}${SECRET}${"b".repeat(MAX_PROMPT_EVENT_CHARS)}`;
      const [event] = prompts(translate("gemini", [], { prompt: text })) as { text: string; bytes?: number }[];
      const whole = text.replace(SECRET, "[redacted]");
      // The prompt's own UTF-8 size, not the redacted text's (issue 53 item 10).
      expect(event!.bytes).toBe(Buffer.byteLength(text));
      expect(event!.text).toBe(
        `${whole.slice(0, MAX_PROMPT_EVENT_CHARS)}… [prompt shortened here: ${event!.bytes} bytes in all]`,
      );
      expect(event!.text).not.toContain(SECRET.slice(0, 6));
    }
  });

  it("bytes is the prompt's own UTF-8 size in run and normalize, whatever its secrets and characters", () => {
    const text = `é${SECRET}😀`.repeat(MAX_PROMPT_EVENT_CHARS / 8);
    const ran = prompts(translate("gemini", [], { prompt: text }));
    const read = prompts(translate("gemini", [{ type: "message", role: "user", content: text }]));
    for (const [event] of [ran, read] as { text: string; bytes?: number }[][]) {
      expect(event!.bytes).toBe(Buffer.byteLength(text));
      expect(event!.text).toMatch(
        new RegExp(`… \\[prompt shortened here: ${Buffer.byteLength(text)} bytes in all\\]$`),
      );
      expect(event!.text).not.toContain(SECRET);
    }
  });

  it("a prompt within the bound is whole, without bytes; a cut never splits a surrogate pair", () => {
    expect(shortenedPrompt("a".repeat(MAX_PROMPT_EVENT_CHARS), MAX_PROMPT_EVENT_CHARS)).toEqual({
      text: "a".repeat(MAX_PROMPT_EVENT_CHARS),
    });
    for (const pad of [0, 1]) {
      const cut = shortenedPrompt(`${"a".repeat(pad)}${"😀".repeat(MAX_PROMPT_EVENT_CHARS)}`, MAX_PROMPT_EVENT_CHARS);
      expect(wellFormed(cut.text)).toBe(cut.text);
      expect(cut.text.indexOf("…")).toBeLessThanOrEqual(MAX_PROMPT_EVENT_CHARS);
    }
  });
});
