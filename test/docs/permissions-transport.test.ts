// docs/permissions.md "Per backend and transport" says, backend by backend, where the rules are kept natively and
// over `--transport acp`: each row is checked against the registry's definitions (what reaches the backend's own
// flags, whether it has an ACP mode, through which adapter), so a backend that gains or loses one fails here.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BACKENDS } from "../../src/backends/registry.js";
import { reaches } from "../../src/backends/support.js";

const PAGE = readFileSync(new URL("../../docs/permissions.md", import.meta.url), "utf8");
const SECTION = PAGE.slice(PAGE.indexOf("## Per backend and transport"));

/** The section's rows by backend: its native and its `--transport acp` cells. */
function rows(): Map<string, { native: string; acp: string }> {
  const lines = SECTION.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| backend"));
  return new Map(
    lines.map((line) => {
      const [name, native, acp] = line.slice(2, -2).split(" | ");
      return [name!, { native: native!, acp: acp! }];
    }),
  );
}

describe("docs/permissions.md: Per backend and transport", () => {
  const table = rows();

  it("has one row per backend, in the registry's order", () => {
    expect([...table.keys()]).toEqual(BACKENDS.map((b) => b.displayName));
  });

  for (const backend of BACKENDS) {
    it(`${backend.displayName}: the row says what its definition does`, () => {
      const row = table.get(backend.displayName)!;
      const { allowTools, denyTools } = backend.supports;
      if (backend.protocol === "acp") expect(row.native).toMatch(/^none/);
      else if (reaches(allowTools) && reaches(denyTools))
        expect(row.native).toMatch(/^before start(?!: `--deny-tool` only)/);
      else if (reaches(denyTools)) expect(row.native).toMatch(/^before start: `--deny-tool` only/);
      else expect(row.native).toMatch(/^refused/);
      const live = backend.protocol === "acp" || backend.acpMode !== undefined;
      expect(row.acp).toMatch(live ? /^answered live/ : /^none/);
      const adapter = backend.acpMode?.adapter;
      if (adapter) expect(row.acp).toContain(`through \`${adapter.executableNames[0]}\``);
    });
  }
});
