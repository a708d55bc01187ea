// Every canonical line must be readable by jq 1.6 (Debian's) and every strict JSON
// reader: nesting bounded by MAX_LINE_DEPTH (deeper data kept as its JSON text), and
// no lone surrogate (U+FFFD instead, as I-JSON asks). Checked with the machine's jq.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { capNesting, MAX_LINE_DEPTH, wellFormedJson } from "../../../src/canonical/strict-json.js";
import { DEEP_NATIVE_LINE, MAX_NATIVE_DEPTH } from "../../../src/core/native-line.js";
import { TailBuffer } from "../../../src/core/tail-buffer.js";
import { parseJsonl, runCli } from "../../helpers/cli.js";
import { STAND_IN } from "../../helpers/stand-in.js";

const FINAL_ANSWER = fileURLToPath(new URL("../../../examples/jq/final-answer.jq", import.meta.url));
const SCRATCH = mkdtempSync(join(tmpdir(), "agentstream-strict-json-"));
const ANSWER = "the answer a\ufffdb";

const jq = (args: string[], input: string): string => execFileSync("jq", args, { input, encoding: "utf8" });

/** `levels` levels of arrays or objects, the innermost holding 1, as text. */
const nested = (levels: number, kind: "object" | "array"): string =>
  kind === "object" ? `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}` : `${"[".repeat(levels)}1${"]".repeat(levels)}`;

/** The tool call stays a usable line however deep the others go. */
const usable = (depth: number): number => Math.min(depth, MAX_NATIVE_DEPTH);

/** A successful pi run whose lines nest `depth` deep (the line itself counting) and hold lone surrogates everywhere. */
function piRun(depth: number): string {
  return [
    '{"type":"session","version":3,"id":"s1","cwd":"/w"}',
    '{"type":"agent_start"}',
    '{"type":"turn_start"}',
    `{"type":"future_event","x":${nested(depth - 1, "object")}}`,
    `{"type":"future_event","\\udfff key":${nested(depth - 1, "array")}}`,
    `{"type":"tool_execution_start","toolCallId":"c1","toolName":"bash","args":{"command":"ls \\ud800","deep":${nested(usable(depth) - 2, "object")}}}`,
    '{"type":"tool_execution_end","toolCallId":"c1","toolName":"bash","result":{"content":[{"type":"text","text":"out \\udc00"}]},"isError":false}',
    '{"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"the answer a\\ud800b"}],"stopReason":"stop"}}',
    '"\\ud800"',
    '{"type":"turn_end"}',
    '{"type":"agent_end"}',
    '{"type":"agent_settled","aborted":false}',
    "",
  ].join("\n");
}

/** The same for EvoScientist, written as Python's json.dumps does. */
function evosciRun(depth: number): string {
  return [
    '{"type": "text", "content": "the answer a\\ud800"}',
    `{"type": "tool_call", "name": "execute", "args": {"command": "ls \\udbff", "deep": ${nested(usable(depth) - 2, "array")}}, "id": "t1"}`,
    '{"type": "tool_result", "name": "execute", "content": "out \\udc00", "success": true, "id": "t1"}',
    `{"type": "memory_flush", "x": ${nested(depth - 1, "object")}}`,
    '{"type": "text", "content": "the answer a\\ud800b"}',
    '{"type": "done", "content": "", "response": "x"}',
    "",
  ].join("\n");
}

/** Levels of arrays and objects in a parsed value. */
function depthOf(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

/** Every string and key in a parsed value. */
function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => [k, ...stringsOf(v)]);
}

const isWellFormed = (s: string): boolean =>
  !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

/** Undo capNesting: a string where `levels` ran out is the JSON text of what was there. */
function uncap(value: unknown, levels: number): unknown {
  if (levels <= 0 && typeof value === "string") return JSON.parse(value);
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => uncap(v, levels - 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, uncap(v, levels - 1)]));
}

const DEPTHS = [
  DEEP_NATIVE_LINE,
  DEEP_NATIVE_LINE + 1,
  MAX_LINE_DEPTH - 1,
  MAX_LINE_DEPTH,
  MAX_LINE_DEPTH + 1,
  MAX_NATIVE_DEPTH,
  MAX_NATIVE_DEPTH + 1,
];

describe("canonical lines every strict JSON reader takes (the CLI, then jq)", () => {
  const cases = DEPTHS.flatMap((depth) => [
    { depth, from: "pi", raw: true },
    { depth, from: "evosci", raw: true },
    ...(depth === MAX_LINE_DEPTH + 1 || depth === MAX_NATIVE_DEPTH ? [{ depth, from: "pi", raw: false }] : []),
  ]);
  it.each(cases)("native lines nested $depth deep, --from $from, raw $raw", async ({ depth, from, raw }) => {
    const native = from === "pi" ? piRun(depth) : evosciRun(depth);
    const file = join(SCRATCH, `${from}-${depth}.jsonl`);
    writeFileSync(file, native);
    const result = await runCli(["normalize", "--from", from, "--backend-exit", "0", ...(raw ? ["--raw"] : []), file]);
    expect(result.code, result.stderr).toBe(0);

    // The real jq reads every line, and the final-answer recipe prints the answer.
    expect(jq(["-c", "."], result.stdout).split("\n").filter(Boolean)).toHaveLength(
      result.stdout.split("\n").length - 1,
    );
    expect(jq(["-r", "-f", FINAL_ANSWER], result.stdout)).toBe(`${ANSWER}\n`);

    const events = parseJsonl(result.stdout);
    for (const event of events) {
      expect(depthOf(event), `seq ${event.seq}`).toBeLessThanOrEqual(MAX_LINE_DEPTH);
      for (const s of stringsOf(event)) expect(isWellFormed(s), JSON.stringify(s)).toBe(true);
    }
    const started = events.find((e) => e.type === "tool.started")!;
    expect((started.args as { command: string }).command).toMatch(/^ls \ufffd$/);
    expect(events.find((e) => e.type === "tool.completed")!.output).toBe("out \ufffd");
    if (raw) expect((started.raw as { args: { command: string } }).args.command).toMatch(/^ls \ufffd$/);

    const deepLines = native.split("\n").filter((l) => /"(future_event|memory_flush)"/.test(l));
    const kept = events.filter(
      (e) => e.type === "backend.event" || (e.type === "backend.unparsed" && e.reason === "invalid_json"),
    );
    expect(kept).toHaveLength(deepLines.length);
    kept.forEach((event, i) => {
      if (depth > MAX_NATIVE_DEPTH) {
        expect(event).toMatchObject({ type: "backend.unparsed", line: deepLines[i] });
        return;
      }
      // The native object is all there, its deepest part as JSON text where the line would nest too deep.
      const native = wellFormedJson(JSON.parse(deepLines[i]!));
      expect(uncap(event, MAX_LINE_DEPTH)).toMatchObject({ type: "backend.event", raw: native });
    });
    if (from === "pi")
      expect(events.find((e) => e.type === "backend.unparsed" && e.reason === "not_an_object")!.line).toBe('"\\ud800"');
  });

  it("run: the same lines from a live backend, and its stderr tail cut mid-pair", async () => {
    const file = join(SCRATCH, "live.jsonl");
    // A run whose last message failed, so the stderr tail is written too.
    writeFileSync(
      file,
      piRun(MAX_NATIVE_DEPTH).replace('"stopReason":"stop"', '"stopReason":"error","errorMessage":"boom \\udc00"'),
    );
    const stderr = `${"e".repeat(999)}😀 late\n`;
    const env = {
      STANDIN_TRANSCRIPT: file,
      STANDIN_VERSION: "1.6.0",
      STANDIN_STDERR_AT_END: stderr,
      STANDIN_END: "exit:1",
    };
    const result = await runCli(["run", "--backend", "pi", "--bin", STAND_IN, "--raw", "hi"], { env });
    expect(jq(["-c", "."], result.stdout).split("\n").filter(Boolean)).toHaveLength(
      result.stdout.split("\n").length - 1,
    );
    const events = parseJsonl(result.stdout);
    for (const event of events) {
      expect(depthOf(event), `seq ${event.seq}`).toBeLessThanOrEqual(MAX_LINE_DEPTH);
      for (const s of stringsOf(event)) expect(isWellFormed(s), JSON.stringify(s)).toBe(true);
    }
    expect(events.at(-1)).toMatchObject({
      type: "run.finished",
      status: "failed",
      error: { message: "boom \ufffd" },
      stderr_tail: ["e".repeat(999)],
    });
  });

  it("a stderr tail cut in the middle of a surrogate pair keeps no half of it", async () => {
    const stderr = join(SCRATCH, "stderr.txt");
    writeFileSync(stderr, `${"a".repeat(999)}😀 and more\n`);
    const result = await runCli(["normalize", "--from", "pi", "--backend-exit", "1", "--stderr", stderr], {
      input: '{"type":"agent_start"}\n',
    });
    expect(result.code).toBe(76);
    const finished = JSON.parse(jq(["-c", 'select(.type == "run.finished")'], result.stdout)) as {
      stderr_tail: string[];
    };
    expect(finished.stderr_tail).toEqual(["a".repeat(999)]);
  });
});

describe("capNesting", () => {
  it("writes what would nest deeper than the bound as its JSON text, copying, never changing the input", () => {
    const value = { a: [1, { b: { c: [2] } }], d: "x" };
    const before = JSON.stringify(value);
    expect(capNesting(value, 3)).toEqual({ a: [1, { b: '{"c":[2]}' }], d: "x" });
    expect(capNesting(value, 4)).toEqual({ a: [1, { b: { c: "[2]" } }], d: "x" });
    expect(capNesting(value, 5)).toBe(value);
    expect(JSON.stringify(value)).toBe(before);
  });

  it("keeps a key named __proto__ as a key", () => {
    const value = JSON.parse('{"__proto__":{"x":[1]},"y":[[1]]}') as Record<string, unknown>;
    const capped = capNesting(value, 2) as Record<string, unknown>;
    expect(JSON.stringify(capped)).toBe('{"__proto__":{"x":"[1]"},"y":["[1]"]}');
    expect(Object.getPrototypeOf(capped)).toBe(Object.prototype);
  });
});

describe("wellFormedJson", () => {
  it("replaces lone surrogates in strings and keys with U+FFFD, keeps pairs and key order", () => {
    const value = JSON.parse(
      '{"k":"\\ud83d\\ude00 \\ud800","\\udc00":["\\udbff\\udbff\\udfff"],"z":1,"__proto__":"\\ud800"}',
    );
    const fixed = wellFormedJson(value) as Record<string, unknown>;
    expect(JSON.stringify(fixed)).toBe('{"k":"😀 \ufffd","\ufffd":["\ufffd\udbff\udfff"],"z":1,"__proto__":"\ufffd"}');
  });
});

describe("TailBuffer", () => {
  it("caps a long line without cutting a surrogate pair", () => {
    const tail = new TailBuffer(5, 10);
    tail.push(`${"a".repeat(9)}😀b\n${"c".repeat(8)}😀\n`);
    expect(tail.snapshot()).toEqual(["a".repeat(9), `${"c".repeat(8)}😀`]);
  });
});
