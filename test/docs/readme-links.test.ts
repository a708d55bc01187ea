// Links that work everywhere: in a clone, on any forge and in the installed
// package (npm shows the packed README, and docs/ ships beside it). Every link
// of README.md and docs/**/*.md is relative, names a file that exists and is
// packed, and an #anchor names a heading of that file by GitHub's slug rules.
// No address of a repository the project does not own appears anywhere.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { markdownDocs, ROOT, readDoc, stripFences } from "../helpers/docs.js";

/** Every link target of a Markdown text: inline links and images, reference definitions, HTML src/href; code left out. */
function linkTargets(markdown: string): string[] {
  const text = stripFences(markdown).replace(/`[^`\n]*`/g, "``");
  const targets: string[] = [];
  for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)/g)) targets.push(match[1]!);
  for (const match of text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(\s|$)/gm)) targets.push(match[1]!);
  for (const match of text.matchAll(/\b(?:src|href)="([^"]+)"/g)) targets.push(match[1]!);
  return targets;
}

/** A heading's anchor as GitHub makes it: the rendered text, lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*]/g, "")
    .trim();
  return rendered
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}_\- ]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors of a Markdown text's headings, a repeated one numbered as GitHub numbers it (-1, -2, …). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const match of stripFences(markdown).matchAll(/^ {0,3}#{1,6} +(.*?)(?: +#+)? *$/gm)) {
    const base = slug(match[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

/** The files `npm pack` would put in the tarball (paths relative to the package). */
function packedFiles(): Set<string> {
  const json = execFileSync("npm", ["pack", "--dry-run", "--ignore-scripts", "--json"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return new Set((JSON.parse(json) as { files: { path: string }[] }[])[0]!.files.map((file) => file.path));
}

/** What is wrong with one link of `doc` (a path from the root), or undefined. */
function problem(doc: string, target: string, packed: Set<string>): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("/")) return "not relative";
  const [path = "", anchor] = target.split("#");
  const file = path === "" ? doc : normalize(join(dirname(doc), decodeURI(path)));
  if (file.startsWith("..")) return "outside the repository";
  if (!existsSync(join(ROOT, file)) || !statSync(join(ROOT, file)).isFile()) return `${file} is no file here`;
  if (!packed.has(file)) return `${file} is not in the package`;
  if (anchor !== undefined) {
    if (!file.endsWith(".md")) return `an anchor into ${file}, which has no headings`;
    if (!anchors(readFileSync(join(ROOT, file), "utf8")).has(anchor)) return `${file} has no heading #${anchor}`;
  }
  return undefined;
}

describe("the checks themselves", () => {
  it("slugs as GitHub does: code and punctuation dropped, each space a hyphen", () => {
    expect(slug("`agentstream report [--format md|html|json] [--out FILE] FILE...`")).toBe(
      "agentstream-report---format-mdhtmljson---out-file-file",
    );
    expect(slug("Permissions and continuing a run")).toBe("permissions-and-continuing-a-run");
    expect(slug("Renamed in 0.2.0")).toBe("renamed-in-020");
    expect([...anchors("# A\n```\n# not a heading\n```\n## A\n")]).toEqual(["a", "a-1"]);
  });

  it("flags an absolute link, a missing file, a file the package lacks and a missing heading", () => {
    const packed = new Set(["README.md", "docs/commands.md"]);
    expect(problem("README.md", "https://example.org/x", packed)).toBe("not relative");
    expect(problem("README.md", "docs/none.md", packed)).toMatch(/no file/);
    expect(problem("README.md", "test/docs/readme-links.test.ts", packed)).toMatch(/not in the package/);
    expect(problem("README.md", "docs/commands.md#no-such-heading", packed)).toMatch(/no heading/);
    expect(problem("docs/commands.md", "../README.md#exit-codes", new Set(["README.md"]))).toBeUndefined();
  });
});

describe("links of the README and docs/", () => {
  const packed = packedFiles();
  const docs = markdownDocs();

  it("finds the docs and their links (the extraction works)", () => {
    expect(docs).toContain("docs/commands.md");
    const readme = linkTargets(readDoc("README.md"));
    expect(readme).toContain("docs/commands.md");
    expect(readme.length).toBeGreaterThan(10);
  });

  it("each page under docs/ ships in the package and is linked from the README or a page it links", () => {
    const reached = new Set(["README.md"]);
    const queue = ["README.md"];
    while (queue.length > 0) {
      const doc = queue.shift()!;
      for (const target of linkTargets(readDoc(doc))) {
        const path = target.split("#")[0]!;
        if (path === "" || /^[a-z][a-z0-9+.-]*:/i.test(path)) continue;
        const file = normalize(join(dirname(doc), decodeURI(path)));
        if (file.endsWith(".md") && !reached.has(file) && existsSync(join(ROOT, file))) {
          reached.add(file);
          queue.push(file);
        }
      }
    }
    expect(docs.filter((doc) => !packed.has(doc))).toEqual([]);
    expect(docs.filter((doc) => !reached.has(doc))).toEqual([]);
  });

  it.each(markdownDocs())("%s: every link is relative and resolves, in the clone and in the package", (doc) => {
    const broken = linkTargets(readDoc(doc))
      .map((target) => [target, problem(doc, target, packed)])
      .filter(([, why]) => why !== undefined);
    expect(broken).toEqual([]);
  });
});

describe("no address of a repository the project does not own", () => {
  it("package.json names no repository or homepage, and no tracked file names the made-up GitHub address", () => {
    const manifest = JSON.parse(readDoc("package.json")) as Record<string, unknown>;
    expect(manifest.repository).toBeUndefined();
    expect(manifest.homepage).toBeUndefined();
    expect(manifest.bugs).toBeUndefined();
    const address = ["github.com", "agentstream"].join("/");
    const tracked = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
      cwd: ROOT,
      encoding: "utf8",
    })
      .split("\0")
      .filter((file) => file !== "" && existsSync(join(ROOT, file)));
    const naming = tracked.filter((file) => {
      const path = join(ROOT, file);
      return statSync(path).isFile() && readFileSync(path, "latin1").toLowerCase().includes(address);
    });
    expect(naming).toEqual([]);
  });
});
