// The "Permissions and continuing a run" table (docs/permissions.md) says, backend by
// backend, what the registry's definitions enforce natively: it is rebuilt here
// from them and must match.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PORTABLE_TOOLS } from "../../src/backends/definition.js";
import { BACKENDS } from "../../src/backends/registry.js";
import { reaches, type Support } from "../../src/backends/support.js";
import { cliNaming } from "../../src/app/options.js";
import { wordedWith } from "../../src/core/errors.js";

const PAGE = readFileSync(new URL("../../docs/permissions.md", import.meta.url), "utf8");
const COMMANDS = readFileSync(new URL("../../docs/commands.md", import.meta.url), "utf8");
const HEADER =
  "| backend | shell, read, write, edit, web_fetch, web_search | `--allow-tool` | `--deny-tool` | `NAME(PATTERN)` | `--approvals never` | `--approvals auto` | `--resume` |";

const cell = (support: Support<"allowTools" | "denyTools" | "resume" | "approvals">): string =>
  reaches(support) ? `\`${support.via}\`` : `no: ${wordedWith(support.lacks, cliNaming)}`;
const escapePipes = (text: string): string => text.replace(/\|/g, "\\|");

/** The table's rows, as the registry says them. */
function expectedRows(): string[] {
  return BACKENDS.map((backend) => {
    const { tools, patterns } = backend.toolNames;
    const s = backend.supports;
    const names = PORTABLE_TOOLS.map((name) => (tools[name] ? `\`${tools[name]}\`` : "–")).join(", ");
    const cells = [
      backend.displayName,
      names,
      cell(s.allowTools),
      cell(s.denyTools),
      patterns ? patterns.tools.join(", ") : "no",
      cell(s.approvals.never),
      cell(s.approvals.auto),
      cell(s.resume),
    ];
    return `| ${cells.map(escapePipes).join(" | ")} |`;
  });
}

describe("docs/permissions.md: Permissions and continuing a run", () => {
  it("has the section, and its table is the registry's, backend by backend", () => {
    expect(PAGE.startsWith("# Permissions and continuing a run\n")).toBe(true);
    const start = PAGE.indexOf(HEADER);
    expect(start, `the table, with the header ${HEADER}`).toBeGreaterThan(-1);
    const rows = PAGE.slice(start).split("\n").slice(2);
    const table = rows.slice(
      0,
      rows.findIndex((line) => !line.startsWith("|")),
    );
    expect(table.join("\n")).toBe(expectedRows().join("\n"));
  });

  it("docs/commands.md lists every permission option of run in its options table", () => {
    for (const flag of [
      "--allow-tool NAME",
      "--deny-tool NAME",
      "--approvals never\\|auto\\|ask",
      "--approve-with CMD",
      "--resume SESSION",
      "--continue-from FILE",
    ])
      expect(COMMANDS).toContain(`| \`${flag}\``);
  });
});
