// The contract's framing, written out plainly as the oracle: lines end at "\n",
// one trailing "\r" is dropped, blank lines are skipped, a line is an event when
// it is a JSON object with a non-empty string `type`, nested no deeper than the cap;
// one UTF-8 BOM opening the stream is not part of its first line. The event is read
// as I-JSON: a lone surrogate in a string or key is U+FFFD.
import type { EventPayloads } from "../../../src/canonical/events.js";
import { DEFAULT_MAX_LINE_BYTES } from "../../../src/core/line-splitter.js";
import { MAX_NATIVE_DEPTH } from "../../../src/core/native-line.js";

export type LineVerdict =
  | { kind: "blank" }
  | { kind: "overlong" }
  | { kind: "unparsed"; text: string; reason: EventPayloads["backend.unparsed"]["reason"] }
  | { kind: "event"; event: Record<string, unknown>; type: string };

export interface NativeLineBytes {
  /** The line's bytes, without its "\n". */
  bytes: Buffer;
  verdict: LineVerdict;
}

/** Split native bytes into lines and say what each one is. */
export function nativeLines(bytes: Buffer, maxLineBytes = DEFAULT_MAX_LINE_BYTES): NativeLineBytes[] {
  const out: NativeLineBytes[] = [];
  let start = 0;
  while (start < bytes.length) {
    const nl = bytes.indexOf(0x0a, start);
    const end = nl === -1 ? bytes.length : nl;
    const line = bytes.subarray(start, end);
    out.push({ bytes: line, verdict: judge(line, maxLineBytes, start === 0) });
    start = end + 1;
  }
  return out;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

function judge(line: Buffer, maxLineBytes: number, firstLine: boolean): LineVerdict {
  if (line.length > maxLineBytes) return { kind: "overlong" };
  const body = firstLine && line.subarray(0, 3).equals(BOM) ? line.subarray(3) : line;
  const text = (body.at(-1) === 0x0d ? body.subarray(0, -1) : body).toString("utf8");
  if (/^\s*$/.test(text)) return { kind: "blank" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "unparsed", text, reason: "invalid_json" };
  }
  if (depthOf(value) > MAX_NATIVE_DEPTH) return { kind: "unparsed", text, reason: "invalid_json" };
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { kind: "unparsed", text, reason: "not_an_object" };
  const event = withoutLoneSurrogates(value) as Record<string, unknown>;
  const type = event.type;
  if (typeof type !== "string" || type === "") return { kind: "unparsed", text, reason: "missing_type" };
  return { kind: "event", event, type };
}

const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function withoutLoneSurrogates(value: unknown): unknown {
  if (typeof value === "string") return value.replace(LONE, "\ufffd");
  if (Array.isArray(value)) return value.map(withoutLoneSurrogates);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k.replace(LONE, "\ufffd"), withoutLoneSurrogates(v)]),
  );
}

/** Levels of arrays and objects, counted a level at a time. */
export function depthOf(value: unknown): number {
  let level = [value];
  let depth = 0;
  for (;;) {
    const containers = level.filter((v): v is object => typeof v === "object" && v !== null);
    if (containers.length === 0) return depth;
    depth++;
    level = containers.flatMap((c) => Object.values(c));
  }
}
