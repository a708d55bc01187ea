// The user docs as the tests read them: README.md and every Markdown page under docs/.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The text of a file of the repository, by its path from the root (`docs/commands.md`). */
export function readDoc(path: string): string {
  return readFileSync(join(ROOT, path), "utf8");
}

/** README.md and docs/**\/*.md, paths from the root. */
export function markdownDocs(): string[] {
  const pages = readdirSync(join(ROOT, "docs"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".md"))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
  return ["README.md", ...pages.sort()];
}

/** The text of one section of a Markdown text: from its heading line up to the next heading of its level or above. */
export function section(text: string, heading: string): string {
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no heading ${JSON.stringify(heading)}`);
  const level = /^#+/.exec(heading)![0].length;
  const rest = text.slice(start + heading.length + 2);
  const next = new RegExp(`^#{1,${level}} `, "m").exec(stripFences(rest));
  return text.slice(start, next ? start + heading.length + 2 + next.index : undefined);
}

/** A Markdown text with the lines of its fenced code blocks blanked (same length), so no `#` in code is a heading. */
export function stripFences(text: string): string {
  let fence: string | undefined;
  return text
    .split("\n")
    .map((line) => {
      const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === undefined && opener) {
        fence = opener;
        return " ".repeat(line.length);
      }
      if (fence !== undefined) {
        if (line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, "") === "") fence = undefined;
        return " ".repeat(line.length);
      }
      return line;
    })
    .join("\n");
}
