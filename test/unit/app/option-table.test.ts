// Each option of run and normalize is declared once, in src/app/options.ts:
// commander's options and the library's checks are made from that table.
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { RUN_OPTIONS } from "../../../src/app/options.js";
import { buildProgram } from "../../../src/cli/main.js";
import { UsageError } from "../../../src/core/errors.js";
import { checkEntryOptions } from "../../../src/lib/options.js";
const checkRunOptions = (options: unknown): void => checkEntryOptions("run", options);
import { normalizeStream } from "../../../src/lib/normalize.js";
import { cliRows, libraryRows } from "../../../src/app/options.js";
import { TABLE_ROWS } from "../../../src/app/options.js";
import { PORTABLE_ROWS } from "../../../src/backends/portable-rows.js";
import { clisOf, optionTable } from "../../../src/core/option-row.js";

function commandNamed(name: string): Command {
  return buildProgram().commands.find((command) => command.name() === name)!;
}

describe("the option table", () => {
  it.each(["run", "normalize"] as const)("every option of %s comes from the table, in its order", (name) => {
    const declared = commandNamed(name).options.map((option) => option.flags);
    const table = cliRows(name).map(({ cli }) => cli.flags);
    expect(declared).toEqual(table);
  });

  it("every option run() checks is a row of the table, named as the row names it", () => {
    const checked = libraryRows("run").filter((row) => row.check !== undefined);
    expect(checked.length).toBeGreaterThan(20);
    for (const { key: name } of checked) {
      const [outer, inner] = name!.split(".");
      const value = inner === undefined ? Symbol("wrong") : { [inner]: Symbol("wrong") };
      const options = { backend: "evosci", prompt: "x", [outer!]: value };
      expect(() => checkRunOptions(options), name).toThrow(UsageError);
      expect(() => checkRunOptions(options), name).toThrow(`run(): option ${name}: `);
    }
  });

  it("every option normalizeStream() checks is a row of the table too, named as the row names it", async () => {
    const checked = libraryRows("normalizeStream").filter((row) => row.check !== undefined);
    expect(checked.map((row) => row.key).sort()).toEqual(
      [
        "atif",
        "clock",
        "deltas",
        "end",
        "end.backendExit",
        "end.stderrTail",
        "end.usageFile",
        "from",
        "inputName",
        "maxLineBytes",
        "model",
        "onTranslatorBug",
        "outputSchema",
        "promptInStream",
        "raw",
        "runId",
      ].sort(),
    );
    for (const { key: name } of checked) {
      const [outer, inner] = name!.split(".");
      const value = inner === undefined ? Symbol("wrong") : { [inner]: Symbol("wrong") };
      const events = normalizeStream([], { [outer!]: value });
      await expect(events.next(), name).rejects.toThrow(UsageError);
      await expect(normalizeStream([], { [outer!]: value }).next(), name).rejects.toThrow(
        `normalizeStream(): option ${name}: `,
      );
    }
  });

  it("a row has a flag, a library name or both; no flag and no library name is declared twice", () => {
    const flags = RUN_OPTIONS.flatMap((row) =>
      clisOf(row).flatMap((cli) => cli.commands.map((c) => `${c} ${cli.flags}`)),
    );
    expect(RUN_OPTIONS.every((row) => row.cli !== undefined || row.key !== undefined)).toBe(true);
    expect(new Set(flags).size).toBe(flags.length);
    for (const entry of ["run", "normalizeStream"] as const) {
      const names = libraryRows(entry).map(({ key }) => key);
      expect(new Set(names).size, entry).toBe(names.length);
    }
  });

  it("checks the limits, on both sides: a whole number above 0 for turns and tokens, any number above 0 for cost", () => {
    const problem = (key: string, value: unknown): string | undefined =>
      RUN_OPTIONS.find((r) => r.key === key)!.check(value);
    for (const key of ["maxTurns", "maxTokens"]) {
      for (const bad of [0, -1, 1.5, Number.POSITIVE_INFINITY, Number.NaN, "1", 2 ** 53])
        expect(problem(key, bad), `${key} ${bad}`).toBeDefined();
      expect(problem(key, 3)).toBeUndefined();
    }
    for (const bad of [0, -0.5, Number.POSITIVE_INFINITY, "1"])
      expect(problem("maxCostUsd", bad), `${bad}`).toBeDefined();
    expect(problem("maxCostUsd", 0.01)).toBeUndefined();
  });

  it("one key, one row: a row says which commands take it (--model: run's and normalize's spellings)", () => {
    const keys = RUN_OPTIONS.map(({ key }) => key);
    expect(new Set(keys).size).toBe(keys.length);
    const model = RUN_OPTIONS.find((row) => row.key === "model")!;
    expect(clisOf(model).map((cli) => [cli.flags, cli.commands])).toEqual([
      ["--model <id>", ["run"]],
      ["--model <name>", ["normalize"]],
    ]);
  });

  it("--help shows each default as its row holds it (a time in seconds, a list as none): change the row, the help follows", () => {
    const row = (key: string) => TABLE_ROWS.find((r) => "key" in r && r.key === key)!;
    const longer = { ...row("answerTimeoutMs"), default: 90_000 };
    const slower = { ...row("graceMs"), default: 2500 };
    const rows = TABLE_ROWS.map((r) => (r === row("answerTimeoutMs") ? longer : r === row("graceMs") ? slower : r));
    const help = (program: Command) =>
      program.commands
        .find((c) => c.name() === "run")!
        .helpInformation()
        .replace(/\s+/g, " ");
    expect(help(buildProgram())).toMatch(/cancelled\) \(default: 60\)/);
    expect(help(buildProgram())).toMatch(/kills at once \(default: 5\)/);
    expect(help(buildProgram())).toMatch(/--backend-arg <arg> .*\(default: none\)/);
    const changed = help(buildProgram(optionTable(rows, PORTABLE_ROWS)));
    expect(changed).toMatch(/cancelled\) \(default: 90\)/);
    expect(changed).toMatch(/kills at once \(default: 2.5\)/);
  });

  it("compare --help does not offer what only one run can take (a row's oneRun): change the row, the help follows", () => {
    const help = (program: Command) => program.commands.find((c) => c.name() === "compare")!.helpInformation();
    const shown = help(buildProgram());
    for (const flag of ["--resume", "--continue-from", "--summary"]) expect(shown).not.toContain(flag);
    expect(shown).toContain("--max-turns");
    expect(commandNamed("run").helpInformation()).toContain("--resume");
    // Still parsed: compare refuses it with its reason (test/e2e/compare/compare-cells.test.ts).
    expect(commandNamed("compare").options.map((option) => option.long)).toContain("--resume");
    const grace = TABLE_ROWS.find((r) => "key" in r && r.key === "graceMs")!;
    const flag = (grace as { cli: { flags: string } }).cli.flags.split(" ")[0]!;
    expect(shown).toContain(flag);
    const rows = TABLE_ROWS.map((r) => (r === grace ? { ...grace, oneRun: "only one" } : r));
    expect(help(buildProgram(optionTable(rows, PORTABLE_ROWS)))).not.toContain(flag);
  });
});
