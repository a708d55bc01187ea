import { showControls } from "../core/control-chars.js";
import { escapeHtml } from "./escape-html.js";

// Markdown (CommonMark + GitHub's tables) that any text from a stream (tool
// names, errors, answers) cannot break: inline text is backslash-escaped, so
// it never becomes emphasis, a link, raw HTML or a cell boundary; long text
// sits in a fenced block whose fence is longer than any backtick run in it.

// The characters that start inline Markdown anywhere in a line: code,
// emphasis, links and images, raw HTML and entities, GitHub's strikethrough,
// math ($) and mentions (@), and the table's cell boundary.
const ACTIVE = /[\\`*_[\]<>&|~$@]/g;

/**
 * One line of inline text: whitespace runs (newlines included) become one
 * space, control characters are shown, and every character that could start
 * Markdown is backslash-escaped (a leading `-`, `+` or `1.` too, which would
 * start a list inside a list item, and the `:` of `://` and the `.` of `www.`,
 * which GitHub would make a link).
 */
export function inline(text: string): string {
  return (
    showControls(text.replace(/\s+/g, " ").trim())
      .replace(ACTIVE, "\\$&")
      // GitHub's bare autolinks (https://…, www.…).
      .replace(/:(?=\/\/)/g, "\\:")
      .replace(/\b(www)\./gi, "$1\\.")
      .replace(/^([-+])/, "\\$1")
      .replace(/^(\d+)([.)])/, "$1\\$2")
  );
}

/** A table row; each cell is already inline Markdown. */
export function row(cells: readonly string[]): string {
  return `| ${cells.map((c) => (c === "" ? " " : c)).join(" | ")} |`;
}

/** A table: a header row, its delimiter row, then the rows. */
export function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align?: readonly ("l" | "r")[],
): string[] {
  const delimiter = header.map((_, i) => (align?.[i] === "r" ? "---:" : "---"));
  return [row(header), `|${delimiter.join("|")}|`, ...rows.map(row)];
}

/** `text` verbatim in a fenced code block (control characters shown, tabs kept). */
export function fenced(text: string): string[] {
  let longest = 0;
  for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  const fence = "`".repeat(Math.max(3, longest + 1));
  const lines = text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.split("\t").map(showControls).join("\t"));
  return [fence, ...lines, fence];
}

/**
 * A collapsed section: GitHub renders `<details>` with its summary line; the
 * blank lines around the body let it hold Markdown. The summary line is an
 * HTML block, where Markdown is not read: `summary` is plain text, HTML-escaped here.
 */
export function details(summary: string, body: readonly string[]): string[] {
  return [
    `<details><summary>${escapeHtml(showControls(summary.replace(/\s+/g, " ")))}</summary>`,
    "",
    ...body,
    "",
    "</details>",
  ];
}
