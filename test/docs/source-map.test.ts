// The source map (docs/development.md) names every folder under src/ and every file at its
// top (the library's entry), and nothing that is not there, so it cannot drift
// from the tree. A backend's folder is named once, as `src/backends/<name>/`.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BACKEND_NAMES } from "../../src/backends/registry.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SRC = join(ROOT, "src");
const BACKEND_FOLDER = "src/backends/<name>/";

/** The paragraph that starts "Source map" and runs to the next blank line. */
function sourceMap(): string {
  const page = readFileSync(join(ROOT, "docs/development.md"), "utf8");
  const start = page.indexOf("\nSource map");
  expect(start, "the source map of docs/development.md").toBeGreaterThan(-1);
  const end = page.indexOf("\n\n", start + 1);
  return page.slice(start + 1, end === -1 ? undefined : end);
}

/** Every `src/...` path the map names in backticks. */
function named(): string[] {
  return [...sourceMap().matchAll(/`(src\/[^`]*)`/g)].map((m) => m[1]!);
}

/** Every folder under src/, as `src/a/b/`. */
function folders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      return [`${relative(ROOT, path)}/`, ...folders(path)];
    });
}

const sorted = (items: Iterable<string>) => [...new Set(items)].sort();
const isBackendFolder = (folder: string) => /^src\/backends\/[^/]+\//.test(folder);

describe("the README's source map", () => {
  it("names every folder under src/, and none that is not there", () => {
    const mapped = named().filter((p) => p.endsWith("/") && p !== BACKEND_FOLDER);
    const actual = folders(SRC).filter((f) => !isBackendFolder(f));
    expect(sorted(mapped)).toEqual(sorted(actual));
  });

  it("names the backends' folders as one per registered backend, and src/backends/ holds exactly those", () => {
    expect(named()).toContain(BACKEND_FOLDER);
    const actual = folders(join(SRC, "backends")).filter((f) => /^src\/backends\/[^/]+\/$/.test(f));
    expect(sorted(actual)).toEqual(sorted(BACKEND_NAMES.map((name) => `src/backends/${name}/`)));
  });

  it("names every file at the top of src/, and none that is not there", () => {
    const mapped = named().filter((p) => /^src\/[^/]+\.ts$/.test(p));
    const actual = readdirSync(SRC)
      .filter((f) => f.endsWith(".ts"))
      .map((f) => `src/${f}`);
    expect(sorted(mapped)).toEqual(sorted(actual));
  });
});
