// agentstream compare, live: two real agents of the live suite (pi and Qwen Code, both on the fake model's
// OpenAI chat wire) in one compare, each cell in a worktree of a scratch repository, checked there, against
// the loopback fake model server. AGENTSTREAM_LIVE_ONLY=pi,qwen runs it (with the others of those targets).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, parseJsonl } from "../helpers/cli.js";
import { ACP_ONLY_TARGETS } from "../helpers/live/live-targets.mjs";
import { spawnCollect } from "../helpers/live/spawn-collect.mjs";
import { withSharedHome } from "./support/backend-home.mjs";
import { MODEL_ID } from "./support/fake-model-server.mjs";
import { installBackends } from "./support/install-backends.mjs";
import { type LiveTarget, verifyStream } from "./support/live-run.js";
import { targetsFor } from "./support/live-suite.js";
import { ANSWERS, SCENARIOS } from "./support/scenarios.mjs";

const PI_PIN = "pi-1.6.0";
const only = (process.env.AGENTSTREAM_LIVE_ONLY ?? "")
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);
const qwenWanted = only.length === 0 || only.includes("qwen") || only.includes("qwen-0.24.4");
const [pi] = targetsFor(PI_PIN);

if (pi !== undefined && qwenWanted) {
  describe("compare live: pi and Qwen Code in worktrees of one repository", () => {
    let qwen: LiveTarget;
    beforeAll(async () => {
      [qwen] = (await installBackends(ACP_ONLY_TARGETS.filter((t) => t.backend === "qwen"))) as LiveTarget[];
    }, 15 * 60_000);

    it("runs both, each in its own worktree, checks each there, and sets them side by side", async () => {
      await withSharedHome(
        ["pi", "qwen"],
        "text",
        async (home: { root: string; cwd: string; env: Record<string, string> }) => {
          const git = (...args: string[]): string =>
            execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], {
              cwd: home.cwd,
              env: home.env,
              encoding: "utf8",
            });
          git("init", "-q");
          writeFileSync(join(home.cwd, "data.csv"), "a,b\n1,2\n");
          git("add", ".");
          git("commit", "-qm", "first");
          const plan = join(home.root, "plan.json");
          writeFileSync(
            plan,
            JSON.stringify({
              tasks: [{ id: "hello", prompt: SCENARIOS.text.prompt, check: "test -f data.csv" }],
              agents: [
                { backend: "pi", bin: pi.executable },
                { backend: "qwen", bin: qwen.executable, model: MODEL_ID, args: ["--auth-type=openai"] },
              ],
            }),
          );
          const out = join(home.root, "out");
          const result = await spawnCollect(
            process.execPath,
            [BIN, "compare", "--plan", plan, "--out", out, "--parallel", "2", "--timeout", "300"],
            { cwd: home.cwd, env: home.env, timeoutMs: 5 * 60_000 },
          );
          const rows = parseJsonl(result.stdout) as Array<Record<string, unknown> & { paths: Record<string, string> }>;
          expect(rows.map((row) => [row.backend, row.status, row.check, row.passed]).sort(), result.stderr).toEqual([
            ["pi", "succeeded", "passed", true],
            ["qwen", "succeeded", "passed", true],
          ]);
          expect(result.exitCode).toBe(0);
          for (const row of rows) {
            const stream = readFileSync(join(out, row.paths.stream), "utf8");
            const verified = await verifyStream(stream);
            expect(verified.exitCode, verified.report).toBe(0);
            const events = parseJsonl(stream);
            // Each ran in a worktree of its own under the compare's folder, never in the repository itself.
            expect(String(events[0]!.cwd)).toBe(join(out, "work", String(row.cell_id)));
            expect(events.at(-1)).toMatchObject({ type: "run.finished", result: { text: ANSWERS.text } });
            expect(row.files_changed).toBe(0);
          }
          expect(result.stderr).toContain("2 of 2 cells passed");
          expect(git("worktree", "list").trim().split("\n")).toHaveLength(1);
        },
      );
    });
  });
} else describe.skip("compare live", () => it("is not selected (AGENTSTREAM_LIVE_ONLY=pi,qwen)", () => {}));
