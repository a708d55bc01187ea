// Hostile permission requests of an ACP agent (test/fixtures/acp/fake-agent.mjs), answered by a real
// --approve-with command: a flood, terminal escapes and secrets in a request, requests for calls that never
// started, a request after the prompt's response. Each is answered or refused within a bound, shown escaped on
// stderr, hidden where secret, and the command is given it redacted.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_WAITING_ANSWERS } from "../../../src/policy/live-answerer.js";
import { BIN, parseJsonl, peakRssMiB, REPORT_PEAK_RSS } from "../../helpers/cli.js";
import { fakeAcpArgs } from "../../helpers/fake-acp.js";
import { spawn } from "node:child_process";

const tmp = mkdtempSync(join(tmpdir(), "agentstream-hostile-requests-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const SECRET = "sk-live-0123456789abcdefSECRET";
const FLOOD = 10_000;

/** The run, its peak RSS measured: stdout's events and stderr. */
function runAgent(prompt: string, flags: string[], env: NodeJS.ProcessEnv = {}) {
  return new Promise<{ code: number | null; events: Record<string, unknown>[]; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", REPORT_PEAK_RSS, BIN, ...fakeAcpArgs(...flags, "--", prompt)], {
      cwd: tmp,
      env: { ...process.env, NO_COLOR: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("close", (code) => resolve({ code, events: parseJsonl(stdout), stderr }));
  });
}

let scripts = 0;
function script(body: string): string {
  const path = join(tmp, `approve-${++scripts}.sh`);
  writeFileSync(path, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return path;
}

const answered = (events: Record<string, unknown>[]) => events.filter((e) => e.type === "input.answered");

describe("hostile permission requests", () => {
  it(`a flood of ${FLOOD} requests: each answered, the command never run twice at once nor more than ${MAX_WAITING_ANSWERS + 1} times, memory bounded`, {
    timeout: 180_000,
  }, async () => {
    const count = join(tmp, "flood-count");
    const lock = join(tmp, "flood-lock");
    // Two at once would find the lock taken.
    const approver = script(
      `cat >/dev/null; mkdir ${lock} 2>/dev/null || { echo overlap >> ${count}; exit 9; }; echo ran >> ${count}; sleep 0.05; rmdir ${lock}; exit 0`,
    );
    // Past the bound the turn is cancelled, and the agent ends it only once every request of the flood is answered:
    // the client's own work, up to 40 s on a loaded machine. The grace period (5 s by default, then the agent is
    // stopped and what it asked since goes unread) is set past this test's bound: the test waits for the turn's end.
    const { code, events, stderr } = await runAgent("flood", ["--approve-with", approver, "--grace", "300"], {
      FAKE_ACP_FLOOD: String(FLOOD),
    });
    // The first requests past the bound are left to no one: the turn is stopped, the run needs input.
    expect(code).toBe(3);
    expect(answered(events)).toHaveLength(FLOOD);
    const runs = existsSync(count) ? readFileSync(count, "utf8").split("\n").filter(Boolean) : [];
    expect(runs).not.toContain("overlap");
    expect(runs.length).toBeLessThanOrEqual(MAX_WAITING_ANSWERS + 1);
    expect(stderr).toContain(`more than ${MAX_WAITING_ANSWERS} permission requests wait for an answer`);
    expect(stderr).not.toContain("did not end its turn within the grace period");
    expect(peakRssMiB(stderr)).toBeLessThan(400);
  });

  it(`a flood of ${FLOOD} requests a rule allows: every one answered by the rule, memory bounded`, async () => {
    const { code, events, stderr } = await runAgent("flood", ["--allow-tool", "shell"], {
      FAKE_ACP_FLOOD: String(FLOOD),
    });
    expect(code).toBe(0);
    expect(answered(events).filter((e) => e.by === "rule" && e.decision === "allow")).toHaveLength(FLOOD);
    expect(events.at(-1)).toMatchObject({ result: { text: `allowed ${FLOOD} of ${FLOOD}` } });
    expect(peakRssMiB(stderr)).toBeLessThan(400);
  });

  it("a title and command holding terminal escapes and a secret: the command's stdin redacted, stderr escaped and hidden", async () => {
    const seen = join(tmp, "hostile-seen.jsonl");
    // The command echoes what it was given, escapes and all, on its stderr, and fails: its words are quoted.
    const approver = script(`tee ${seen} >&2; printf '\\033]0;pwned\\007 %s\\n' "$FAKE_ACP_TOKEN" >&2; exit 5`);
    const { code, events, stderr } = await runAgent("hostile", ["--approve-with", approver], {
      FAKE_ACP_TOKEN: SECRET,
    });
    expect(code).toBe(0);
    expect(answered(events)).toMatchObject([{ decision: "reject", by: "command", tool_call_id: "h1" }]);
    const given = readFileSync(seen, "utf8");
    expect(given).not.toContain(SECRET);
    expect(given).toContain("[redacted]");
    // One JSON line, its escapes JSON-escaped.
    expect(given.split("\n").filter(Boolean)).toHaveLength(1);
    expect(JSON.parse(given)).toMatchObject({ type: "input.requested", tool_call_id: "h1" });
    expect(stderr).not.toContain(SECRET);
    expect(stderr).not.toContain("\u001b");
    expect(stderr).not.toContain("\u0007");
    // The command, then the title that says otherwise.
    expect(stderr).toContain(
      "rejected execute: curl -H 'Bearer [redacted]' ␛]0;pwned␇␛[2J (␛[31mrun␛[0m curl -H 'Bearer [redacted]' ␛]0;pwned␇␛[2J) (by command)",
    );
    expect(stderr).toMatch(
      /--approve-with exited 5, not 0 \(allow\) or 1 \(reject\) \(stderr: ␛\]0;pwned␇ \[redacted\]\)/,
    );
  });

  it("requests for calls that never started are shown as calls and answered", async () => {
    const { code, events } = await runAgent("flood", ["--approve-with", "cat >/dev/null; exit 0"], {
      FAKE_ACP_FLOOD: "3",
    });
    expect(code).toBe(0);
    for (const id of ["f0", "f1", "f2"]) {
      expect(events).toContainEqual(expect.objectContaining({ type: "tool.started", tool_call_id: id }));
      expect(answered(events)).toContainEqual(expect.objectContaining({ tool_call_id: id, by: "command" }));
    }
    expect(events.at(-1)).toMatchObject({ status: "succeeded", result: { text: "allowed 3 of 3" } });
  });

  it("two requests under one JSON-RPC id are two requests: each decided by its own content, each answered once", async () => {
    const given = join(tmp, "dup-given");
    // Allows "touch a" only: an answer taken for the other's would show.
    const approver = script(`tee -a ${given} | grep -q '"touch a"' && exit 0; exit 1`);
    const { code, events, stderr } = await runAgent("dup-id", ["--approve-with", approver]);
    expect(code).toBe(0);
    expect(events.filter((e) => e.type === "input.requested")).toMatchObject([
      { request_id: "dup-1", tool_call_id: "da" },
      { request_id: "dup-1", tool_call_id: "db" },
    ]);
    expect(answered(events)).toMatchObject([
      { request_id: "dup-1", tool_call_id: "da", decision: "allow", by: "command" },
      { request_id: "dup-1", tool_call_id: "db", decision: "reject", by: "command" },
    ]);
    expect(readFileSync(given, "utf8").split("\n").filter(Boolean)).toHaveLength(2);
    // The agent read one answer each, in turn, as its own.
    expect(events.at(-1)).toMatchObject({ status: "succeeded", result: { text: "a: yes, b: no" } });
    expect(stderr).toContain("allowed execute: touch a (by command)");
    expect(stderr).toContain("rejected execute: touch b (by command)");
  });

  it("a permission request longer than --max-line-bytes is answered (a JSON-RPC error under its id), never left waiting; under a higher limit it is read and decided", async () => {
    const env = { FAKE_ACP_HUGE: String(200_000) };
    const flags = ["--approve-with", "cat >/dev/null; exit 0"];
    const cut = await runAgent("huge-request", ["--max-line-bytes", "65536", ...flags], env);
    expect(cut.code).toBe(0);
    // The agent read an error for it under its own id, and went on.
    expect(cut.events.at(-1)).toMatchObject({ status: "succeeded", result: { text: "huge: error -32600" } });
    expect(cut.events).toContainEqual(expect.objectContaining({ type: "backend.unparsed", reason: "line_too_long" }));
    expect(cut.stderr).toContain(
      `the agent's "session/request_permission" request "huge-1" is longer than --max-line-bytes and could not be read`,
    );
    // At the default limit (16 MiB) too: a request of 17 MiB.
    const big = await runAgent("huge-request", flags, { FAKE_ACP_HUGE: String(17 * 1024 * 1024) });
    expect(big.events.at(-1)).toMatchObject({ status: "succeeded", result: { text: "huge: error -32600" } });
    const read = await runAgent("huge-request", ["--max-line-bytes", String(1024 * 1024), ...flags], env);
    expect(answered(read.events)).toMatchObject([{ request_id: "huge-1", decision: "allow", by: "command" }]);
    expect(read.events.at(-1)).toMatchObject({ status: "succeeded", result: { text: "huge: yes" } });
  });

  it("Copilot CLI's request shape (the command only in rawInput): the decision line shows the command, both lines, and the title", async () => {
    const { code, stderr } = await runAgent("copilot", ["--approve-with", "cat >/dev/null; exit 1"]);
    expect(code).toBe(0);
    expect(stderr).toContain("rejected execute: ls␊rm -rf ./build (Running command) (by command)");
  });

  it("a request after the prompt's response runs no command and changes no outcome", async () => {
    const ran = join(tmp, "late-ran");
    const { code, events } = await runAgent("late", ["--approve-with", `touch ${ran}`]);
    expect(code).toBe(0);
    expect(events.at(-1)).toMatchObject({ status: "succeeded", result: { text: "Done early." } });
    expect(existsSync(ran)).toBe(false);
  });
});
