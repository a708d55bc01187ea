// The library's renamed exports keep their old spelling for a release, marked
// @deprecated, and the "Renamed in" table of docs/library.md lists exactly those: each
// old name beside a new one that the library exports undeprecated.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import {
  AtomicTranslator,
  createTranslator,
  detectBackend,
  detectProtocolOwner,
  EvosciTranslator,
  type Ending,
  type ResolvedOutcome,
  type RunOutcome,
  type StreamEnd,
  type StreamEndFacts,
  type TranslatorConclusion,
} from "../../src/index.js";

const INDEX = fileURLToPath(new URL("../../src/index.ts", import.meta.url));
const LIBRARY = readFileSync(fileURLToPath(new URL("../../docs/library.md", import.meta.url)), "utf8");

/** The library's exports, each with whether it is marked @deprecated (on itself or on what it re-exports). */
function exportsOfIndex(): Map<string, boolean> {
  const program = ts.createProgram([INDEX], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(INDEX)!)!;
  const deprecated = (symbol: ts.Symbol) => symbol.getJsDocTags(checker).some((tag) => tag.name === "deprecated");
  return new Map(
    checker.getExportsOfModule(module).map((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return [symbol.name, deprecated(symbol) || deprecated(target)];
    }),
  );
}

/** The "Renamed in" table of docs/library.md: [old names, the new name] per row. */
function renamedTable(): [string[], string][] {
  const start = LIBRARY.search(/\n## Renamed in [\d.]+\n/);
  expect(start, "the Renamed in section of docs/library.md").toBeGreaterThan(-1);
  const lines = LIBRARY.slice(start).split("\n");
  const first = lines.findIndex((line) => line.startsWith("| old |"));
  const rows = lines.slice(
    first + 2,
    lines.findIndex((line, i) => i > first && !line.startsWith("|")),
  );
  return rows.map((row) => {
    const [old, renamed] = row.split(" | ");
    const names = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/\(.*\)$/, ""));
    return [names(old!), names(renamed!)[0]!];
  });
}

describe("renamed exports", () => {
  const exported = exportsOfIndex();

  it("the docs' table lists exactly the exports marked @deprecated", () => {
    const deprecated = [...exported].filter(([, isDeprecated]) => isDeprecated).map(([name]) => name);
    expect(deprecated.length).toBeGreaterThan(0);
    const listed = renamedTable().flatMap(([old]) => old);
    expect([...listed].sort()).toEqual([...deprecated].sort());
  });

  it("each new name is exported, not deprecated (or is a plain type)", () => {
    for (const [, renamed] of renamedTable()) {
      if (renamed === "string") continue;
      expect(exported.get(renamed), renamed).toBe(false);
    }
  });

  it("the old spellings still do what the new ones do", () => {
    for (const first of [{ type: "agent_start" }, { type: "thread.started" }, { type: "nothing known" }])
      expect(detectBackend(first)).toBe(detectProtocolOwner(first));
    expect(detectBackend({ type: "agent_start" })).toBe("atomic");
    expect(new EvosciTranslator()).toBeInstanceOf(createTranslator("evosci").constructor);
    expect(new AtomicTranslator()).toBeInstanceOf(createTranslator("pi").constructor);
    // The old type names are the new types (this file would not compile otherwise).
    const facts: StreamEndFacts = { backendExit: null, stderrTail: [] } satisfies StreamEnd;
    const conclusion: Ending = { drafts: [], outcome: undefined } satisfies TranslatorConclusion;
    const outcome = (o: ResolvedOutcome): RunOutcome => o;
    expect([facts.stderrTail, conclusion.drafts, typeof outcome]).toEqual([[], [], "function"]);
  });
});
