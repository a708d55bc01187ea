// Claude Code's definition and the outcomes its traps must give (docs/protocols/claude.md).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { claude } from "../src/backends/claude/index.js";
import { detectBackend } from "../src/backends/registry.js";
import { translate } from "./helpers/translate.js";

const LIVE = new URL("./fixtures/live/claude-2.1.332/", import.meta.url);
const capture = (name: string): string => readFileSync(new URL(`${name}.jsonl`, LIVE), "utf8");
const request = { prompt: "-x starts with a dash", autoMode: true, backendArgs: ["--allowedTools", "Bash"], promptTerminator: true };

describe("claude definition", () => {
  it("puts the prompt last, after --, even after a variadic backend flag", () => {
    const argv = claude.argv({ ...request, model: "sonnet" });
    expect(argv.slice(0, 5)).toEqual(["-p", "--output-format", "stream-json", "--verbose", "--include-partial-messages"]);
    expect(argv.slice(-4)).toEqual(["--allowedTools", "Bash", "--", "-x starts with a dash"]);
    expect(argv).toContain("sonnet");
  });

  it("is detected from its first line, init or --bare's ui_invalidate", () => {
    expect(detectBackend({ type: "system", subtype: "init" })).toBe("claude");
    expect(detectBackend({ type: "system", subtype: "ui_invalidate" })).toBe("claude");
  });
});

describe("claude outcomes", () => {
  it("an aborted result after agentstream's SIGTERM is cancelled with 143, as without the result", () => {
    for (const name of ["slow", "slow-noresult"]) {
      const { outcome } = translate(capture(name), { from: "claude", end: { backendExit: { code: 0, signal: null } }, interruption: { kind: "signal", signal: "SIGTERM" } });
      expect(outcome).toMatchObject({ status: "cancelled", exitCode: 143, resultText: null });
    }
  });

  it("the synthetic API Error text never becomes the answer, whatever subtype says", () => {
    const { events, outcome } = translate(capture("error400"), { from: "claude", end: { backendExit: { code: 1, signal: null } } });
    expect(outcome).toMatchObject({ status: "failed", resultText: null, error: { code: "provider" } });
    expect(events.filter((e) => e.type === "message.completed")).toEqual([]);
  });

  it("abandoned deltas of a broken stream get no message.completed; the answer comes once", () => {
    const { events } = translate(capture("cut"), { from: "claude", end: { backendExit: { code: 0, signal: null } } });
    const completed = events.filter((e) => e.type === "message.completed");
    expect(completed.map((e) => (e as { text: string }).text)).toEqual(["Hello from the fake model. All good."]);
  });
});
