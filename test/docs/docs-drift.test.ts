// Docs that cannot drift (issue 41): every list of backends the docs, the examples and package.json
// give is the registry's, and every version and requirement they state is package.json's (or the
// test collector's go.mod). docs/backends.md's table of the backends is generated from the registry;
// AGENTSTREAM_WRITE_DOCS=1 writes it anew.
import { readdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { BACKENDS, BACKEND_NAMES } from "../../src/backends/registry.js";
import { markdownDocs, ROOT, readDoc, section } from "../helpers/docs.js";
import { END, renderBackendTable, START, withBackendTable } from "../helpers/backend-table.js";
import { reaches } from "../../src/backends/support.js";

const PACKAGE = JSON.parse(readDoc("package.json")) as {
  version: string;
  description: string;
  keywords: string[];
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** The text files of examples/ (scripts, workflows, the library example), paths from the root. */
function exampleTexts(): string[] {
  return readdirSync(join(ROOT, "examples"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(?:sh|ya?ml|ts|mjs|md)$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

/** Every text a user reads: the Markdown docs, the examples' scripts and package.json. */
const TEXTS = [...markdownDocs(), ...exampleTexts(), "package.json"];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const NAME = `(?:${BACKEND_NAMES.map(escapeRegExp).join("|")})`;

/** Lists of backend names a text gives: `a|b|c` (also `a\|b`, a Markdown cell), and `a, b, c or d` of four or more. */
function backendLists(text: string): string[][] {
  const piped = new RegExp(`\\b${NAME}(?:\\\\?\\|(?:${NAME}|auto)\\b)+`, "g");
  const worded = new RegExp(`\\b${NAME}(?:(?:, | or | and )${NAME}\\b){3,}`, "g");
  return [...text.matchAll(piped), ...text.matchAll(worded)].map((m) =>
    m[0].split(/\\?\||, | or | and /).filter((name) => name !== "auto"),
  );
}

/** `AGENTSTREAM_<NAME>_BIN` variables named on each line that names two or more. */
function binVariableLists(text: string): string[][] {
  return text
    .split("\n")
    .map((line) => [...new Set([...line.matchAll(/AGENTSTREAM_[A-Z0-9]+_BIN/g)].map((m) => m[0]))])
    .filter((names) => names.length > 1);
}

/** -1, 0 or 1 as version a is below, equal to or above version b (numeric parts). */
function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

describe("the checks themselves", () => {
  it("find a list of backends short of the registry's, piped or worded, and variables listed on one line", () => {
    expect(backendLists("`--backend evosci|atomic|pi` and `--from evosci\\|pi\\|auto`")).toEqual([
      ["evosci", "atomic", "pi"],
      ["evosci", "pi"],
    ]);
    expect(backendLists("#   AGENT_BACKEND      evosci, atomic, pi, gemini, codex or claude")).toEqual([
      ["evosci", "atomic", "pi", "gemini", "codex", "claude"],
    ]);
    expect(backendLists("md|html|json; Atomic and pi")).toEqual([]);
    expect(binVariableLists("`$AGENTSTREAM_PI_BIN` / `$AGENTSTREAM_CODEX_BIN`\n`$AGENTSTREAM_PI_BIN`")).toEqual([
      ["AGENTSTREAM_PI_BIN", "AGENTSTREAM_CODEX_BIN"],
    ]);
    expect(compareVersions("0.2.0", "0.10.0")).toBe(-1);
  });
});

describe("every list of backends is the registry's", () => {
  it.each(TEXTS)("%s: each list of backend names names all of them, in the registry's order", (file) => {
    for (const list of backendLists(readDoc(file))) expect(list, `${file}: ${list.join("|")}`).toEqual(BACKEND_NAMES);
  });

  it.each(TEXTS)("%s: each line naming backends' executable variables names all of them", (file) => {
    const all = BACKENDS.map((b) => b.binEnvVar);
    for (const list of binVariableLists(readDoc(file))) expect([...list].sort(), file).toEqual([...all].sort());
  });

  it("docs/backends.md's table is the one generated from the registry", () => {
    const page = readDoc("docs/backends.md");
    const expected = withBackendTable(page, BACKENDS);
    if (process.env.AGENTSTREAM_WRITE_DOCS === "1") writeFileSync(join(ROOT, "docs/backends.md"), expected);
    const block = (text: string) => text.slice(text.indexOf(START), text.indexOf(END) + END.length);
    expect(block(page)).toBe(block(expected));
    for (const backend of BACKENDS) expect(renderBackendTable(BACKENDS)).toContain(`\`${backend.binEnvVar}\``);
  });

  it("package.json: the description names every backend, the keywords each name", () => {
    for (const backend of BACKENDS) expect(PACKAGE.description).toContain(backend.displayName);
    for (const name of BACKEND_NAMES) expect(PACKAGE.keywords).toContain(name === "evosci" ? "evoscientist" : name);
  });

  it("examples/ci/run-agent.sh's header lists every backend for AGENT_BACKEND", () => {
    const line = readDoc("examples/ci/run-agent.sh")
      .split("\n")
      .find((l) => l.includes("AGENT_BACKEND "))!;
    for (const name of BACKEND_NAMES) expect(line).toContain(name);
  });

  it("docs/commands.md: run's heading and --backend row, normalize's --from row list every backend", () => {
    const commands = readDoc("docs/commands.md");
    const piped = (prefix: string) =>
      commands
        .split("\n")
        .find((l) => l.startsWith(prefix))
        ?.slice(prefix.length);
    expect(piped("## `agentstream run --backend ")).toMatch(new RegExp(`^${BACKEND_NAMES.join("\\|")} `));
    expect(piped("| `--backend ")).toMatch(new RegExp(`^${BACKEND_NAMES.join("\\\\\\|")}\``));
    expect(piped("| `--from ")).toMatch(new RegExp(`^${BACKEND_NAMES.join("\\\\\\|")}\\\\\\|auto\``));
  });

  it("docs/commands.md: the launch list shows every backend's command line, the --workdir row every backend that takes it", () => {
    const run = section(
      readDoc("docs/commands.md"),
      `## \`agentstream run --backend ${BACKEND_NAMES.join("|")} [options] [--] PROMPT\``,
    );
    for (const backend of BACKENDS)
      expect(run, backend.name).toMatch(new RegExp(`^- ${escapeRegExp(backend.displayName)}: `, "m"));
    const row = run.split("\n").find((l) => l.startsWith("| `--workdir DIR`"))!;
    const taking = BACKENDS.filter((b) => reaches(b.supports.workdir));
    expect(taking.length).toBeGreaterThan(1);
    for (const backend of taking) expect(row, backend.name).toContain(backend.displayName);
    expect(row).not.toContain("EvoScientist only");
  });
});

describe("every version and requirement the docs state is package.json's", () => {
  it.each(TEXTS)("%s: a Node.js requirement is package.json's engines", (file) => {
    const minimum = /^>=\s*([\d.]+)$/.exec(PACKAGE.engines.node)![1]!;
    for (const m of readDoc(file).matchAll(/Node\.js (\d+(?:\.\d+)*) or later/g)) expect(m[1], file).toBe(minimum);
  });

  it.each(TEXTS)("%s: a tarball and a service.version name the package's version", (file) => {
    const text = readDoc(file);
    for (const m of text.matchAll(/agentstream-(\d+\.\d+\.\d+)\.tgz/g)) expect(m[1], file).toBe(PACKAGE.version);
    for (const m of text.matchAll(/"service\.version": "([^"]+)"/g)) expect(m[1], file).toBe(PACKAGE.version);
  });

  it("the agentstream versions the contract, the renamed exports and the report name are this one or older", () => {
    const named = [
      ...section(readDoc("docs/canonical-stream.md"), "## Contract changes").matchAll(/^\| (\d+\.\d+\.\d+) \|/gm),
      ...readDoc("docs/library.md").matchAll(/(?:Renamed in|still work in) (\d+\.\d+\.\d+)/g),
      ...readDoc("docs/reports.md").matchAll(/Additions to report v1 in (\d+\.\d+\.\d+)/g),
      ...readDoc("schemas/canonical-v1.schema.json").matchAll(/added in (\d+\.\d+\.\d+)/g),
    ].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(3);
    for (const version of named) expect(compareVersions(version, PACKAGE.version), version).toBeLessThanOrEqual(0);
    // The deprecated spellings "still work" in the version this is.
    expect(readDoc("docs/library.md")).toContain(`still work in ${PACKAGE.version}`);
  });

  it.each(TEXTS)("%s: a pinned package's version, where stated, is the pin", (file) => {
    const text = readDoc(file);
    const pins = Object.entries({ ...PACKAGE.dependencies, ...PACKAGE.devDependencies }).filter(([, v]) =>
      /^\d/.test(v),
    );
    for (const [name, pin] of pins) {
      const names = [name, ...(name.includes("/") && name.split("/")[1]!.includes("-") ? [name.split("/")[1]!] : [])];
      for (const spelled of names)
        for (const m of text.matchAll(
          new RegExp(`(?<![\\w/@-])\`?${escapeRegExp(spelled)}\`? v?(\\d+\\.\\d+\\.\\d+)`, "g"),
        ))
          expect(`${spelled} ${m[1]}`, file).toBe(`${spelled} ${pin}`);
    }
  });

  it("the test collector's versions and Go's are go.mod's", () => {
    const gomod = readDoc("test/otel/collector/go.mod");
    const go = /^go (\d+\.\d+)/m.exec(gomod)![1]!;
    const version = (module: string) => new RegExp(`${escapeRegExp(module)} (v[\\d.]+)`).exec(gomod)![1]!;
    const page = readDoc("docs/development.md").replace(/\s+/g, " ");
    expect(page).toContain(`the machine's Go (${go})`);
    expect(page).toContain(
      `core ${version("go.opentelemetry.io/collector/otelcol")} with its ${version("go.opentelemetry.io/collector/component")} modules, contrib ${version("github.com/open-telemetry/opentelemetry-collector-contrib/exporter/fileexporter")}`,
    );
  });

  it("docs/development.md's Dependencies name every package package.json declares", () => {
    const table = section(readDoc("docs/development.md"), "## Dependencies");
    for (const name of Object.keys({ ...PACKAGE.dependencies, ...PACKAGE.devDependencies }))
      expect(table, name).toContain(`\`${name}\``);
    expect(table).not.toContain("design card");
  });
});
