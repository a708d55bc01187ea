// Every option of the option table (src/app/options.ts) has its docs row (docs/adding-an-option.md):
// each flag of run and normalize a row of docs/commands.md's tables, whose first cell names it.
import { describe, expect, it } from "vitest";
import { longFlag, RUN_OPTIONS } from "../../src/app/options.js";
import { clisOf } from "../../src/core/option-row.js";
import { readDoc } from "../helpers/docs.js";

describe("docs/commands.md has a row for every flag of the option table", () => {
  const firstCells = readDoc("docs/commands.md")
    .split("\n")
    .filter((line) => line.startsWith("| "))
    .map((line) => line.split("|")[1]!);
  const flags = RUN_OPTIONS.flatMap((row) => clisOf(row).map(longFlag));

  it.each([...new Set(flags)])("%s", (flag) => {
    const named = new RegExp(`\`[^\`]*${flag}(?![\\w-])`);
    expect(firstCells.some((cell) => named.test(cell))).toBe(true);
  });
});
