// A translator that throws on a native event is a bug in agentstream: the
// event is kept whole as backend.event, the bug is reported, and the run
// goes on to its usual end.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CanonicalEvent } from "../src/canonical/events.js";
import { normalizeStream } from "../src/lib/normalize.js";
import { EvosciTranslator } from "../src/backends/evosci/translator.js";
import type { NativeEvent } from "../src/core/translator.js";
import { parseJsonl, runCli } from "./helpers/cli.js";
import { translate } from "./helpers/translate.js";

const BREAK_TRANSLATOR = new URL("./fixtures/break-translator.mjs", import.meta.url).href;

const STREAM = [
  { type: "text", content: "Looking." },
  { type: "tool_call", id: "t1", name: "read_file", args: { path: "a" } },
  { type: "text", content: "Done." },
  { type: "done", response: "Done." },
]
  .map((e) => JSON.stringify(e))
  .join("\n");

function breakOn(type: string): void {
  const original = EvosciTranslator.prototype.translate;
  vi.spyOn(EvosciTranslator.prototype, "translate").mockImplementation(function (
    this: EvosciTranslator,
    event: NativeEvent,
  ) {
    if (event.type === type) throw new Error("boom");
    return original.call(this, event);
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a translator that throws", () => {
  it("keeps the event as backend.event, reports the bug, and ends the run as usual", () => {
    breakOn("tool_call");
    const bugs: string[] = [];
    const { events, outcome } = translate(STREAM, { from: "evosci", onTranslatorBug: (m) => bugs.push(m) });

    const kept = events.filter((e) => e.type === "backend.event");
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({
      native: "tool_call",
      native_type: "tool_call",
      raw: { type: "tool_call", id: "t1", name: "read_file" },
    });
    expect(events.some((e) => e.type === "tool.started")).toBe(false);
    expect(bugs).toEqual(['bug: translating a "tool_call" event failed (boom); it is kept as backend.event']);
    expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "succeeded", counts: { unknown_events: 1 } });
    expect(outcome.exitCode).toBe(0);
  });

  it("is reported as a process warning when no one listens for it", () => {
    breakOn("text");
    const warnings: string[] = [];
    const spy = vi
      .spyOn(process, "emitWarning")
      .mockImplementation((w: string | Error) => void warnings.push(String(w)));
    const { events } = translate(STREAM, { from: "evosci" });
    expect(spy).toHaveBeenCalled();
    expect(warnings[0]).toContain('translating a "text" event failed (boom)');
    expect(events.filter((e) => e.type === "backend.event")).toHaveLength(2);
    expect(events.at(-1)?.type).toBe("run.finished");
  });

  it("through the library, tells onTranslatorBug and keeps the event", async () => {
    breakOn("tool_call");
    const bugs: string[] = [];
    const events: CanonicalEvent[] = [];
    for await (const event of normalizeStream([STREAM], { from: "evosci", onTranslatorBug: (m) => bugs.push(m) }))
      events.push(event);
    expect(bugs).toHaveLength(1);
    expect(events.filter((e) => e.type === "backend.event")).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "succeeded" });
  });

  it("in the built CLI, says so on stderr and still ends with run.finished and exit 0", async () => {
    const result = await runCli(["normalize", "--from", "evosci", "-"], {
      input: STREAM,
      env: { NODE_OPTIONS: `--import ${BREAK_TRANSLATOR}` },
    });
    expect(result.stderr).toContain(
      'agentstream: bug: translating a "tool_call" event failed (boom); it is kept as backend.event',
    );
    const events = parseJsonl(result.stdout);
    expect(events.filter((e) => e.type === "backend.event")).toMatchObject([{ native_type: "tool_call" }]);
    expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "succeeded" });
    expect(result.code).toBe(0);
  });
});
