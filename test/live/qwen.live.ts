// Qwen Code as a backend (`--backend qwen`, driven over ACP) and Gemini CLI with `--transport acp`, each
// against the loopback fake model server: a text answer (the agent named in session.started, the
// transport in run.started), a shell call a rule denies (the agent is told, the run goes on) and one no
// rule allows (needs_input, exit 3). The full ACP suite is test/live/acp*.live.ts's (s36/hacplive).
import { beforeAll, describe, expect, it } from "vitest";
import { installBackends } from "./support/install-backends.mjs";
import { ACP_ONLY_TARGETS } from "../helpers/live/live-targets.mjs";
import { type LiveRun, type LiveTarget, runScenario, verifyStream } from "./support/live-run.js";
import { targetsFor } from "./support/live-suite.js";
import { MODEL_ID } from "./support/fake-model-server.mjs";
import { ANSWERS } from "./support/scenarios.mjs";

const QWEN_PIN = "qwen-0.24.4";
const only = (process.env.AGENTSTREAM_LIVE_ONLY ?? "")
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);
const qwenWanted = only.length === 0 || only.includes("qwen") || only.includes(QWEN_PIN);

/** The stream is one the contract accepts, every event names `backend`, and run.started says ACP. */
async function expectAcpStream(run: LiveRun, backend: string, agentName: string): Promise<void> {
  expect(new Set(run.events.map((e) => e.backend))).toEqual(new Set([backend]));
  expect(run.events[0]).toMatchObject({ type: "run.started", transport: "acp" });
  expect(run.events.find((e) => e.type === "session.started")?.agent_info, run.stderr).toMatchObject({
    name: agentName,
  });
  const verified = await verifyStream(run.stdout);
  expect(verified.exitCode, verified.report).toBe(0);
}

function acpScenarios(name: string, target: () => LiveTarget, args: string[], agentName: string): void {
  describe(name, () => {
    it("streams a plain text answer", async () => {
      const run = await runScenario(target(), "text", { args });
      expect(run.finished, run.stderr).toMatchObject({ status: "succeeded", result: { text: ANSWERS.text } });
      expect(run.exitCode).toBe(0);
      await expectAcpStream(run, target().backend, agentName);
    });

    it("a shell call a rule denies: the agent is told, the run goes on", async () => {
      const run = await runScenario(target(), "denied", { args: [...args, "--deny-tool", "shell"] });
      expect(run.finished, run.stderr).toMatchObject({ status: "succeeded", exit_code: 0 });
      expect(run.events.some((e) => e.type === "input.requested")).toBe(true);
      expect(run.exitCode).toBe(0);
      await expectAcpStream(run, target().backend, agentName);
    });

    it("a shell call no rule allows ends the run needs_input (exit 3), the call pending", async () => {
      const run = await runScenario(target(), "denied", { args });
      expect(run.finished, run.stderr).toMatchObject({ status: "needs_input", exit_code: 3 });
      expect(run.finished.pending?.length).toBeGreaterThan(0);
      expect(run.exitCode).toBe(3);
      await expectAcpStream(run, target().backend, agentName);
    });
  });
}

if (qwenWanted) {
  let qwen: LiveTarget;
  beforeAll(async () => {
    // Not a native live target (the Compatibility table's): installed here, into the same cache, on Node 22.
    [qwen] = (await installBackends(ACP_ONLY_TARGETS)) as LiveTarget[];
    console.log(`live: qwen ${qwen.version} (${qwen.runtime}) at ${qwen.executable}`);
  }, 15 * 60_000);
  acpScenarios(
    `${QWEN_PIN} live (--backend qwen)`,
    () => qwen,
    ["--model", MODEL_ID, "--backend-arg=--auth-type=openai"],
    "qwen-code",
  );
} else describe.skip(`${QWEN_PIN} live`, () => it("is not selected", () => {}));

for (const gemini of targetsFor("gemini-0.61.0"))
  acpScenarios(`${gemini.id} live (--transport acp)`, () => gemini, ["--transport", "acp"], "gemini-cli");
