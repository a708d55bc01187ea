import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { CliResult } from "../../helpers/cli.js";
import { expectCanonical } from "../../helpers/stand-in.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

const BUILD_FIRST = "npm run build && ";

/**
 * The README's first command after install, as package.json defines it, after
 * its build step: `npm test` has built dist/ already, and a rebuild here would
 * rewrite it under the tests running beside this one (test/docs/readme.test.ts runs
 * the whole demo on a fresh clone).
 */
function npmRunDemo(): Promise<CliResult> {
  const demo = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: { demo: string } }).scripts
    .demo;
  expect(demo.startsWith(BUILD_FIRST), demo).toBe(true);
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", demo.slice(BUILD_FIRST.length)], {
      cwd: ROOT,
      env: { ...process.env, REPLAY_SPEED: "200", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe("npm run demo (examples/replay-backend.mjs)", () => {
  it("runs end to end through agentstream run and says it is a replay", async () => {
    const result = await npmRunDemo();
    const { events, finished } = expectCanonical(result);
    expect(result.code).toBe(0);
    expect(finished).toMatchObject({
      status: "succeeded",
      counts: { tool_calls: 6, tool_failures: 1, unparsed_lines: 0, unknown_events: 0 },
      resume: { session_id: "3f9c2a71" },
    });
    expect((finished.result as { text: string }).text).toMatch(/^Done: notes\.md summarizes the results\./);
    expect(events.some((e) => e.type === "subagent.started")).toBe(true);
    expect(result.stderr).toContain("[evosci] [replay] not a live agent");
  });
});
