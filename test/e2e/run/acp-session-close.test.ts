// run --backend acp ends its session with session/close where the agent declares it (issue 56 item 3):
// the built CLI drives the fake ACP agent (test/fixtures/acp/fake-agent.mjs, FAKE_ACP_CLOSE) as a real process.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseJsonl, runCli } from "../../helpers/cli.js";
import { fakeAcpArgs } from "../../helpers/fake-acp.js";

const tmp = mkdtempSync(join(tmpdir(), "agentstream-acp-close-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
/** The fake agent run on `prompt` with `env`; its closes as it noted them. */
async function runClosing(prompt: string, env: NodeJS.ProcessEnv, ...flags: string[]) {
  const closeFile = join(tmp, `closed-${++n}.txt`);
  const run = await runCli([...fakeAcpArgs(...flags), "--", prompt], {
    env: { FAKE_ACP_CLOSE_FILE: closeFile, ...env },
  });
  const closes = existsSync(closeFile) ? readFileSync(closeFile, "utf8") : "";
  return { run, events: parseJsonl(run.stdout), closes };
}

describe("run --backend acp: session/close", () => {
  it("closes the session once the turn is over where the agent declares sessionCapabilities.close", async () => {
    const { run, events, closes } = await runClosing("say text", { FAKE_ACP_CLOSE: "1" });
    expect(run.code, run.stderr).toBe(0);
    expect(closes).toBe("closed fake-session-1\n");
    expect(events.at(-1)).toMatchObject({
      type: "run.finished",
      status: "succeeded",
      result: { text: "Hello from the fake agent." },
    });
    // The close's answer is no event of the stream's: the run reads as it did before.
    expect(events.filter((e) => e.type === "backend.event")).toEqual([]);
  });

  it("sends no session/close to an agent that does not declare it", async () => {
    const { run, closes } = await runClosing("say text", {});
    expect(run.code, run.stderr).toBe(0);
    expect(closes).toBe("");
  });

  it("does not wait on an agent that never answers session/close: the run ends as it would have", async () => {
    const { run, events } = await runClosing("say text", { FAKE_ACP_CLOSE: "deaf" });
    expect(run.code, run.stderr).toBe(0);
    expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "succeeded" });
  });

  it("a session closed after a turn that needs input is still resumed (--continue-from) (close frees it, never deletes it)", async () => {
    const env = { FAKE_ACP_CLOSE: "1", FAKE_ACP_LOAD: "1" };
    const first = await runClosing("ask", env);
    expect(first.run.code).toBe(3);
    expect(first.closes).toBe("closed fake-session-1\n");
    expect(first.events.at(-1)).toMatchObject({
      status: "needs_input",
      resume: { session_id: "fake-session-1", hint: expect.stringContaining("--resume fake-session-1") },
    });
    const log = join(tmp, "first.jsonl");
    writeFileSync(log, first.run.stdout);
    const next = await runClosing("ask", env, "--continue-from", log, "--allow-tool", "shell");
    expect(next.run.code, next.run.stderr).toBe(0);
    expect(next.closes).toBe("closed fake-session-1\n");
    expect(next.events[0]).toMatchObject({ type: "run.started", resumed_from: "fake-session-1" });
    expect(next.events.at(-1)).toMatchObject({ status: "succeeded", result: { text: "Made x." } });
  });
});
