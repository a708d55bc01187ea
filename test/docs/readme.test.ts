// The docs state the contract (docs/canonical-stream.md) and the README the exit codes; these checks
// fail when the schema or the exit-code table changes and the docs do not.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { EXIT_EPIPE, EXIT_OUTPUT_ERROR } from "../../src/core/exit-codes.js";
import { loadSchema } from "../../src/schema/schema-files.js";
import { readDoc } from "../helpers/docs.js";

const README = readDoc("README.md");
const STREAM = readDoc("docs/canonical-stream.md");
const schema = loadSchema() as {
  allOf: { then: { $ref: string } }[];
  $defs: Record<string, { properties?: Record<string, { enum?: unknown[] }>; enum?: unknown[] }>;
};

/** The rows of the markdown table that follows a heading of `text`. */
function tableAfter(text: string, heading: string): string[][] {
  const start = text.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThan(-1);
  const rows: string[][] = [];
  for (const line of text.slice(start + heading.length + 2).split("\n")) {
    if (line.startsWith("|"))
      rows.push(
        line
          .split("|")
          .slice(1, -1)
          .map((c) => c.trim()),
      );
    else if (rows.length > 0) break;
  }
  return rows.slice(2);
}

describe("docs/canonical-stream.md and the README's exit codes", () => {
  it("lists every event type of the schema, and no other", () => {
    const documented = tableAfter(STREAM, "## Events").map((row) => row[0]!.replace(/`/g, ""));
    const types = schema.allOf.map((rule) => rule.then.$ref.split("/").pop());
    expect(documented).toEqual(types);
  });

  it("lists every required payload field of each event type", () => {
    for (const row of tableAfter(STREAM, "## Events")) {
      const type = row[0]!.replace(/`/g, "");
      const def = schema.$defs[type] as { required?: string[] };
      for (const field of def.required ?? []) expect(row[1], `${type}.${field}`).toContain(`\`${field}\``);
    }
  });

  it("documents every exit code the schema allows, plus those of a lost stdout (EPIPE's 141, a write error's 74)", () => {
    const documented = tableAfter(README, "## Exit codes").map((row) => Number(row[0]));
    const allowed = schema.$defs["run.finished"]!.properties!.exit_code!.enum as number[];
    expect([...documented].sort((a, b) => a - b)).toEqual(
      [...allowed, EXIT_EPIPE, EXIT_OUTPUT_ERROR].sort((a, b) => a - b),
    );
  });

  it("names every error code", () => {
    for (const code of schema.$defs.error_code!.enum as string[]) expect(STREAM).toContain(`\`${code}\``);
  });
});

describe("README set-up", () => {
  const ROOT = fileURLToPath(new URL("../..", import.meta.url));

  it("says `npm install && npm run -s demo`, and the demo builds first: it works on a fresh clone, which has no dist/", {
    timeout: 180_000,
  }, () => {
    expect(README).toContain("npm install && npm run -s demo");
    const clone = mkdtempSync(join(tmpdir(), "agentstream-clone-"));
    try {
      // What git would check out (this worktree's files, committed or not), with the installed node_modules
      // (in a git worktree, node_modules may be a symlink, which .gitignore's `node_modules/` does not match).
      const listed = spawnSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
        cwd: ROOT,
        encoding: "utf8",
      });
      for (const file of listed.stdout
        .split("\0")
        .filter((f) => f !== "" && !f.startsWith("dist/") && f !== "node_modules")) {
        mkdirSync(dirname(join(clone, file)), { recursive: true });
        cpSync(join(ROOT, file), join(clone, file));
      }
      symlinkSync(join(ROOT, "node_modules"), join(clone, "node_modules"));
      const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
      const demo = spawnSync("npm", ["run", "-s", "demo"], {
        cwd: clone,
        env: { ...env, REPLAY_SPEED: "200", NO_COLOR: "1" },
        encoding: "utf8",
        timeout: 170_000,
      });
      expect(demo.status, demo.stderr).toBe(0);
      expect(demo.stdout).toMatch(/"type":"run\.finished".*"status":"succeeded"/);
      // Only the stream on stdout (`npm run -s demo | jq -c .type`): no banner of npm's.
      for (const line of demo.stdout.trimEnd().split("\n")) expect(() => JSON.parse(line), line).not.toThrow();
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  });
});
