import type { ChalkInstance } from "chalk";
import type { EventOf, InputAction } from "../canonical/events.js";
import { inputTargets } from "../core/call-targets.js";
import { showControls } from "../core/control-chars.js";
import { shellWord } from "../core/shell-word.js";
import { formatDuration } from "../core/compact-figures.js";

export { formatCount, formatDuration } from "../core/compact-figures.js";

/** An argv as a shell would read it (each argument one word, src/core/shell-word.ts), its control characters shown. */
export function shellQuote(argv: readonly string[]): string {
  return showControls(argv.map(shellWord).join(" "));
}

/** "2/5", or "2" when the backend retries within a time budget (no max_attempts). */
export function attemptOf(e: EventOf<"retry.started">): string {
  return e.max_attempts !== undefined ? `${e.attempt}/${e.max_attempts}` : String(e.attempt);
}

/** First line of a native message, cut to a length a terminal line can hold, its control characters shown. */
export function firstLine(text: string, max = 200): string {
  let line = text.split("\n", 1)[0] ?? "";
  // A pretty-printed JSON body ("{", or "Error code: 400 - {"): its first line says nothing, so its lines are joined.
  if (/[{[]\s*$/.test(line) && text.includes("\n")) line = text.slice(0, max * 4).replace(/\s*\n\s*/g, " ");
  return showControls(line.length > max ? `${line.slice(0, max - 1)}…` : line);
}

/** "✔ read_file 120ms", "✖ research-agent › execute 3.2s", "◌ web_search cancelled (run ended)". */
export function toolLine(e: EventOf<"tool.completed">, c: ChalkInstance): string {
  const tool = showControls(e.name);
  const name = e.agent ? `${c.dim(`${showControls(e.agent.name)} ›`)} ${tool}` : tool;
  const duration = e.duration_ms !== undefined ? ` ${c.dim(formatDuration(e.duration_ms))}` : "";
  // The agent ran it though agentstream refused it: said, never passed over as an ordinary call.
  const unapproved = e.unapproved ? ` ${c.red("ran unapproved")}` : "";
  switch (e.status) {
    case "succeeded":
      return `${c.green("✔")} ${name}${duration}${unapproved}`;
    case "failed":
      return `${c.red("✖")} ${name}${duration}${unapproved}`;
    case "cancelled":
      return `${c.yellow("◌")} ${name} ${c.dim(`cancelled${e.reason ? ` (${showControls(e.reason.replace(/_/g, " "))})` : ""}`)}`;
  }
}

/** The most of a request's command, path or URL a line or a question shows; past it, the cut is said. */
export const MAX_SHOWN_TARGET = 4000;

/**
 * What a permission request asks to run, as a person and the log are shown it: its tool and the command, or every
 * path or URL, its input names (src/core/call-targets.ts, as the rules read them, joined by ", ") ("execute: rm -rf ./build"), with the title after it where that says something else
 * ("execute: rm -rf ./build (Running command)"); with no such input, the title. Whole: its lines on one line, each
 * newline and control character shown (␊, ␛), never sent; secrets hidden (`redact`) before it is cut, and a cut
 * past MAX_SHOWN_TARGET said with how much is not shown.
 */
export function actionText(action: InputAction, redact: (text: string) => string = (text) => text): string {
  const targets = inputTargets(action.args ?? {}).filter((target) => target.trim() !== "");
  const target = targets.length > 0 ? targets.join(", ") : undefined;
  const title = action.description.trim();
  const shown = (text: string, max: number): string => showControls(cutSaid(redact(text), max));
  const name = showControls(action.name);
  if (target === undefined) return title === "" ? name : `${name}: ${shown(title, MAX_SHOWN_TARGET)}`;
  const what = shown(target, MAX_SHOWN_TARGET);
  return target.trim() === title || title === "" ? `${name}: ${what}` : `${name}: ${what} (${shown(title, 300)})`;
}

/** Text cut to `max` characters, the cut said: "… (1234 more characters)". */
function cutSaid(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}
