// The layout of test/ (test/layout.mjs states it): every test file is where the layout says, so a test a
// later merge adds at an old place (flat in test/, in test/run/) fails here until
// `node test/layout.mjs apply` moves it; and no offline file imports the live suite's own support.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  checkFile,
  EXCEPTIONS,
  isLayoutFolder,
  layoutReport,
  placeFor,
  ROOT,
  rewritePaths,
  testFiles,
} from "../layout.mjs";

describe("the layout of test/", () => {
  it("every test file is where the layout says (`node test/layout.mjs apply` moves the others)", () => {
    const misplaced = layoutReport().misplaced.map((r) => `${r.file} → ${r.folder ?? "?"}/ (${r.why})`);
    expect(misplaced).toEqual([]);
  });

  it("no file outside test/live/ imports from it: what offline tests share lives in test/helpers/", () => {
    expect(layoutReport().liveImports).toEqual([]);
  });

  it("finds the test files: unit, end-to-end, docs, repository and property suites", () => {
    const files = testFiles();
    for (const kind of ["unit", "e2e", "docs", "repo", "fuzz"])
      expect(files.filter((f) => f.startsWith(`test/${kind}/`)).length, kind).toBeGreaterThan(0);
    expect(files).toContain("test/repo/layout.test.ts");
  });

  it("each exception names a test file and a folder of the layout", () => {
    const names = new Set(testFiles().map((f) => f.split("/").pop()));
    for (const [name, [folder]] of Object.entries(EXCEPTIONS)) {
      expect(names, name).toContain(name);
      expect(isLayoutFolder(`test/${folder}`), folder).toBe(true);
    }
  });
});

describe("the rule", () => {
  const classify = `import { classifyError } from "../src/core/classify.js";\n`;

  it("a test file at an old place is out of place, and told where it belongs", () => {
    expect(checkFile("test/classify-new.test.ts", classify)).toMatchObject({ ok: false, folder: "test/unit/core" });
    const e2e = `import { runCli } from "../helpers/cli.js";\nawait runCli(["normalize", "-"]);\n`;
    expect(checkFile("test/run/some-new.test.ts", e2e)).toMatchObject({ ok: false, folder: "test/e2e/normalize" });
  });

  it("a new file is placed by its name and imports", () => {
    const text = (imports: string[]) => imports.map((i) => `import { x } from "${i}";\n`).join("");
    expect(placeFor("test/x.test.ts", text(["../src/report/builder.js", "../src/canonical/events.js"]))?.folder).toBe(
      "test/unit/report",
    );
    expect(placeFor("test/codex-thing.test.ts", text(["../src/core/errors.js"]))?.folder).toBe(
      "test/unit/backends/codex",
    );
    expect(placeFor("test/readme-new.test.ts", "")?.folder).toBe("test/docs");
    expect(placeFor("test/y.fuzz.test.ts", "")?.folder).toBe("test/fuzz");
    expect(
      placeFor("test/z.test.ts", `import { runCli } from "./helpers/cli.js";\nrunCli(["report", "a"]);\n`)?.folder,
    ).toBe("test/e2e/report");
    // Nothing to go by: the rule says so, and the file must be named in EXCEPTIONS.
    expect(placeFor("test/nothing.test.ts", "")).toBeUndefined();
  });

  it("a file in a folder of the layout stays; a folder src/ does not have is no place", () => {
    expect(checkFile("test/unit/core/new.test.ts", "").ok).toBe(true);
    expect(checkFile("test/unit/nowhere/new.test.ts", classify).ok).toBe(false);
    expect(checkFile("test/e2e/nocommand/new.test.ts", classify).ok).toBe(false);
    expect(checkFile("test/new.test.ts", classify).ok).toBe(false);
  });
});

describe("moving a file rewrites its relative paths for its new folder", () => {
  const at = (path: string) => join(ROOT, path);
  const existing = new Set(
    [
      "",
      "src/core/a.ts",
      "src/core/d.ts",
      "test/helpers/b.ts",
      "test/fixtures/c.mjs",
      "test/fixtures/e",
      "test/fixtures/live",
      "schemas/h.json",
    ].map((p) => at(p).replace(/\/$/, "")),
  );
  const moved = new Map([[at("test/live/support/i.ts"), at("test/helpers/live/i.ts")]]);
  const move = (text: string) =>
    rewritePaths(text, at("test/x.test.ts"), at("test/docs/x.test.ts"), { moved, exists: (p) => existing.has(p) });

  it.each([
    ['import { a } from "../src/core/a.js";', 'import { a } from "../../src/core/a.js";'],
    ['import type { B } from "./helpers/b.js";', 'import type { B } from "../helpers/b.js";'],
    ['const c = await import("./fixtures/c.mjs");', 'const c = await import("../fixtures/c.mjs");'],
    ['vi.mock("../src/core/d.js");', 'vi.mock("../../src/core/d.js");'],
    [
      'fileURLToPath(new URL("./fixtures/e/", import.meta.url))',
      'fileURLToPath(new URL("../fixtures/e/", import.meta.url))',
    ],
    ['new URL("..", import.meta.url)', 'new URL("../..", import.meta.url)'],
    [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a template of a test file, as its text
      "new URL(`./fixtures/live/${n}/x.jsonl`, import.meta.url)",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a template of a test file, as its text
      "new URL(`../fixtures/live/${n}/x.jsonl`, import.meta.url)",
    ],
    ['readJson("../schemas/h.json")', 'readJson("../../schemas/h.json")'],
    ['import { i } from "./live/support/i.js";', 'import { i } from "../helpers/live/i.js";'],
    // What names nothing that exists is data, not a path: left alone.
    [
      'const data = "../not/there"; const dot = "."; split("..")',
      'const data = "../not/there"; const dot = "."; split("..")',
    ],
  ])("%s", (before, after) => {
    expect(move(before)).toBe(after);
  });

  it("a path into a folder a build or a run makes (.gitignore's dist/, .cache/) is a path, made yet or not", () => {
    const text = 'new URL("../.cache/never-made/", import.meta.url); import("../dist/never-built.js")';
    expect(rewritePaths(text, at("test/x.test.ts"), at("test/repo/x.test.ts"))).toBe(
      'new URL("../../.cache/never-made/", import.meta.url); import("../../dist/never-built.js")',
    );
  });
});
