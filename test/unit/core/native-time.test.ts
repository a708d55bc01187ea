// A recording's own timing survives normalize: native_ts carries the time a native
// event states, tool.completed the backend's own duration, and the tool-timeline
// recipe prefers them over agentstream's clock (which in normalize is replay time).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { CanonicalEvent } from "../../../src/canonical/events.js";
import { nativeTime } from "../../../src/core/fields.js";
import { parseJsonl, runCli, SAMPLES } from "../../helpers/cli.js";
import { translate } from "../../helpers/translate.js";

const TIMELINE = fileURLToPath(new URL("../../../examples/jq/tool-timeline.jq", import.meta.url));
const LIVE = fileURLToPath(new URL("../../fixtures/live/", import.meta.url));
const SCRATCH = mkdtempSync(join(tmpdir(), "agentstream-native-time-"));

const iso = (ms: number): string => new Date(ms).toISOString();
// biome-ignore lint/suspicious/noExplicitAny: native lines of every shape
const nativeLines = (file: string): Record<string, any>[] => parseJsonl(readFileSync(file, "utf8"));

describe("nativeTime", () => {
  it("reads RFC 3339 strings and epoch milliseconds, written as UTC with milliseconds", () => {
    expect(nativeTime("2026-12-02T13:07:13.702Z")).toBe("2026-12-02T13:07:13.702Z");
    expect(nativeTime("2026-12-02T15:07:13+02:00")).toBe("2026-12-02T13:07:13.000Z");
    expect(nativeTime("2026-12-02T13:07:13.70234Z")).toBe("2026-12-02T13:07:13.702Z");
    expect(nativeTime(1796216833814)).toBe("2026-12-02T13:07:13.814Z");
  });

  it("a time already in UTC with milliseconds is kept as it is only on a day that exists (the fast path checks each new day once)", () => {
    expect(nativeTime("2026-12-03T12:55:41.707Z")).toBe("2026-12-03T12:55:41.707Z");
    expect(nativeTime("2026-12-03T23:59:59.999Z")).toBe("2026-12-03T23:59:59.999Z");
    // Same shape, but Date moves it: the day after 2026-02-28, and hour 24.
    for (const [given, utc] of [
      ["2026-02-30T00:00:00.000Z", "2026-03-02T00:00:00.000Z"],
      ["2026-12-03T24:00:00.000Z", "2026-12-04T00:00:00.000Z"],
    ] as const) {
      expect(nativeTime(given)).toBe(utc);
      expect(nativeTime(given)).toBe(utc);
    }
    expect(nativeTime("2026-02-28T10:00:00.000Z")).toBe("2026-02-28T10:00:00.000Z");
    expect(nativeTime("2026-02-30T10:00:00.000Z")).toBe("2026-03-02T10:00:00.000Z");
    expect(nativeTime("2026-12-03T23:60:00.000Z")).toBeUndefined();
  });

  it("anything else is not reported", () => {
    for (const v of [
      "yesterday",
      "2026-12-02",
      "2026-13-02T00:00:00Z",
      "1796216833814",
      1e300,
      Number.NaN,
      null,
      true,
      {},
    ]) {
      expect(nativeTime(v), JSON.stringify(v)).toBeUndefined();
    }
  });
});

describe("native_ts in real captures", () => {
  for (const file of [
    join(LIVE, "pi-1.6.0/tool.jsonl"),
    join(LIVE, "pi-0.84.4/tool.jsonl"),
    join(SAMPLES, "atomic/tool.jsonl"),
  ]) {
    it(file.split("/").slice(-2).join("/"), () => {
      const native = nativeLines(file);
      const { events } = translate(readFileSync(file), { from: "pi", end: { backendExit: { code: 0, signal: null } } });
      const of = (type: string): CanonicalEvent[] => events.filter((e) => e.type === type);
      expect(of("session.started")[0]!.native_ts).toBe(nativeTime(native[0]!.timestamp));
      // Each finished assistant message's time is on what it gives.
      const stamps = native
        .filter((e) => e.type === "message_end" && e.message.role === "assistant")
        .map((e) => iso(e.message.timestamp));
      expect(of("message.completed").map((e) => e.native_ts)).toEqual(stamps);
      expect(of("usage").map((e) => e.native_ts)).toEqual(stamps);
      // Events whose native line states no time carry none.
      for (const e of [
        ...of("tool.started"),
        ...of("tool.completed"),
        ...of("turn.started"),
        ...of("turn.completed"),
        ...of("message.delta"),
        ...of("run.started"),
        ...of("run.finished"),
      ]) {
        expect(e.native_ts, `${e.type} seq ${e.seq}`).toBeUndefined();
      }
    });
  }

  it("EvoScientist states no times: no native_ts anywhere", () => {
    const file = join(LIVE, "evosci-0.3.8/tool.jsonl");
    const { events } = translate(readFileSync(file), { from: "evosci" });
    expect(events.filter((e) => "native_ts" in e)).toEqual([]);
  });
});

describe("examples/jq/tool-timeline.jq over a normalized recording (the machine's jq)", () => {
  const session = { type: "session", version: 3, id: "s1", timestamp: "2026-12-02T13:00:00.000Z", cwd: "/w" };
  const assistant = (t: number, content: object[], stopReason: string) => ({
    type: "message_end",
    message: { role: "assistant", content, stopReason, timestamp: t },
  });
  const call = { type: "toolCall", id: "c1", name: "bash", arguments: { command: "sleep 4" } };
  const run = (end: Record<string, unknown>): string =>
    [
      session,
      { type: "agent_start" },
      { type: "turn_start" },
      assistant(Date.parse("2026-12-02T13:00:01.000Z"), [call], "toolUse"),
      { type: "tool_execution_start", toolCallId: "c1", toolName: "bash", args: { command: "sleep 4" } },
      {
        type: "tool_execution_end",
        toolCallId: "c1",
        toolName: "bash",
        result: { content: [{ type: "text", text: "" }] },
        isError: false,
        ...end,
      },
      { type: "turn_end" },
      assistant(Date.parse("2026-12-02T13:00:05.500Z"), [{ type: "text", text: "slept" }], "stop"),
      { type: "agent_end" },
      { type: "agent_settled" },
    ]
      .map((e) => `${JSON.stringify(e)}\n`)
      .join("");

  async function timeline(native: string): Promise<string> {
    const file = join(SCRATCH, "run.jsonl");
    writeFileSync(file, native);
    const result = await runCli(["normalize", "--from", "pi", "--backend-exit", "0", file]);
    expect(result.code, result.stderr).toBe(0);
    expect(parseJsonl(result.stdout).find((e) => e.type === "message.completed")!.native_ts).toBe(
      "2026-12-02T13:00:05.500Z",
    );
    return execFileSync("jq", ["-rn", "-f", TIMELINE], { input: result.stdout, encoding: "utf8" });
  }

  it("prints the backend's own duration (pi 1.6 durationMs), not the replay's milliseconds", async () => {
    expect(await timeline(run({ durationMs: 4200 }))).toMatch(/^\d\d:\d\d:\d\d\.\d{3}\tbash\tsucceeded\t4200ms\n$/);
  });

  it("and Atomic's bash wall time", async () => {
    expect(await timeline(run({ result: { content: [], details: { wallTimeMs: 3900 } } }))).toMatch(
      /\tbash\tsucceeded\t3900ms\n$/,
    );
  });

  it("says '-' where the recording keeps no duration, rather than the replay's", async () => {
    expect(await timeline(run({}))).toMatch(/\tbash\tsucceeded\t-\n$/);
  });
});
