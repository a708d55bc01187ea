// What a new user reads first tells the truth about a fresh clone (issue: a fresh clone passes its own
// tests, and the docs tell the truth).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const README = readFileSync(new URL("../README.md", import.meta.url), "utf8");

/** The text of one `## ` section, up to the next one. */
function section(heading: string): string {
  const start = README.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThan(-1);
  const next = README.indexOf("\n## ", start + heading.length + 2);
  return README.slice(start, next === -1 ? undefined : next);
}

describe("README Set-up", () => {
  it("says what the first npm test downloads and builds, how long it takes and the disk it needs", () => {
    const setup = section("## Set-up").replace(/\s+/g, " ");
    expect(setup).toMatch(/first `npm test`.*OpenTelemetry Collector/);
    expect(setup).toContain("450 MB");
    expect(setup).toMatch(/3 to 5 minutes/);
    expect(setup).toMatch(/1\.1 GB on disk/);
    expect(setup).toContain("`go env GOMODCACHE GOCACHE`");
    expect(setup).toContain("`.cache/go/`");
  });
});
