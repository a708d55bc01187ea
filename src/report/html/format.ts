// Number, duration and clipped-text formatting shared by the page built in
// Node and its script: the script carries these very functions (their source
// text), so a figure reads the same in the static page and in the details.
// Written as plain ES5 functions with no imports for that reason.
import type { Clip } from "./model.js";

export function fmtMs(ms: number | undefined | null): string {
  if (ms === undefined || ms === null) return "\u2013";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60000) return `${(ms / 1000).toFixed(ms < 10000 ? 2 : 1)} s`;
  const m = Math.floor(ms / 60000);
  return `${m} min ${Math.round((ms % 60000) / 1000)} s`;
}

/** A time on a run's time line; "time unknown" in a recording that states no times (timing "none"). */
export function fmtAt(run: { timing?: string }, ms: number | undefined | null): string {
  return run.timing === "none" ? "time unknown" : fmtMs(ms);
}

export function fmtN(n: number | undefined | null): string {
  return n === undefined || n === null ? "\u2013" : Number(n).toLocaleString("en-US");
}

/** A kept text, with a note of how much the report left out. */
export function clipText(c: Clip | undefined | null): string {
  if (c === undefined || c === null) return "";
  if (typeof c === "string") return c;
  return `${c.x}\n\u2026 (${fmtN(c.n - c.x.length)} more characters not kept in the report)`;
}
