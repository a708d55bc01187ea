// Every property of one generated case. A broken one throws with what and where;
// fast-check then shrinks the case and prints its seed and path.
import { isDeepStrictEqual } from "node:util";
import type { CanonicalEvent, Detection, EventOf, RunCounts } from "../../../src/canonical/events.js";
import { serializeEvent } from "../../../src/canonical/serialize.js";
import type { Interruption } from "../../../src/core/outcome.js";
import { protocolOf, type BackendName } from "../../../src/backends/registry.js";
import type { StreamEndFacts } from "../../../src/core/translator.js";
import { strictProblems } from "../strict-schema.js";
import { toJsonl, translate, type TranslateOptions } from "../translate.js";
import { verifyEvents } from "../verify.js";
import { fail, sameOutput } from "./failures.js";
import { cutAt, feedChunks } from "./feed.js";
import { keyOrderProblem } from "./key-order.js";
import { checkEveryLineAccounted } from "./line-accounting.js";
import { streamBytes, type NativeStream } from "./native-bytes.js";
import { MAX_LINE_DEPTH } from "../../../src/canonical/strict-json.js";
import { depthOf, nativeLines, withoutLoneSurrogates, type NativeLineBytes } from "./native-lines.js";
import { allowedStatuses, contractExitCode } from "./outcome-oracle.js";
import { RESUME_LINE } from "./run-end.js";

export interface FuzzCase {
  from: BackendName | "auto";
  stream: NativeStream;
  flags: Pick<TranslateOptions, "includeRaw" | "deltas" | "maxLineBytes" | "liveDurations">;
  end: StreamEndFacts;
  interruption: Interruption | undefined;
  /** Two other ways to feed the same bytes: fixed-size chunks, and cuts at arbitrary offsets. */
  chunkBytes: number;
  cuts: number[];
}

const DELTA_TYPES = new Set(["message.delta", "reasoning.delta", "tool.updated"]);

export function checkCase(c: FuzzCase): void {
  const bytes = streamBytes(c.stream);
  const options: TranslateOptions = { from: c.from, ...c.flags, end: c.end, interruption: c.interruption };
  const { events, outcome } = translate(bytes, options);
  const lines = nativeLines(bytes, c.flags.maxLineBytes);

  checkValid(events);
  checkCounts(events);
  const finished = events.at(-1) as EventOf<"run.finished">;
  if (finished.exit_code !== outcome.exitCode || finished.status !== outcome.status) {
    fail(
      `run.finished says ${finished.status}/${finished.exit_code}, the outcome ${outcome.status}/${outcome.exitCode}`,
    );
  }
  checkOutcome(finished, lines, c);
  if (c.flags.deltas === false && events.some((e) => DELTA_TYPES.has(e.type)))
    fail("a delta event despite --no-deltas");

  const expected = toJsonl(events);
  sameOutput(
    expected,
    translate(bytes, { ...options, chunkBytes: c.chunkBytes }).events,
    `fed in chunks of ${c.chunkBytes} bytes`,
  );
  sameOutput(expected, feedChunks(cutAt(bytes, c.cuts), options).events, "fed in chunks cut at arbitrary offsets");
  if (c.from === "auto") {
    // Detection only picks the translator: the output is the one --from would give, but for saying how it was known.
    const given = translate(bytes, { ...options, from: events[0]!.backend }).events;
    sameOutput(toJsonl(withDetection(events, "given")), given, `translated with --from ${events[0]!.backend}`);
  } else {
    checkEveryLineAccounted(lines, options, expected);
  }
}

function withDetection(events: CanonicalEvent[], detection: Detection): CanonicalEvent[] {
  const [started, ...rest] = events;
  return [{ ...started!, detection } as CanonicalEvent, ...rest];
}

function checkValid(events: CanonicalEvent[]): void {
  for (const event of events) {
    const problems = strictProblems(event);
    if (problems.length > 0) fail(`seq ${event.seq} (${event.type}) breaks the strict schema: ${problems.join("; ")}`);
    const order = keyOrderProblem(event);
    if (order) fail(`seq ${event.seq} (${event.type}): ${order}`);
    if (serializeEvent(event) !== JSON.stringify(event))
      fail(`seq ${event.seq} (${event.type}): the line written differs from JSON.stringify`);
    // What jq 1.6 and every strict reader take: bounded nesting, no lone surrogate.
    if (depthOf(event) > MAX_LINE_DEPTH)
      fail(`seq ${event.seq} (${event.type}) nests ${depthOf(event)} deep, past ${MAX_LINE_DEPTH}`);
    if (JSON.stringify(withoutLoneSurrogates(event)) !== JSON.stringify(event))
      fail(`seq ${event.seq} (${event.type}) holds a lone surrogate`);
  }
  const problems = verifyEvents(events);
  if (problems.length > 0) fail(`verify: ${problems.map((p) => `line ${p.line}: ${p.message}`).join("; ")}`);
}

const COUNTED: Record<keyof RunCounts, (e: CanonicalEvent) => boolean> = {
  turns: (e) => e.type === "turn.started",
  messages: (e) => e.type === "message.completed",
  tool_calls: (e) => e.type === "tool.started",
  tool_failures: (e) => e.type === "tool.completed" && e.status === "failed",
  errors: (e) => e.type === "error",
  retries: (e) => e.type === "retry.started",
  unknown_events: (e) => e.type === "backend.event",
  unparsed_lines: (e) => e.type === "backend.unparsed",
};

function checkCounts(events: CanonicalEvent[]): void {
  const { counts } = events.at(-1) as EventOf<"run.finished">;
  for (const [key, counted] of Object.entries(COUNTED)) {
    const seen = events.filter(counted).length;
    if (counts[key as keyof RunCounts] !== seen)
      fail(`counts.${key} is ${counts[key as keyof RunCounts]}, the stream shows ${seen}`);
  }
}

function checkOutcome(finished: EventOf<"run.finished">, lines: NativeLineBytes[], c: FuzzCase): void {
  const exitCode = contractExitCode(finished.status, finished.error, c.interruption);
  if (finished.exit_code !== exitCode)
    fail(
      `exit_code ${finished.exit_code} for ${finished.status} (${JSON.stringify(finished.error)}), the contract says ${exitCode}`,
    );
  const types = lines.flatMap((l) => (l.verdict.kind === "event" ? [l.verdict.type] : []));
  const allowed = allowedStatuses(protocolOf(finished.backend), types, c.end, c.interruption);
  if (!allowed.includes(finished.status))
    fail(`status ${finished.status}, the mapping allows ${allowed.join(" or ")} for native types ${types.join(",")}`);
  checkEndingFacts(finished, c);
}

/** What run.finished repeats from how the backend ended: its exit, its stderr tail on failure, EvoSci's resume hint. */
function checkEndingFacts(finished: EventOf<"run.finished">, c: FuzzCase): void {
  if (!isDeepStrictEqual(finished.backend_exit, c.end.backendExit))
    fail(
      `backend_exit ${JSON.stringify(finished.backend_exit)}, the backend ended ${JSON.stringify(c.end.backendExit)}`,
    );
  const tail =
    finished.status !== "succeeded" && c.end.stderrTail.length > 0
      ? withoutLoneSurrogates(c.end.stderrTail)
      : undefined;
  if (!isDeepStrictEqual(finished.stderr_tail, tail))
    fail(`stderr_tail ${JSON.stringify(finished.stderr_tail)} for status ${finished.status}`);
  const hinted = finished.backend === "evosci" && c.end.stderrTail.includes(RESUME_LINE);
  if (hinted && finished.resume === undefined) fail(`no resume though stderr says ${RESUME_LINE}`);
  if (finished.backend !== "evosci" && finished.resume !== undefined) fail("resume from a backend that gives no hint");
}
