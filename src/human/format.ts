import type { ChalkInstance } from "chalk";
import type { EventOf } from "../canonical/events.js";
import { showControls } from "./control-chars.js";

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  return `${minutes}m ${String(seconds).padStart(2, "0")}s`;
}

export function formatCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** An argv as a shell would show it, for humans (never executed), its control characters shown. */
export function shellQuote(argv: readonly string[]): string {
  return showControls(argv.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(" "));
}

/** "2/5", or "2" when the backend retries within a time budget (no max_attempts). */
export function attemptOf(e: EventOf<"retry.started">): string {
  return e.max_attempts !== undefined ? `${e.attempt}/${e.max_attempts}` : String(e.attempt);
}

/** First line of a native message, cut to a length a terminal line can hold, its control characters shown. */
export function firstLine(text: string, max = 200): string {
  const line = text.split("\n", 1)[0] ?? "";
  return showControls(line.length > max ? `${line.slice(0, max - 1)}…` : line);
}

/** "✔ read_file 120ms", "✖ research-agent › execute 3.2s", "◌ web_search cancelled (run ended)". */
export function toolLine(e: EventOf<"tool.completed">, c: ChalkInstance): string {
  const tool = showControls(e.name);
  const name = e.agent ? `${c.dim(`${showControls(e.agent.name)} ›`)} ${tool}` : tool;
  const duration = e.duration_ms !== undefined ? ` ${c.dim(formatDuration(e.duration_ms))}` : "";
  switch (e.status) {
    case "succeeded":
      return `${c.green("✔")} ${name}${duration}`;
    case "failed":
      return `${c.red("✖")} ${name}${duration}`;
    case "cancelled":
      return `${c.yellow("◌")} ${name} ${c.dim(`cancelled${e.reason ? ` (${showControls(e.reason.replace(/_/g, " "))})` : ""}`)}`;
  }
}

const HEADS: Record<EventOf<"run.finished">["status"], (c: ChalkInstance, took: string) => string> = {
  succeeded: (c, took) => `${c.green("✔")} ${c.bold("succeeded")} in ${took}`,
  failed: (c, took) => `${c.red("✖")} ${c.bold("failed")} after ${took}`,
  needs_input: (c, took) => `${c.yellow("?")} ${c.bold("needs input")} after ${took}`,
  cancelled: (c, took) => `${c.yellow("■")} ${c.bold("cancelled")} after ${took}`,
  timed_out: (c, took) => `${c.red("⏱")} ${c.bold("timed out")} after ${took}`,
};

/** The final line: status, duration, tool calls, tokens, cost when known, and why it did not succeed. */
export function summaryLine(f: EventOf<"run.finished">, c: ChalkInstance): string {
  const parts = [HEADS[f.status](c, formatDuration(f.duration_ms))];
  const { tool_calls, tool_failures } = f.counts;
  if (tool_calls > 0) parts.push(`${tool_calls} tool call${tool_calls === 1 ? "" : "s"}${tool_failures > 0 ? ` (${tool_failures} failed)` : ""}`);
  if (f.usage) {
    const partial = f.usage.complete === false ? " (main agent only)" : "";
    parts.push(`${formatCount(f.usage.input_tokens)} in / ${formatCount(f.usage.output_tokens)} out tokens${partial}`);
    if (f.usage.cost_usd !== undefined) parts.push(`$${f.usage.cost_usd.toFixed(4)}`);
  }
  if (f.pending && f.pending.length > 0) parts.push(`${f.pending.length} request${f.pending.length === 1 ? "" : "s"} pending`);
  if (f.error && f.status !== "succeeded") {
    const retry = f.error.retryable ? ", retryable" : "";
    parts.push(`${c.red(`${showControls(f.error.code)}${retry}`)}: ${firstLine(f.error.message)}`);
  }
  if (f.exit_code !== 0) parts.push(c.dim(`exit ${f.exit_code}`));
  return parts.join(c.dim(" · "));
}
