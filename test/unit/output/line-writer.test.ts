// LineWriter.batch: the lines written inside it leave together, whole, in
// order, in one write() before batch() returns; outside a batch each line
// leaves on its own.
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { LineWriter } from "../../../src/output/line-writer.js";

/** A writable that, like a pipe, can take many chunks in one call (writev), and records each call. */
function recordingPipe(): { out: Writable; calls: string[][] } {
  const calls: string[][] = [];
  const out = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      calls.push([String(chunk)]);
      done();
    },
    writev(chunks, done) {
      calls.push(chunks.map((c) => String(c.chunk)));
      done();
    },
  });
  return { out, calls };
}

describe("LineWriter", () => {
  it("writes each line with one write() of its own", () => {
    const { out, calls } = recordingPipe();
    const writer = new LineWriter(out);
    writer.write("a\n");
    writer.write("b\n");
    expect(calls).toEqual([["a\n"], ["b\n"]]);
  });

  it("hands the lines of a batch over in one write, before batch() returns", () => {
    const { out, calls } = recordingPipe();
    const writer = new LineWriter(out);
    const result = writer.batch(() => {
      writer.write("1\n");
      writer.write("2\n");
      writer.write("3\n");
      expect(calls).toEqual([]);
      return "done";
    });
    expect(result).toBe("done");
    expect(calls).toEqual([["1\n2\n3\n"]]);
    writer.write("4\n");
    expect(calls.at(-1)).toEqual(["4\n"]);
  });

  it("still hands the lines over when the work throws", () => {
    const { out, calls } = recordingPipe();
    const writer = new LineWriter(out);
    expect(() =>
      writer.batch(() => {
        writer.write("kept\n");
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(calls).toEqual([["kept\n"]]);
    expect(out.writableCorked).toBe(0);
  });

  it("keeps every character of a batch larger than its buffer, in order", () => {
    const { out, calls } = recordingPipe();
    const writer = new LineWriter(out);
    // Two-byte and four-byte characters, past the batch buffer's 256 KiB several times.
    const lines = Array.from({ length: 300 }, (_, i) => `${i} ${"é😀".repeat(1000 + i)}\n`);
    writer.batch(() => {
      for (const [i, line] of lines.entries()) {
        if (i % 2 === 0) writer.write(line);
        else writer.writeLine(line.slice(0, -1));
      }
    });
    expect(calls.flat().join("")).toBe(lines.join(""));
    writer.writeLine("after");
    expect(calls.at(-1)).toEqual(["after\n"]);
  });
});
