// run --backend acp declares session.notices and session.compaction (ACP v1) and maps what the agent then sends
// (issue 56 item 3): the built CLI drives the fake ACP agent (test/fixtures/acp/fake-agent.mjs, the prompt
// "compact"), which sends each kind only where the client declared it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseJsonl, runCli } from "../../helpers/cli.js";
import { fakeAcpArgs } from "../../helpers/fake-acp.js";

const tmp = mkdtempSync(join(tmpdir(), "agentstream-acp-notices-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("run --backend acp: notices and compaction", async () => {
  const run = await runCli([...fakeAcpArgs(), "--", "compact"]);
  const events = parseJsonl(run.stdout);
  const updates = (kind: string) =>
    events.filter(
      (e) =>
        e.type === "backend.event" &&
        (e.raw as { params?: { update?: { sessionUpdate?: string } } }).params?.update?.sessionUpdate === kind,
    );

  it("ends as it would have, with a stream that verifies", async () => {
    expect(run.code, run.stderr).toBe(0);
    expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "succeeded", result: { text: "Compacted." } });
    const file = join(tmp, "run.jsonl");
    writeFileSync(file, run.stdout);
    const verified = await runCli(["verify", file]);
    expect(verified.code, verified.stderr).toBe(0);
  });

  it("reads compactions as compaction.started and compaction.completed, by compactionId", () => {
    const compactions = events.filter((e) => String(e.type).startsWith("compaction."));
    expect(compactions.map(({ type, summary, error, aborted }) => ({ type, summary, error, aborted }))).toEqual([
      // c1: its summary told in two chunks, then completed (a later patch of it is kept as data).
      { type: "compaction.started", summary: undefined, error: undefined, aborted: undefined },
      { type: "compaction.completed", summary: "The user asked for a summary.", error: undefined, aborted: undefined },
      // c2: failed, with the agent's error.
      { type: "compaction.started", summary: undefined, error: undefined, aborted: undefined },
      { type: "compaction.completed", summary: undefined, error: "too long", aborted: undefined },
    ]);
    expect(updates("compaction_update")).toHaveLength(1);
  });

  it("keeps a notice as data, and reads one that tells a retry as that retry", () => {
    const [warning] = updates("notice");
    expect(updates("notice")).toHaveLength(1);
    expect(warning).toMatchObject({
      raw: { params: { update: { severity: "warning", title: "Context is nearly full", description: "compacting" } } },
    });
    expect(events.find((e) => e.type === "retry.started")).toMatchObject({
      scope: "request",
      attempt: 1,
      max_attempts: 3,
      delay_ms: 2000,
      native: "notice",
    });
    // A notice is no part of the answer.
    expect(events.filter((e) => e.type === "message.delta").map((e) => e.text)).toEqual(["Compacted."]);
    expect(run.stderr).toContain("retry 1/3");
  });
});
