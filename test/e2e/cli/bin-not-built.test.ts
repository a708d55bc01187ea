// bin/agentstream.js in a checkout with no dist/ (after a clean, or while a rebuild runs): one clear line
// and what to run, never a raw ERR_MODULE_NOT_FOUND stack trace.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN } from "../../helpers/cli.js";

describe("bin/agentstream.js without dist/", () => {
  /** bin/agentstream.js copied into an empty checkout, run there (with node_modules' typescript or not). */
  function runUnbuilt(installed: boolean): { root: string; status: number | null; stdout: string; stderr: string } {
    const root = mkdtempSync(join(tmpdir(), "agentstream-unbuilt-"));
    try {
      mkdirSync(join(root, "bin"));
      copyFileSync(BIN, join(root, "bin", "agentstream.js"));
      writeFileSync(join(root, "package.json"), JSON.stringify({ type: "module" }));
      if (installed) {
        mkdirSync(join(root, "node_modules", "typescript"), { recursive: true });
        writeFileSync(join(root, "node_modules", "typescript", "package.json"), "{}");
      }
      const run = spawnSync(process.execPath, [join(root, "bin", "agentstream.js"), "--version"], { encoding: "utf8" });
      return { root, status: run.status, stdout: run.stdout, stderr: run.stderr };
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }

  it("a fresh clone (no node_modules): says what is missing and to run npm install && npm run build, exit 1", () => {
    const run = runUnbuilt(false);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      `agentstream: not built: ${join(run.root, "dist", "cli", "main.js")} is missing\nhint: run \`npm install && npm run build\` in ${run.root}/\n`,
    );
    expect(run.stderr).not.toContain("ERR_MODULE_NOT_FOUND");
  });

  it("installed but not built (after a clean): npm run build alone", () => {
    const run = runUnbuilt(true);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `agentstream: not built: ${join(run.root, "dist", "cli", "main.js")} is missing\nhint: run \`npm run build\` in ${run.root}/\n`,
    );
  });

  it("built, it runs the CLI as before", () => {
    const run = spawnSync(process.execPath, [BIN, "--version"], { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});
