// bin/agentstream.js in a checkout with no dist/ (after a clean, or while a rebuild runs): one clear line
// and what to run, never a raw ERR_MODULE_NOT_FOUND stack trace.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN } from "./helpers/cli.js";

describe("bin/agentstream.js without dist/", () => {
  it("says what is missing and to run npm run build, exit 1, nothing on stdout", () => {
    const root = mkdtempSync(join(tmpdir(), "agentstream-unbuilt-"));
    try {
      mkdirSync(join(root, "bin"));
      copyFileSync(BIN, join(root, "bin", "agentstream.js"));
      writeFileSync(join(root, "package.json"), JSON.stringify({ type: "module" }));
      const run = spawnSync(process.execPath, [join(root, "bin", "agentstream.js"), "--version"], { encoding: "utf8" });
      expect(run.status).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe(
        `agentstream: not built: ${join(root, "dist", "cli", "main.js")} is missing\nhint: run \`npm run build\` in ${root}/\n`,
      );
      expect(run.stderr).not.toContain("ERR_MODULE_NOT_FOUND");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("built, it runs the CLI as before", () => {
    const run = spawnSync(process.execPath, [BIN, "--version"], { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});
