// The repository stands alone: no test, CI step or package script names a path outside it, so a bare
// clone (nothing beside it) tests itself. Reference samples live in test/fixtures/samples/.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, extname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url)).replace(/[\\/]$/, "");
const SELF = fileURLToPath(import.meta.url);
const SKIP_DIRS = new Set(["node_modules", "output"]);
const CODE = new Set([".ts", ".mts", ".mjs", ".js", ".cjs", ".sh", ".py", ".go", ".mod", ""]);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIP_DIRS.has(entry.name) ? [] : filesUnder(path);
    return entry.isFile() ? [path] : [];
  });
}

/** Problems in one file's text; `code` adds the checks that recorded data (fixtures) would trip falsely. */
function outsidePaths(file: string, text: string, root = ROOT, code = true): string[] {
  const problems: string[] = [];
  // The steering repository's folder, by either name a checkout could give it.
  for (const m of text.matchAll(/(?:\.\.\/)+shared\b|\/work\/shared\b/g)) problems.push(m[0]);
  if (!code) return problems;
  // The checkout's parent and the user's home (not when either is / or the temp folder a clone may sit in).
  const outsideRoots = [dirname(root), homedir()].filter((p) => p !== "/" && p !== tmpdir());
  for (const m of text.matchAll(/["'`]([^"'`\s]*)["'`]/g)) {
    const literal = m[1]!;
    if (literal.startsWith("/")) {
      // Absolute: this machine's workspace, the checkout's own parent or the user's home.
      const hostPath =
        /^\/work\/./.test(literal) ||
        literal === root ||
        literal.startsWith(`${root}/`) ||
        outsideRoots.some((p) => literal.startsWith(`${p}/`) && !literal.startsWith(`${root}/`));
      if (hostPath) problems.push(literal);
    } else if (/(^|\/)\.\.(\/|$)/.test(literal) && /^\.{1,2}\//.test(literal)) {
      // Relative (an import, `new URL(…, import.meta.url)`): resolved from the file's own folder.
      const target = resolve(dirname(file), literal);
      if (relative(root, target).startsWith("..")) problems.push(literal);
    }
  }
  return problems;
}

function scanned(): Array<{ file: string; code: boolean }> {
  const files = [...filesUnder(join(ROOT, "test")), ...filesUnder(join(ROOT, ".ci")), join(ROOT, "package.json")];
  return files
    .filter((file) => file !== SELF && statSync(file).size < 4_000_000)
    .map((file) => {
      const inFixtures = relative(ROOT, file).split(sep).includes("fixtures");
      const ext = extname(file);
      // Recorded data under fixtures/ holds the paths of the machine it was recorded on: only the first check.
      return { file, code: CODE.has(ext) || (!inFixtures && ext === ".json") };
    });
}

describe("the repository stands alone", () => {
  it("no file under test/, .ci/ or package.json names a path outside the repository", () => {
    const found = scanned().flatMap(({ file, code }) =>
      outsidePaths(file, readFileSync(file, "utf8"), ROOT, code).map((p) => `${relative(ROOT, file)}: ${p}`),
    );
    expect(found).toEqual([]);
  });

  it("scans what it claims to: the helpers, the samples' own copies and CI", () => {
    const names = scanned().map(({ file }) => relative(ROOT, file));
    expect(names).toEqual(expect.arrayContaining(["package.json", ".ci/run", "test/helpers/cli.ts"]));
    expect(names.filter((n) => n.startsWith("test/fixtures/samples/")).length).toBeGreaterThan(60);
  });

  it("the check catches each way out: ../shared, /work/shared, a relative escape, the checkout's parent", () => {
    const file = join(ROOT, "test/helpers/cli.ts");
    const up = ["..", "..", ".."].join("/");
    expect(outsidePaths(file, `new URL("${up}/shared/samples/", import.meta.url)`)).not.toEqual([]);
    expect(outsidePaths(file, `const x = "/work/${"shared"}/samples";`)).not.toEqual([]);
    expect(outsidePaths(file, `new URL("${up}/elsewhere/", import.meta.url)`)).toEqual([`${up}/elsewhere/`]);
    expect(outsidePaths(file, `"/work/main/src/x.ts"`)).toEqual(["/work/main/src/x.ts"]);
    expect(outsidePaths(file, `cd "${ROOT}/x"`)).toEqual([`${ROOT}/x`]);
    // Inside the repository, and data that only looks like a path, pass.
    expect(outsidePaths(file, `new URL("../fixtures/samples/", import.meta.url); "/tmp/x"; "/w"`)).toEqual([]);
    expect(outsidePaths(file, `{"cwd":"/work"}`)).toEqual([]);
  });
});
