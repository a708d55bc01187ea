// Rule 7 of the stream: each native line is translated, absorbed as the mapping
// says, passed through as backend.event, or reported as backend.unparsed.
import { isDeepStrictEqual } from "node:util";
import type { CanonicalEvent, EventOf } from "../../../src/canonical/events.js";
import { MAX_LINE_DEPTH } from "../../../src/canonical/strict-json.js";
import { capLine } from "../../../src/core/native-line.js";
import { protocolOf } from "../../../src/backends/registry.js";
import type { TranslateOptions } from "../translate.js";
import { mayBeSilent } from "./absorbed.js";
import { fail, sameOutput } from "./failures.js";
import { feedChunks } from "./feed.js";
import type { NativeLineBytes } from "./native-lines.js";

/** Fed one native line at a time, each line's events are its own: check each line is accounted for. */
export function checkEveryLineAccounted(lines: NativeLineBytes[], options: TranslateOptions, expected: string): void {
  const fed = feedChunks(
    lines.map((l) => Buffer.concat([l.bytes, Buffer.from("\n")])),
    options,
  );
  sameOutput(expected, fed.events, "fed one line at a time, each with a final newline");
  const protocol = protocolOf(fed.events[0]!.backend);
  lines.forEach((line, i) => {
    const produced = fed.perChunk[i]!;
    const where = `native line ${i + 1}`;
    const v = line.verdict;
    if (v.kind === "blank") {
      if (produced.length > 0) fail(`${where} is blank but produced ${produced.map((e) => e.type).join(",")}`);
      return;
    }
    if (v.kind === "overlong" || v.kind === "unparsed") {
      const reason = v.kind === "overlong" ? "line_too_long" : v.reason;
      const only = produced.length === 1 ? (produced[0] as EventOf<"backend.unparsed">) : undefined;
      if (only?.type !== "backend.unparsed" || only.reason !== reason)
        fail(`${where} should give one backend.unparsed (${reason}), gave ${JSON.stringify(produced).slice(0, 400)}`);
      if (v.kind === "unparsed" && only.line !== capLine(v.text))
        fail(`${where}: backend.unparsed.line is not the line (capped)`);
      return;
    }
    const foreign = produced.find((e) => e.native !== undefined && e.native !== v.type);
    if (foreign) fail(`${where} (${v.type}) produced an event with native ${foreign.native}`);
    if (!mayBeSilent(protocol, v.event, options.deltas !== false) && !produced.some((e) => e.native === v.type)) {
      fail(`${where} (${v.type}) was dropped: it produced ${produced.map((e) => e.type).join(",") || "nothing"}`);
    }
    for (const e of produced) checkRaw(e, v.event, options.includeRaw === true, where);
  });
}

/** --raw puts the native object on the events translated from it, and only there. */
function checkRaw(e: CanonicalEvent, native: Record<string, unknown>, includeRaw: boolean, where: string): void {
  if (e.type === "backend.event") return;
  const wanted = includeRaw && e.native !== undefined;
  if (!wanted && "raw" in e) fail(`${where}: ${e.type} carries raw without --raw or without native`);
  if (wanted && !isDeepStrictEqual(e.raw, asWritten(native, MAX_LINE_DEPTH - 1)))
    fail(`${where}: ${e.type}.raw is not the native object`);
}

/** A value `levels` levels from the line's bottom: an array or object that would nest deeper is written as its JSON text. */
function asWritten(value: unknown, levels: number): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (levels === 0) return JSON.stringify(value);
  if (Array.isArray(value)) return value.map((v) => asWritten(v, levels - 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asWritten(v, levels - 1)]));
}
