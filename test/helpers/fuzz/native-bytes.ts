// From native events to the bytes a backend (or a damaged log) would hold:
// serialized as the backend does, then noise lines, duplicates, drops, CRLF,
// a missing last newline and a cut at any byte.
import fc from "fast-check";
import type { NativeEvent } from "../../../src/core/translator.js";
import { anyText } from "./text.js";

/** One native line without its terminator: text, or raw bytes (which need not be UTF-8). */
export type NativeLine = string | Uint8Array;

export interface NativeStream {
  lines: NativeLine[];
  eol: "\n" | "\r\n" | "mixed";
  /** The last line has its terminator. */
  finalNewline: boolean;
  /** Keep only `at` bytes (modulo the length + 1), or with `midCharacter` up to the next UTF-8 continuation byte. */
  cut: { at: number; midCharacter: boolean } | undefined;
}

/** Python's json.dumps defaults, as EvoSci writes: ", " and ": " separators, ASCII only. */
export function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${asciiJson(k)}: ${pythonJson(v)}`)
      .join(", ")}}`;
  }
  return typeof value === "string" ? asciiJson(value) : JSON.stringify(value);
}

function asciiJson(s: string): string {
  return JSON.stringify(s).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

const NOT_UTF8 = [0xff, 0xfe, 0xc3, 0x80, 0xe2, 0x80, 0xf0, 0x9f, 0xed, 0xa0, 0x80];

/** An event whose field nests arrays or objects `depth` deep: built as text, as no recursive serializer could. */
const deepLine: fc.Arbitrary<NativeLine> = fc
  .record({
    type: fc.constantFrom("text", "tool_call", "message_end", "tool_execution_start", "session", "memory_flush"),
    field: fc.constantFrom("content", "args", "message", "id", "extra"),
    open: fc.constantFrom("[", '{"a":'),
    // Around the cap on nesting, or far past what a recursive serializer survives.
    depth: fc.oneof(fc.integer({ min: 125, max: 130 }), fc.integer({ min: 1, max: 20_000 })),
  })
  .map(
    ({ type, field, open, depth }) =>
      `{"type":"${type}","${field}":${open.repeat(depth)}1${(open === "[" ? "]" : "}").repeat(depth)}}`,
  );

/** Lines between the events: blank, garbage, JSON that is no event, odd numbers, deep nesting, bytes that are not UTF-8. */
const noiseLine: fc.Arbitrary<NativeLine> = fc.oneof(
  deepLine,
  fc.constantFrom("", " ", "\t", "\r", " \u3000", "\u2028", "\u00a0\u2029", "\ufeff"),
  fc.constantFrom(
    "Loading agent...",
    "[1]",
    "42",
    "null",
    '"text"',
    "{}",
    '{"content": "x"}',
    '{"type": 5}',
    '{"type": ""}',
    '{"type": null}',
    '{"type": "text"',
    "{'type': 'text'}",
  ),
  // Numbers JSON.parse turns into Infinity and -0.
  fc.constantFrom(
    '{"type": "usage_stats", "input_tokens": 1e400, "output_tokens": -0}',
    '{"type":"message_end","message":{"role":"assistant","content":[],"usage":{"input":1e400,"cost":{"total":1e400}}}}',
  ),
  anyText,
  fc.uint8Array({ maxLength: 12 }),
  fc.array(fc.constantFrom(...NOT_UTF8, 0x7b, 0x22, 0x0d), { maxLength: 8 }).map((b) => Uint8Array.from(b)),
);

/** Damage done to a line: truncated, or with a byte that is not UTF-8 spliced in. */
type Damage = { at: number; kind: "truncate" | "splice"; byte: number };

function damage(line: string, d: Damage): NativeLine {
  const bytes = Buffer.from(line);
  const at = d.at % (bytes.length + 1);
  if (d.kind === "truncate") return bytes.subarray(0, at);
  return Buffer.concat([bytes.subarray(0, at), Buffer.from([d.byte]), bytes.subarray(at)]);
}

/**
 * Native streams built from `events`, serialized one per line by `serialize`,
 * with noise inserted, lines duplicated, dropped and damaged.
 */
export function nativeStream(
  events: fc.Arbitrary<NativeEvent[]>,
  serialize: fc.Arbitrary<(e: NativeEvent) => string>,
): fc.Arbitrary<NativeStream> {
  const edits = fc.record({
    noise: fc.array(fc.tuple(fc.nat(), noiseLine), { maxLength: 4 }),
    duplicate: fc.array(fc.nat(), { maxLength: 2 }),
    drop: fc.array(fc.nat(), { maxLength: 2 }),
    damage: fc.array(
      fc.tuple(
        fc.nat(),
        fc.record({
          at: fc.nat(),
          kind: fc.constantFrom("truncate" as const, "splice" as const),
          byte: fc.constantFrom(...NOT_UTF8),
        }),
      ),
      { maxLength: 2 },
    ),
  });
  const clean = fc.constant({ noise: [], duplicate: [], drop: [], damage: [] });
  return fc
    .record({
      events,
      serialize,
      edits: fc.oneof(clean, edits),
      eol: fc.constantFrom("\n" as const, "\r\n" as const, "mixed" as const),
      finalNewline: fc.boolean(),
      cut: fc.option(fc.record({ at: fc.nat(), midCharacter: fc.boolean() }), { nil: undefined, freq: 3 }),
    })
    .map(({ events: list, serialize: write, edits: e, eol, finalNewline, cut }) => {
      const lines: NativeLine[] = list.map((event) => write(event));
      for (const i of e.drop) if (lines.length > 0) lines.splice(i % lines.length, 1);
      for (const i of e.duplicate) if (lines.length > 0) lines.splice(i % lines.length, 0, lines[i % lines.length]!);
      for (const [i, d] of e.damage) {
        const line = lines[i % Math.max(lines.length, 1)];
        if (typeof line === "string") lines[i % lines.length] = damage(line, d);
      }
      for (const [i, noise] of e.noise) lines.splice(i % (lines.length + 1), 0, noise);
      return { lines, eol, finalNewline, cut };
    });
}

/** The bytes of a native stream. */
export function streamBytes(stream: NativeStream): Buffer {
  const parts = stream.lines.map((line, i) => {
    const terminator = stream.eol === "mixed" ? (i % 2 === 0 ? "\r\n" : "\n") : stream.eol;
    const last = i === stream.lines.length - 1;
    return Buffer.concat([
      typeof line === "string" ? Buffer.from(line) : line,
      Buffer.from(last && !stream.finalNewline ? "" : terminator),
    ]);
  });
  const bytes = Buffer.concat(parts);
  if (stream.cut === undefined) return bytes;
  let end = stream.cut.at % (bytes.length + 1);
  if (stream.cut.midCharacter) {
    const continuation = bytes.findIndex((b, i) => i >= end && (b & 0xc0) === 0x80);
    if (continuation !== -1) end = continuation;
  }
  return bytes.subarray(0, end);
}

/** EvoSci's serializer, and now and then compact JSON (raw UTF-8, raw U+2028) as other writers produce. */
export const evosciSerializer = fc.oneof(
  { arbitrary: fc.constant(pythonJson), weight: 3 },
  { arbitrary: fc.constant((e: NativeEvent) => JSON.stringify(e)), weight: 1 },
);

/** Atomic's serializer: compact JSON.stringify. */
export const atomicSerializer = fc.constant((e: NativeEvent) => JSON.stringify(e));
