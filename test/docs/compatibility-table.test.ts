// The Compatibility table of docs/backends.md is generated from the record of the last
// full `npm run test:live -- --latest` (test/live/compatibility.json) and the
// pinned live targets. AGENTSTREAM_WRITE_COMPAT_TABLE=1 writes it anew.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { END, readRecord, renderTable, START, withTable } from "../helpers/live/compat-table.js";
import { LIVE_TARGETS } from "../helpers/live/live-targets.mjs";

const PAGE = fileURLToPath(new URL("../../docs/backends.md", import.meta.url));

describe("docs/backends.md: the Compatibility table", () => {
  const record = readRecord();

  it("is the block generated from the record and the live targets", () => {
    const readme = readFileSync(PAGE, "utf8");
    const expected = withTable(readme, record);
    if (process.env.AGENTSTREAM_WRITE_COMPAT_TABLE === "1") writeFileSync(PAGE, expected);
    const block = readme.slice(readme.indexOf(START), readme.indexOf(END) + END.length);
    expect(block).toBe(expected.slice(expected.indexOf(START), expected.indexOf(END) + END.length));
  });

  it("the record comes from a full run with the newest releases, and names each pin it ran as the pin is", () => {
    expect(record.latest).toBe(true);
    expect(record.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const t of record.targets.filter((t) => !t.latestOf)) {
      const pin = LIVE_TARGETS.find((p) => p.id === t.id);
      if (pin) expect([t.backend, t.package, t.version]).toEqual([pin.backend, pin.package, pin.version]);
    }
    for (const t of record.targets.filter((t) => t.latestOf)) {
      expect(record.targets.some((p) => p.id === t.latestOf)).toBe(true);
    }
  });

  it("shows every pinned target, and says when one was not in the last full run", () => {
    const table = renderTable(record);
    for (const pin of LIVE_TARGETS) expect(table).toContain(`\`${pin.package}\` ${pin.version}`);
    const without = renderTable({ ...record, targets: [] });
    expect(without).toContain("not in the last full run");
  });
});
