import type { ChalkInstance } from "chalk";
import type { ErrorCode, EventOf } from "../canonical/events.js";
import { showControls } from "../core/control-chars.js";
import { errorText } from "./error-text.js";
import { formatCount, formatDuration } from "./format.js";
import { wrapText } from "./wrap.js";

type Finished = EventOf<"run.finished">;

const HEADS: Record<Finished["status"], { symbol: (c: ChalkInstance) => string; word: string; took: string }> = {
  succeeded: { symbol: (c) => c.green("✔"), word: "succeeded", took: "in" },
  failed: { symbol: (c) => c.red("✖"), word: "failed", took: "after" },
  needs_input: { symbol: (c) => c.yellow("?"), word: "needs input", took: "after" },
  cancelled: { symbol: (c) => c.yellow("■"), word: "cancelled", took: "after" },
  timed_out: { symbol: (c) => c.red("⏱"), word: "timed out", took: "after" },
};

/** Each error code in a few words; the backend's own message follows below. */
const CAUSES: Record<ErrorCode, string> = {
  auth: "authentication failed",
  rate_limit: "rate limited",
  overloaded: "the provider is overloaded",
  network: "a network error",
  context_length: "the context is too long for the model",
  provider: "the provider returned an error",
  aborted: "the request was aborted",
  tool: "a tool failed",
  acceptance: "the result did not pass its acceptance check",
  budget: "a limit on turns, tokens or cost was reached",
  output_schema: "the answer did not match --output-schema",
  refused_call_ran: "the agent ran a call that was refused",
  config: "a configuration problem",
  usage: "agentstream was called wrongly",
  backend_not_found: "the backend was not found",
  backend_startup: "the backend did not start",
  backend_crashed: "the backend crashed",
  backend_protocol: "the backend did not speak its protocol",
  timeout: "timed out",
  cancelled: "cancelled",
  internal: "an error inside agentstream",
  unknown: "an unknown error",
};

// A message of many lines (a traceback) shows its first ones; stderr_tail has the rest.
const MAX_MESSAGE_LINES = 4;
export const DETAIL = "  ";
const FIELDS = " · ";

/** Said when the stream held more than one backend session (run.finished.sessions): whose outcome it reports. */
export function sessionsNote(f: Finished): string | undefined {
  if (f.sessions === undefined) return undefined;
  return `the stream held ${f.sessions} backend sessions: status, answer and usage are the last one's`;
}

/**
 * The run's summary, wrapped to `width`: one short line (status, duration, the
 * cause in words, the exit code; the counts too when it succeeded), then the
 * details indented below it: the error message with any JSON body taken apart,
 * the counts.
 */
export function summaryLines(f: Finished, c: ChalkInstance, width: number, recorded?: RecordedTime): string[] {
  const head = HEADS[f.status];
  const error = f.status === "succeeded" ? undefined : f.error;
  const signal =
    f.status === "cancelled" && error?.code === "cancelled"
      ? /^cancelled by (SIG[A-Z0-9]+)$/.exec(error.message)?.[1]
      : undefined;
  // "cancelled by SIGINT", "timed out" (--timeout): agentstream's own stop, already said by the head.
  const ownStop = signal !== undefined || (f.status === "timed_out" && error?.code === "timeout");
  const word = signal ? `${head.word} by ${signal}` : head.word;
  const cause =
    error && !ownStop
      ? `: ${CAUSES[error.code] ?? showControls(error.code)}${error.retryable ? ", worth retrying" : ""}`
      : "";
  const counts = countParts(f);
  const parts = [`${word} ${tookText(head.took, f.duration_ms, recorded)}${cause}`];
  if (f.status === "succeeded") parts.push(...counts);
  if (f.exit_code !== 0) parts.push(`exit ${f.exit_code}`);

  // Wrapped with a one-character stand-in for the symbol, which is coloured afterwards.
  const [first = "", ...rest] = wrapText(`- ${parts.join(FIELDS)}`, width, DETAIL);
  const lines = [`${head.symbol(c)} ${c.bold(word)}${first.slice(2 + word.length)}`, ...rest];
  if (error && !ownStop) lines.push(...errorLines(error.message, c, width));
  if (f.status !== "succeeded" && counts.length > 0)
    lines.push(...wrapText(counts.join(FIELDS), width, DETAIL, DETAIL, FIELDS));
  return lines;
}

/**
 * A recording's own times (normalize): the span of the times its stream states, null where it states
 * none. Its run.finished.duration_ms is how long the file took to read, not how long the run took.
 */
export interface RecordedTime {
  spanMs: number | null;
}

function tookText(took: string, durationMs: number, recorded: RecordedTime | undefined): string {
  if (!recorded) return `${took} ${formatDuration(durationMs)}`;
  if (recorded.spanMs === null) return "(time unknown: the recording does not time its events)";
  return `${took} ${formatDuration(recorded.spanMs)} (the backend's own times)`;
}

function countParts(f: Finished): string[] {
  const parts: string[] = [];
  const { tool_calls, tool_failures } = f.counts;
  if (tool_calls > 0)
    parts.push(
      `${tool_calls} tool call${tool_calls === 1 ? "" : "s"}${tool_failures > 0 ? ` (${tool_failures} failed)` : ""}`,
    );
  if (f.usage) {
    const partial = f.usage.complete === false ? " (main agent only)" : "";
    parts.push(`${formatCount(f.usage.input_tokens)} in / ${formatCount(f.usage.output_tokens)} out tokens${partial}`);
    if (f.usage.cost_usd !== undefined) parts.push(`$${f.usage.cost_usd.toFixed(4)}`);
  }
  if (f.pending && f.pending.length > 0)
    parts.push(`${f.pending.length} request${f.pending.length === 1 ? "" : "s"} pending`);
  return parts;
}

/** The backend's message, its control characters shown, and its body's fields, dimmed, below it. */
function errorLines(message: string, c: ChalkInstance, width: number): string[] {
  const said = errorText(message);
  const shown = said.lines.slice(0, MAX_MESSAGE_LINES).map(showControls);
  if (said.lines.length > MAX_MESSAGE_LINES) shown.push("…");
  const lines = shown.flatMap((line) => wrapText(line, width, `${DETAIL}  `, DETAIL));
  if (said.fields.length > 0) {
    const fields = wrapText(said.fields.map(showControls).join(FIELDS), width, `${DETAIL}  `, `${DETAIL}  `, FIELDS);
    lines.push(...fields.map((line) => c.dim(line)));
  }
  return lines;
}
