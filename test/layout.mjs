#!/usr/bin/env node
// The layout of test/, and the tool that keeps it (issue 46 item 7: tests read as the code).
//
//   test/unit/<folder of src/>/   a module's tests, by the folder of src/ it lives in (backends/<name>/ for a
//                                 backend's own); a unit test may run the CLI for a check or two
//   test/e2e/<command>/           the built bin/agentstream.js run as a process, by the command it runs
//                                 (src/cli/<command>-command.ts), or e2e/cli/ for the program as a whole
//   test/docs/                    what README.md, docs/ and examples/ state, checked against the code
//   test/repo/                    the repository itself: its layers, package, CI, bench, test tools and layout
//   test/fuzz/                    the property-based suites (FUZZ_SEED, FUZZ_RUNS)
//   test/live/                    the live suite (*.live.ts, its own config): real backends, apart
//   test/helpers/                 the one helper folder: what tests share (helpers/fuzz/: the generators,
//                                 helpers/live/: what the live suite shares with the offline tests)
//   test/fixtures/, bench/, otel/ data, the bench, the test collector's build
//
// A new test file is placed by its name and imports (placeFor below); EXCEPTIONS names the files the rule
// would place otherwise. A file already in a folder of the layout stays where it is.
//
//   node test/layout.mjs               the test files out of place and where they belong (exit 1 if any)
//   node test/layout.mjs where FILE... where each file belongs, and why
//   node test/layout.mjs list          every test file, its place and why
//   node test/layout.mjs apply         git mv each file out of place (and each helper of MOVED_MODULES) to its
//                                      place, rewriting the relative paths in it for its new folder and, in
//                                      every file, the paths that named a moved file
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url)).replace(/[\\/]$/, "");

/** Folders under test/ that are not the default suite's test folders (never scanned for misplaced tests). */
const APART = ["fixtures", "live", "bench", "otel", "output"];
/** Folders of the layout that take any test file. */
const FLAT_KINDS = ["docs", "repo", "fuzz"];

/** Files the rule would place elsewhere, by name: where they belong, and why. */
export const EXCEPTIONS = {
  // The repository itself.
  "architecture.test.ts": ["repo", "the layers of src/ and the helpers' folder"],
  "self-contained.test.ts": ["repo", "no path outside the repository"],
  "package.test.ts": ["repo", "the npm package as packed"],
  "ci-script.test.ts": ["repo", ".ci/run"],
  "layout.test.ts": ["repo", "this layout"],
  // What the docs and the examples state.
  "ci-example.test.ts": ["docs", "examples/ci/"],
  "compatibility-table.test.ts": ["docs", "docs/backends.md's Compatibility table"],
  "examples-reproduce.test.ts": ["docs", "docs/development.md's command for the examples"],
  "fleets-collector.test.ts": ["docs", "docs/fleets.md's collector"],
  "install-docs.test.ts": ["docs", "how the README and examples install"],
  "jq-recipes.test.ts": ["docs", "examples/jq/ and docs/canonical-stream.md"],
  "renamed-exports.test.ts": ["docs", "docs/library.md's Renamed table"],
  "source-map.test.ts": ["docs", "docs/development.md's source map"],
  // Unit tests that run the CLI for a check or two, or whose module the rule cannot tell.
  "acp-backend.test.ts": ["unit/backends/acp", "the ACP translator"],
  "built-validator.test.ts": ["unit/schema", "the validator built from the schema"],
  "detection.test.ts": ["unit/backends", "src/backends/detect.ts"],
  "first-line.test.ts": ["unit/human", "src/human/format.ts's firstLine"],
  "library-cli-parity.test.ts": ["unit/lib", "the library against the CLI"],
  "library-run.test.ts": ["unit/lib", "the library's run()"],
  "limit-watch.test.ts": ["unit/app", "src/app/limit-watch.ts"],
  "native-catalog.test.ts": ["unit/backends", "the backends' native catalogs"],
  "output-schema.test.ts": ["unit/app", "--output-schema through run and normalize (src/run/output-schema.ts)"],
  "report-html-browser.test.ts": ["unit/report/html", "the HTML report in a browser"],
  "option-table.test.ts": ["unit/app", "src/app/options.ts"],
  "temp-cleanup.test.ts": ["unit/lib", "the library's run() and its temporary files"],
  "translator-bug.test.ts": ["unit/core", "src/core/translation-session.ts"],
  "prototype-keys.test.ts": ["unit/core", "src/core/own-table.ts and the tables keyed by outside text"],
  "quoted-slices.test.ts": ["unit/core", "src/core/json-problem.ts and the schema message's cut"],
  "schema.test.ts": ["unit/schema", "the published schemas and the contract's lists in them"],
  // The built bin as a process, though the file imports from src/.
  "acp-run.test.ts": ["e2e/run", "run --backend acp"],
  "acp-transport.test.ts": ["e2e/run", "run --backend qwen, --transport"],
  "answer-file.test.ts": ["e2e/cli", "--answer-file of run and normalize"],
  "cli-usage-hints.test.ts": ["e2e/cli", "hints for any command"],
  "example-replay.test.ts": ["e2e/run", "npm run demo"],
  "lazy-load.test.ts": ["e2e/cli", "what start-up loads"],
  "prices-lazy-load.test.ts": ["e2e/cli", "what start-up loads"],
  "run-report.test.ts": ["e2e/run", "run --report"],
  "continue-from.test.ts": ["e2e/run", "run --continue-from"],
  "flag-values.test.ts": ["e2e/run", "run's refusals of flag-like values"],
  "floods.test.ts": ["e2e/run", "run under floods"],
  "limits.test.ts": ["e2e/run", "run's limits"],
  "normalize-stderr.test.ts": ["e2e/normalize", "normalize's stderr"],
  "otlp-export.test.ts": ["e2e/export", "OTLP export by every command"],
  "output-files.test.ts": ["e2e/cli", "the files run and report write"],
  "output-schema-native.test.ts": ["e2e/run", "run --output-schema through the stand-in"],
  "report-recording-times.test.ts": ["e2e/report", "report of a recording"],
  "samples.test.ts": ["e2e/normalize", "normalize of the reference samples"],
  "security.test.ts": ["e2e/run", "run: no shell, redaction"],
  "usage-model.test.ts": ["e2e/run", "run's cost of usage naming no model"],
};

/**
 * Helper modules moved into test/helpers/ (from the live suite's support, which offline tests imported,
 * and from test/fuzz/, which held the generators beside the suites). A path naming the old place is
 * rewritten to the new one by `apply`, in any file.
 */
export const MOVED_MODULES = {
  "test/live/support/compat-table.ts": "test/helpers/live/compat-table.ts",
  "test/live/support/drift.ts": "test/helpers/live/drift.ts",
  "test/live/support/latest.mjs": "test/helpers/live/latest.mjs",
  "test/live/support/latest.d.mts": "test/helpers/live/latest.d.mts",
  "test/live/support/live-targets.mjs": "test/helpers/live/live-targets.mjs",
  "test/live/support/live-targets.d.mts": "test/helpers/live/live-targets.d.mts",
  "test/live/support/spawn-collect.mjs": "test/helpers/live/spawn-collect.mjs",
  ...Object.fromEntries(
    [
      "absorbed",
      "atomic-events",
      "blocks",
      "check-case",
      "evosci-events",
      "failures",
      "feed",
      "fuzz-case",
      "key-order",
      "line-accounting",
      "native-bytes",
      "native-lines",
      "outcome-oracle",
      "run-end",
      "settings",
      "text",
      "translator-properties",
      "wild",
    ].map((name) => [`test/fuzz/${name}.ts`, `test/helpers/fuzz/${name}.ts`]),
  ),
};

// ---- what the code is: src/'s folders and files, the CLI's commands ----

function walk(dir, keep = () => true) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return keep(path) ? walk(path, keep) : [];
    return [path];
  });
}

const posix = (path) => path.split(sep).join("/");

/** src/'s folders (canonical, backends, backends/acp, ...), its files by name, and the CLI's commands. */
export function sourceIndex(root = ROOT) {
  const files = walk(join(root, "src")).map((f) => posix(relative(join(root, "src"), f)));
  const folders = new Set(files.map((f) => f.split("/").slice(0, -1).join("/")).filter(Boolean));
  for (const f of [...folders]) for (let p = f; p.includes("/"); p = p.slice(0, p.lastIndexOf("/"))) folders.add(p);
  const byName = new Map();
  for (const f of files.filter((f) => f.includes("/") && f.endsWith(".ts"))) {
    const name = basename(f, ".ts");
    byName.set(name, [...(byName.get(name) ?? []), f]);
  }
  const commands = files.flatMap((f) => /^cli\/([a-z]+)-command\.ts$/.exec(f)?.[1] ?? []);
  const backends = [...folders].flatMap((f) => /^backends\/([a-z]+)$/.exec(f)?.[1] ?? []);
  return { folders, byName, commands, backends };
}

// ---- where a test file belongs ----

const RUNS_BIN = new Set(["runCli", "BIN", "runStandIn", "spawnCli", "startCli", "cliForNobody", "standInRun"]);

/** What a test file imports: the src/ modules (relative to src/) and the names it takes from test/helpers/. */
function importsOf(relPath, text) {
  const dir = dirname(relPath);
  const src = [];
  const helperNames = new Set();
  const helpers = new Set();
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)) {
    const target = posix(join(dir, m[1]));
    if (target.startsWith("src/")) src.push(target.slice(4).replace(/\.js$/, ".ts"));
    if (target.startsWith("test/helpers/")) helpers.add(target.slice("test/helpers/".length));
  }
  for (const m of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*"(\.{1,2}\/[^"]+)"/g)) {
    if (!posix(join(dir, m[2])).startsWith("test/helpers/")) continue;
    for (const name of m[1].split(","))
      helperNames.add(
        name
          .replace(/^\s*type\s+/, "")
          .split(/\s+as\s+/)[0]
          .trim(),
      );
  }
  return { src: [...new Set(src)], helpers, helperNames };
}

/** The CLI command an end-to-end test runs most: by its name, else by the argv it gives. */
function commandOf(stem, text, commands) {
  const prefix = stem.split("-")[0];
  if (commands.includes(prefix)) return prefix;
  if (prefix === "otlp") return "export";
  const counts = new Map();
  const add = (command) => counts.set(command, (counts.get(command) ?? 0) + 1);
  for (const m of text.matchAll(/"([a-z]+)"/g)) if (commands.includes(m[1])) add(m[1]);
  // The stand-in's runners run `run`.
  for (const _ of text.matchAll(/\b(?:runStandIn|standInRun|startCli|spawnCli)\(/g)) add("run");
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  if (ranked.length === 0 || (ranked.length > 1 && ranked[0][1] === ranked[1][1])) return "cli";
  return ranked[0][0];
}

/** The folder of src/ a unit test tests: by its name (a backend, a module), else the folder it imports most. */
function unitFolderOf(stem, src, index) {
  const prefix = stem.split("-")[0];
  if (index.backends.includes(prefix)) return `backends/${prefix}`;
  const named = index.byName.get(stem) ?? [];
  const imported = named.filter((f) => src.includes(f));
  // Else the imported module whose name begins the test's (continue-from-long-lines: run/continue-from.ts).
  const prefixed = src
    .filter((f) => stem.startsWith(`${basename(f, ".ts")}-`))
    .sort((a, b) => basename(b).length - basename(a).length);
  const byName = imported.length === 1 ? imported[0] : named.length === 1 ? named[0] : prefixed[0];
  if (byName) return dirname(byName);
  const counts = new Map();
  for (const f of src) {
    const folder = f.includes("/") ? dirname(f) : "lib"; // src/index.ts is the library's entry
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  // Every test imports the event types: canonical/ counts only for a test that imports nothing else.
  if (counts.size > 1) counts.delete("canonical");
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  if (ranked.length === 0 || (ranked.length > 1 && ranked[0][1] === ranked[1][1])) return undefined;
  return ranked[0][0];
}

/** Where a test file belongs by the rule (EXCEPTIONS first): a folder under test/, and why; or undefined. */
export function placeFor(relPath, text, index = sourceIndex()) {
  const name = basename(relPath);
  const stem = name.replace(/\.test\.ts$/, "").replace(/\.fuzz$/, "");
  if (EXCEPTIONS[name]) return { folder: `test/${EXCEPTIONS[name][0]}`, why: `listed: ${EXCEPTIONS[name][1]}` };
  if (name.endsWith(".fuzz.test.ts")) return { folder: "test/fuzz", why: "a property-based suite (*.fuzz.test.ts)" };
  const { src, helpers, helperNames } = importsOf(relPath, text);
  if (helpers.has("docs.js") || /^(readme|docs)(-|$)/.test(stem))
    return { folder: "test/docs", why: "reads the docs (its name, or helpers/docs.ts)" };
  if (/^(bench|otel)-/.test(stem)) return { folder: "test/repo", why: "tests the bench or the test collector" };
  const runsBin = [...helperNames].some((n) => RUNS_BIN.has(n)) || text.includes("bin/agentstream.js");
  // <command>-cli: the command as a process, whatever it imports.
  if (runsBin && (src.length === 0 || stem.endsWith("-cli"))) {
    const command = commandOf(stem, text, index.commands);
    return {
      folder: `test/e2e/${command}`,
      why: `runs the built bin (${command === "cli" ? "the program" : command})`,
    };
  }
  const folder = unitFolderOf(stem, src, index);
  if (folder) return { folder: `test/unit/${folder}`, why: `tests src/${folder}/` };
  return undefined;
}

/** Is this folder (relative to the root) one of the layout's? */
export function isLayoutFolder(folder, index = sourceIndex()) {
  const parts = folder.split("/");
  if (parts[0] !== "test" || parts.length < 2) return false;
  if (FLAT_KINDS.includes(parts[1])) return parts.length === 2;
  if (parts[1] === "unit") return parts.length > 2 && index.folders.has(parts.slice(2).join("/"));
  if (parts[1] === "e2e") return parts.length === 3 && (parts[2] === "cli" || index.commands.includes(parts[2]));
  return false;
}

/** The default suite's test files, relative to the root. */
export function testFiles(root = ROOT) {
  const keep = (dir) => !(dirname(dir) === join(root, "test") && APART.includes(basename(dir)));
  return walk(join(root, "test"), keep)
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => posix(relative(root, f)))
    .sort();
}

/** One test file: where it is, where it belongs, and whether that is the same. */
export function checkFile(relPath, text, index = sourceIndex()) {
  const here = dirname(relPath);
  const listed = EXCEPTIONS[basename(relPath)];
  // A listed file has one place; any other file in a folder of the layout stays where it is.
  if (!listed && isLayoutFolder(here, index))
    return { file: relPath, folder: here, why: "in a folder of the layout", ok: true };
  const place = placeFor(relPath, text, index);
  if (!place)
    return { file: relPath, folder: undefined, why: "the rule cannot place it: name it in EXCEPTIONS", ok: false };
  return { file: relPath, ...place, ok: place.folder === here };
}

/** Every default-suite test file checked; and the files outside test/live/ that import from it. */
export function layoutReport(root = ROOT) {
  const index = sourceIndex(root);
  const files = testFiles(root).map((f) => checkFile(f, readFileSync(join(root, f), "utf8"), index));
  const liveImports = walk(join(root, "test"), (dir) => !["fixtures", "live", "output"].includes(basename(dir)))
    .filter((f) => /\.(ts|mts|mjs|js)$/.test(f))
    .flatMap((f) =>
      [...readFileSync(f, "utf8").matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)]
        .filter((m) => posix(relative(root, resolve(dirname(f), m[1]))).startsWith("test/live/"))
        .map((m) => `${posix(relative(root, f))} imports ${m[1]}`),
    );
  return { files, misplaced: files.filter((f) => !f.ok), liveImports };
}

// ---- moving a file: its relative paths, and the paths that named it ----

const moduleVariants = (path) => [path, path.replace(/\.js$/, ".ts"), path.replace(/\.mjs$/, ".mts")];

/** The folders .gitignore names (dist/, .cache/, test/output/...): a path into one names what a build or run makes. */
function ignoredFolders(root) {
  const file = join(root, ".gitignore");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .map((line) => line.trim().replace(/^\/|\/$/g, ""))
    .filter((line) => line && !line.startsWith("#") && !/[*?[!]/.test(line));
}

/** Does this path exist, or lie in a folder a build or a run makes (dist/ before a build, .cache/)? */
export function existsOrMade(path, root = ROOT) {
  if (existsSync(path)) return true;
  const rel = posix(relative(root, path));
  return !rel.startsWith("..") && ignoredFolders(root).some((f) => rel === f || rel.startsWith(`${f}/`));
}

/**
 * The text of a file moved from `from` to `to` (absolute paths), every relative path in it naming what it
 * named before: import specifiers, import(), new URL("...", import.meta.url) (a template's leading part
 * too), vi.mock() and any other string that starts with ./ or ../ and named an existing file or folder
 * (or one in a folder .gitignore names: dist/, .cache/, test/output/).
 * `moved` maps a moved file's old absolute path to its new one; `exists` says whether a path existed.
 */
export function rewritePaths(text, from, to, { moved = new Map(), exists = existsOrMade } = {}) {
  const fromDir = dirname(from);
  const toDir = dirname(to);
  const retarget = (literal) => {
    const target = resolve(fromDir, literal);
    const variants = moduleVariants(target);
    const movedTo = variants.map((v) => moved.get(v)).find(Boolean);
    if (!movedTo && !variants.some((v) => exists(v))) return undefined;
    // The specifier keeps its own extension (.js for a .ts module).
    const newTarget = movedTo ? join(dirname(movedTo), basename(target)) : target;
    let rel = posix(relative(toDir, newTarget)) || ".";
    if (!rel.startsWith(".")) rel = `./${rel}`;
    if (literal.endsWith("/") && !rel.endsWith("/")) rel += "/";
    return rel === literal ? undefined : rel;
  };
  // "./x", '../x', and "." or ".." as new URL's first argument.
  let out = text.replace(/(["'])(\.{1,2}(?:\/[^"'\n]*)?)\1/g, (whole, quote, literal, offset, all) => {
    if (!literal.includes("/") && !/new URL\(\s*$/.test(all.slice(Math.max(0, offset - 12), offset))) return whole;
    const rel = retarget(literal);
    return rel === undefined ? whole : `${quote}${rel}${quote}`;
  });
  // A template's leading part up to its last / before the first ${...}: `./fixtures/live/${agent}/x.jsonl`.
  out = out.replace(/`(\.{1,2}\/(?:[^`$\n]*\/)?)([^`$\n/]*(?:\$\{|`))/g, (whole, dir, rest) => {
    const rel = retarget(dir);
    return rel === undefined ? whole : `\`${rel}${rest}`;
  });
  return out;
}

/** Text files that may name a test path: the docs, the code, CI and the package's configuration. */
function mentionFiles(root) {
  const skip = new Set(["node_modules", "dist", ".git", "output", ".cache"]);
  const tops = ["README.md", "package.json", "knip.json", "biome.json", "docs", "src", "test", ".ci", "examples"];
  return tops
    .map((t) => join(root, t))
    .filter(existsSync)
    .flatMap((p) =>
      statSync(p).isDirectory() ? walk(p, (d) => !skip.has(basename(d)) && basename(d) !== "fixtures") : [p],
    )
    .filter((f) => /\.(md|ts|mts|mjs|js|json|sh|yml|yaml)$|\/\.ci\/[^/.]+$/.test(f));
}

/** Rewrites `test/<old path>` mentions in one text: by the moves made, else by a test file's unique name. */
export function rewriteMentions(text, moves, byName) {
  return text.replace(/\btest\/[\w./-]*\w\.(?:test\.ts|ts|mts|mjs)\b/g, (mention) => {
    if (moves.has(mention)) return moves.get(mention);
    const same = byName.get(basename(mention));
    return same && same.length === 1 && !same.includes(mention) && !existsSync(join(ROOT, mention)) ? same[0] : mention;
  });
}

function gitMv(root, from, to) {
  execFileSync("git", ["mv", from, to], { cwd: root, stdio: "inherit" });
}

/** Moves every helper of MOVED_MODULES and every misplaced test file; rewrites paths; returns the moves. */
export function applyLayout(root = ROOT, log = console.log) {
  const abs = (p) => join(root, p);
  const moves = new Map(); // relative old → relative new
  for (const [from, to] of Object.entries(MOVED_MODULES))
    if (existsSync(abs(from)) && !existsSync(abs(to))) moves.set(from, to);
  const { misplaced } = layoutReport(root);
  for (const f of misplaced) {
    if (!f.folder) {
      log(`cannot place ${f.file}: ${f.why}`);
      continue;
    }
    const to = `${f.folder}/${basename(f.file)}`;
    if (existsSync(abs(to))) log(`not moved: ${f.file} (${to} exists already; merge them by hand)`);
    else moves.set(f.file, to);
  }
  // The helpers moved before (a file merged since may still name their old places) and the moves of this run.
  const renamed = new Map([...Object.entries(MOVED_MODULES), ...moves]);
  const movedAbs = new Map([...renamed].map(([a, b]) => [abs(a), abs(b)]));
  // Each moved file's own paths, for its new folder (read before anything moves, so the old targets exist).
  const texts = new Map(
    [...moves].map(([from, to]) => [
      to,
      rewritePaths(readFileSync(abs(from), "utf8"), abs(from), abs(to), { moved: movedAbs }),
    ]),
  );
  const rewritten = new Set();
  for (const [from, to] of moves) {
    mkdirSync(dirname(abs(to)), { recursive: true });
    gitMv(root, from, to);
    writeFileSync(abs(to), texts.get(to));
    rewritten.add(abs(to));
    log(`${from} → ${to}`);
  }
  // Paths in every other file that named a moved file, and mentions of old test paths in docs and comments.
  const byName = new Map();
  for (const f of [...walk(abs("test"), (d) => basename(d) !== "fixtures")].map((p) => posix(relative(root, p))))
    byName.set(basename(f), [...(byName.get(basename(f)) ?? []), f]);
  // This file names the old places on purpose (MOVED_MODULES).
  const self = fileURLToPath(import.meta.url);
  for (const file of mentionFiles(root).filter((f) => f !== self)) {
    const text = readFileSync(file, "utf8");
    let next = rewriteMentions(text, renamed, byName);
    if (/\.(ts|mts|mjs|js)$/.test(file) && !texts.has(posix(relative(root, file))))
      next = rewritePaths(next, file, file, {
        moved: movedAbs,
        exists: (p) => existsOrMade(p, root) && !movedAbs.has(p),
      });
    if (next !== text) {
      writeFileSync(file, next);
      rewritten.add(file);
      log(`paths rewritten: ${posix(relative(root, file))}`);
    }
  }
  // A path grown by a folder or two may pass the line width: the formatter lays the code out again.
  const code = [...rewritten].filter((f) => /\.(ts|mts|mjs|js)$/.test(f));
  if (code.length > 0) {
    try {
      execFileSync("npx", ["biome", "format", "--write", ...code], { cwd: root, stdio: "ignore" });
    } catch {
      log("biome format failed: run `npx biome format --write test src` before committing");
    }
  }
  return moves;
}

// ---- the command line ----

function main(argv) {
  const [command = "check", ...args] = argv;
  const index = sourceIndex();
  const show = (r) => `${r.file} → ${r.folder ?? "?"}/  (${r.why})`;
  if (command === "where") {
    for (const f of args) {
      const rel = posix(relative(ROOT, resolve(f)));
      console.log(show(checkFile(rel, readFileSync(join(ROOT, rel), "utf8"), index)));
    }
    return 0;
  }
  if (command === "list") {
    for (const r of layoutReport().files) console.log(`${r.ok ? "  " : "✗ "}${show(r)}`);
    return 0;
  }
  if (command === "apply") {
    const moves = applyLayout();
    const after = layoutReport();
    console.log(
      `${moves.size} moved; ${after.misplaced.length} still out of place; ${after.liveImports.length} imports from test/live/`,
    );
    for (const r of after.misplaced) console.log(`✗ ${show(r)}`);
    for (const l of after.liveImports) console.log(`✗ ${l}`);
    return after.misplaced.length + after.liveImports.length === 0 ? 0 : 1;
  }
  if (command === "check") {
    const { misplaced, liveImports } = layoutReport();
    for (const r of misplaced) console.log(`✗ ${show(r)}`);
    for (const l of liveImports) console.log(`✗ ${l} (the live suite's support is the live suite's own)`);
    if (misplaced.length + liveImports.length === 0) console.log("every test file is where the layout says");
    return misplaced.length + liveImports.length === 0 ? 0 : 1;
  }
  console.error(`unknown command ${command}: check, where FILE..., list or apply`);
  return 2;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  process.exitCode = main(process.argv.slice(2));
