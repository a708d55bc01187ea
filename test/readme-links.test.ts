// npm shows the README packed in the tarball, where a link relative to the
// repository breaks unless the file it names is packed too. Every link of the
// README is absolute, or names a file of the package; a link into this
// repository on GitHub names a file that exists here.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const README = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  repository: { url: string };
};
/** https://github.com/OWNER/NAME, from package.json's repository. */
const REPOSITORY = manifest.repository.url.replace(/^git\+/, "").replace(/\.git$/, "");

/** Every link target of a Markdown text: inline links and images, reference definitions, HTML src/href; code left out. */
function linkTargets(markdown: string): string[] {
  const text = markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "``");
  const targets: string[] = [];
  for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)/g)) targets.push(match[1]!);
  for (const match of text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(\s|$)/gm)) targets.push(match[1]!);
  for (const match of text.matchAll(/\b(?:src|href)="([^"]+)"/g)) targets.push(match[1]!);
  return targets;
}

/** The files `npm pack` would put in the tarball (paths relative to the package). */
function packedFiles(): Set<string> {
  const json = execFileSync("npm", ["pack", "--dry-run", "--ignore-scripts", "--json"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return new Set((JSON.parse(json) as { files: { path: string }[] }[])[0]!.files.map((file) => file.path));
}

describe("README links", () => {
  const targets = linkTargets(README);

  it("finds the README's links (the extraction works)", () => {
    expect(targets).toContain(`${REPOSITORY}/blob/main/docs/adding-a-backend.md`);
    expect(targets.length).toBeGreaterThan(10);
  });

  it("each relative link names a file the npm package ships", () => {
    const packed = packedFiles();
    const relative = targets.filter((target) => !/^[a-z][a-z+.-]*:/i.test(target) && !target.startsWith("#"));
    const broken = relative.filter((target) => !packed.has(decodeURI(target.split("#")[0]!).replace(/^\.\//, "")));
    expect(broken, "relative links to files the tarball lacks: make them absolute repository links").toEqual([]);
  });

  it("each link into the repository on GitHub names a file of this tree", () => {
    const prefix = new RegExp(`^${REPOSITORY.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}/(?:blob|raw|tree)/main/([^#?]+)`);
    const missing = targets
      .map((target) => prefix.exec(target)?.[1])
      .filter((path): path is string => path !== undefined && !existsSync(`${ROOT}${decodeURI(path)}`));
    expect(missing).toEqual([]);
  });
});
