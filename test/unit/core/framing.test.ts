import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LineSplitter, type Line } from "../../../src/core/line-splitter.js";
import { MAX_HELD_BYTES } from "../../../src/core/translation-session.js";
import { SAMPLES } from "../../helpers/cli.js";
import { translate } from "../../helpers/translate.js";

function split(chunks: (string | Buffer)[], maxLineBytes?: number): Line[] {
  const lines: Line[] = [];
  const splitter = new LineSplitter((l) => lines.push(l), { maxLineBytes, previewBytes: 8 });
  for (const c of chunks) splitter.push(typeof c === "string" ? Buffer.from(c) : c);
  splitter.end();
  return lines;
}

const texts = (lines: Line[]) => lines.map((l) => ("text" in l ? l.text : `<overlong ${l.bytes}: ${l.preview}>`));

describe("LineSplitter", () => {
  it("splits on \\n and strips one trailing \\r (CRLF)", () => {
    expect(texts(split(["a\r\nb\n", "c\r\r\n"]))).toEqual(["a", "b", "c\r"]);
  });

  it("keeps a last line that has no newline", () => {
    expect(texts(split(['{"a":1}\n{"b":', "2}"]))).toEqual(['{"a":1}', '{"b":2}']);
  });

  it("decodes a UTF-8 character split across chunks", () => {
    const bytes = Buffer.from("é€😀\n");
    const chunks = [...bytes].map((b) => Buffer.from([b]));
    expect(texts(split(chunks))).toEqual(["é€😀"]);
  });

  it("does not split on U+2028, U+2029 or a lone \\r", () => {
    expect(texts(split(["a\u2028b\u2029c\rd\n"]))).toEqual(["a\u2028b\u2029c\rd"]);
  });

  it("skips blank and whitespace-only lines", () => {
    expect(texts(split(["\n\n  \n\t\r\nx\n\n"]))).toEqual(["x"]);
  });

  it("replaces invalid UTF-8 with U+FFFD instead of failing", () => {
    expect(texts(split([Buffer.from([0x61, 0xff, 0x62, 0x0a])]))).toEqual(["a\ufffdb"]);
  });

  it("drops one UTF-8 BOM at the start of the stream, even split across chunks, and no other", () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    expect(texts(split([Buffer.concat([bom, Buffer.from("a\n"), bom, Buffer.from("b\n")])]))).toEqual(["a", "\ufeffb"]);
    expect(texts(split([bom.subarray(0, 1), Buffer.concat([bom.subarray(1), Buffer.from("a\nb\n")])]))).toEqual([
      "a",
      "b",
    ]);
    expect(texts(split([Buffer.concat([Buffer.from("a\n"), bom, Buffer.from("b\n")])]))).toEqual(["a", "\ufeffb"]);
  });

  it("keeps a long line whole up to the cap", () => {
    const long = "x".repeat(100_000);
    expect(texts(split([long.slice(0, 40_000), long.slice(40_000), "\n"], 100_000))).toEqual([long]);
  });

  it("reports a line over the cap with a preview and its size, without keeping it", () => {
    const lines = split(["0123456789abcdef", "0123456789abcdef", "\nnext\n"], 20);
    expect(texts(lines)).toEqual(["<overlong 32: 01234567>", "next"]);
  });
});

describe("framing through a translation", () => {
  const evosci = '{"type": "text", "content": "hi"}\n{"type": "done", "content": "hi", "response": "hi"}';

  it("gives the same canonical stream for LF, CRLF and no final newline", () => {
    const base = translate(`${evosci}\n`).events;
    expect(translate(`${evosci.replace(/\n/g, "\r\n")}\r\n`).events).toEqual(base);
    expect(translate(evosci).events).toEqual(base);
  });

  it("keeps raw U+2028 inside a JSON string as text", () => {
    const { events } = translate(
      '{"type": "text", "content": "a\u2028b"}\n{"type": "done", "content": "", "response": ""}\n',
    );
    const delta = events.find((e) => e.type === "message.delta");
    expect(delta && "text" in delta ? delta.text : undefined).toBe("a\u2028b");
    expect(events.filter((e) => e.type === "backend.unparsed")).toEqual([]);
  });

  it("turns an overlong native line into backend.unparsed and goes on", () => {
    const big = `{"type": "text", "content": "${"y".repeat(5000)}"}`;
    const { events, outcome } = translate(`${big}\n{"type": "done", "content": "", "response": ""}\n`, {
      from: "evosci",
      maxLineBytes: 1000,
    });
    const unparsed = events.find((e) => e.type === "backend.unparsed");
    expect(unparsed).toMatchObject({ reason: "line_too_long", line: big.slice(0, 1000) });
    expect(outcome.status).toBe("succeeded");
  });

  it("reports lines that are not JSON objects as backend.unparsed, in order, without stopping", () => {
    const { events, outcome } = translate(
      'Loading agent...\n[1,2]\n{"no_type": true}\n{"type": "text", "content": "ok"}\n{"type": "done", "content": "ok", "response": "ok"}\n',
      { from: "evosci" },
    );
    expect(events.filter((e) => e.type === "backend.unparsed").map((e) => ("reason" in e ? e.reason : ""))).toEqual([
      "invalid_json",
      "not_an_object",
      "missing_type",
    ]);
    expect(outcome.status).toBe("succeeded");
    expect(events.at(-1)).toMatchObject({ type: "run.finished", counts: { unparsed_lines: 3 } });
  });
});

describe("auto-detection", () => {
  const pi = readFileSync(join(SAMPLES, "pi/1.6.0-text.jsonl"), "utf8");

  it("detects a pi stream after many short warning lines (bounded by bytes, not a line count)", () => {
    const warnings = "Warning: something minor\n".repeat(5000);
    const { events, outcome } = translate(warnings + pi);
    expect(events[0]).toMatchObject({ type: "run.started", backend: "pi", detection: "detected" });
    expect(events.filter((e) => e.type === "backend.unparsed")).toHaveLength(5000);
    expect(outcome.status).toBe("succeeded");
  });

  it("reads a pi stream that opens with a UTF-8 BOM", () => {
    const { events, outcome } = translate(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(pi)]));
    expect(events[0]).toMatchObject({ type: "run.started", backend: "pi", detection: "detected" });
    expect(events.filter((e) => e.type === "backend.unparsed")).toEqual([]);
    expect(outcome.status).toBe("succeeded");
  });

  it("guesses EvoSci once the garbage held would pass MAX_HELD_BYTES, keeping every line in order", () => {
    const line = "x".repeat(100_000);
    const count = Math.ceil(MAX_HELD_BYTES / line.length) + 5;
    const { events } = translate(`${`${line}\n`.repeat(count)}{"type": "done", "content": "", "response": ""}\n`);
    expect(events[0]).toMatchObject({ type: "run.started", backend: "evosci", detection: "guessed" });
    expect(events.filter((e) => e.type === "backend.unparsed")).toHaveLength(count);
    expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "succeeded" });
  });
});
