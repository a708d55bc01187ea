// run --continue-from FILE, --resume, --allow-tool and the rest end to end: the
// backend is started with the session of the recorded stream and the rules in
// its own flags, or nothing is started and the run is refused with exit 2.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../../../src/index.js";
import { parseJsonl, runCli } from "../../helpers/cli.js";
import { expectCanonical, expectNoneLeftRunning, Scratch, STAND_IN } from "../../helpers/stand-in.js";

const scratch = new Scratch();
afterAll(() => scratch.remove());

/** Claude Code's denied call, as the live suite recorded it: the run ends needs_input with a resume hint. */
const DENIED = fileURLToPath(new URL("../../fixtures/live/claude-2.1.332/denied.jsonl", import.meta.url));

async function standInRun(args: string[]) {
  const record = scratch.recordPath();
  const result = await runCli(["run", "--bin", STAND_IN, ...args], {
    env: { STANDIN_RECORD: record, STANDIN_TRANSCRIPT: DENIED },
  });
  return { result, record, stand: expectNoneLeftRunning(record) };
}

/** A recorded needs_input run of Claude Code, and its session. */
async function recordedDenial(): Promise<{ file: string; session: string }> {
  const { result } = await standInRun(["--backend", "claude", "make the file"]);
  const { finished } = expectCanonical(result);
  expect(finished).toMatchObject({ status: "needs_input", resume: { session_id: expect.any(String) } });
  const file = scratch.path("denied.canonical.jsonl");
  writeFileSync(file, result.stdout);
  return { file, session: (finished.resume as { session_id: string }).session_id };
}

describe("agentstream run --continue-from / --resume", () => {
  it("continues the recorded session: --resume SESSION and the allowed tool in Claude Code's flags, run.started.resumed_from, no --backend needed", async () => {
    const { file, session } = await recordedDenial();
    const { result, stand } = await standInRun(["--continue-from", file, "--allow-tool", "shell", "yes, go on"]);
    const { events } = expectCanonical(result);
    expect(stand!.argv).toEqual(expect.arrayContaining(["--resume", session, "--allowedTools", "Bash"]));
    expect(stand!.argv.slice(-2)).toEqual(["--", "yes, go on"]);
    expect(events[0]).toMatchObject({ backend: "claude", resumed_from: session, detection: "given" });
  });

  it("--resume SESSION: run.started.resumed_from names it", async () => {
    const { result, stand } = await standInRun(["--backend", "claude", "--resume", "sess-1", "go on"]);
    expect(stand!.argv).toEqual(expect.arrayContaining(["--resume", "sess-1"]));
    expect(expectCanonical(result).events[0]).toMatchObject({ resumed_from: "sess-1" });
  });

  it.each([
    [
      "a stream without a resume hint or a session",
      () => {
        const file = scratch.path("no-session.jsonl");
        writeFileSync(file, `${JSON.stringify({ v: 1, seq: 1, type: "run.started", backend: "claude" })}\n`);
        return ["--continue-from", file, "x"];
      },
      "has no resume hint and no session_id to continue",
    ],
    ["a file that is not there", () => ["--continue-from", scratch.path("missing.jsonl"), "x"], "no such file"],
    [
      "a stream with no run.started",
      () => {
        const file = scratch.path("empty.jsonl");
        writeFileSync(file, "");
        return ["--continue-from", file, "x"];
      },
      "no run.started names the backend",
    ],
    [
      "a rule the backend cannot enforce",
      () => ["--backend", "codex", "--allow-tool", "shell", "x"],
      "Codex has no per-tool allow list",
    ],
    [
      "an approvals mode the backend lacks",
      () => ["--backend", "opencode", "--approvals", "never", "x"],
      "--approvals never: OpenCode",
    ],
    [
      "--no-auto-mode with --approvals auto",
      () => ["--backend", "evosci", "--no-auto-mode", "--approvals", "auto", "x"],
      "exclude each other",
    ],
    ["neither --backend nor --continue-from", () => ["x"], "required option '--backend <name>' not specified"],
  ])("refuses %s with exit 2, nothing started", async (_what, args, message) => {
    const { result, record } = await standInRun(args());
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(message);
    expect(existsSync(record)).toBe(false);
  });

  it("refuses --continue-from with another --backend, and with --resume", async () => {
    const { file } = await recordedDenial();
    for (const [args, message] of [
      [["--backend", "codex", "--continue-from", file, "x"], "the stream is claude's, not codex's"],
      [["--continue-from", file, "--resume", "s", "x"], "--resume and --continue-from exclude each other"],
    ] as const) {
      const { result, record } = await standInRun([...args]);
      expect(result.code, message).toBe(2);
      expect(result.stderr).toContain(message);
      expect(existsSync(record)).toBe(false);
    }
  });
});

describe("agentstream run --continue-from an OpenCode stream", () => {
  it("continues its session (session.started from its sessionID) with run --session SESSION", async () => {
    const golden = fileURLToPath(new URL("../../fixtures/golden/opencode/denied.canonical.jsonl", import.meta.url));
    const session = (JSON.parse(readFileSync(golden, "utf8").trimEnd().split("\n").at(-1)!) as { session_id: string })
      .session_id;
    expect(session).toMatch(/^ses_/);
    const record = scratch.recordPath();
    const result = await runCli(
      ["run", "--bin", STAND_IN, "--continue-from", golden, "--allow-tool", "shell", "go on"],
      {
        env: { STANDIN_RECORD: record, STANDIN_TRANSCRIPT: DENIED },
      },
    );
    const stand = expectNoneLeftRunning(record)!;
    expect(stand.argv).toEqual(expect.arrayContaining(["run", "--session", session]));
    expect(parseJsonl(result.stdout)[0]).toMatchObject({ backend: "opencode", resumed_from: session });
  });
});

describe("agentstream run --deny-tool on Gemini CLI", () => {
  it("passes --policy FILE, a file written for the run and removed after it", async () => {
    const record = scratch.recordPath();
    const result = await runCli(["run", "--backend", "gemini", "--bin", STAND_IN, "--deny-tool", "shell", "x"], {
      env: { STANDIN_RECORD: record, STANDIN_TRANSCRIPT: DENIED },
    });
    const argv = expectNoneLeftRunning(record)!.argv;
    const policy = argv[argv.indexOf("--policy") + 1]!;
    expect(policy).toMatch(/\/agentstream-run-[^/]+\/rules\.toml$/);
    expect(result.stderr).not.toContain("internal");
    expect(existsSync(policy)).toBe(false);
  });
});

describe("library run({ continueFrom, allowTools })", () => {
  it("continues the recorded session as the CLI does: no backend option needed", async () => {
    const { file, session } = await recordedDenial();
    const record = scratch.recordPath();
    const events = [];
    for await (const event of run({
      continueFrom: file,
      allowTools: ["shell"],
      bin: STAND_IN,
      prompt: "yes, go on",
      env: { ...process.env, STANDIN_RECORD: record, STANDIN_TRANSCRIPT: DENIED },
    }))
      events.push(event);
    expect(events[0]).toMatchObject({ type: "run.started", backend: "claude", resumed_from: session });
    expect(expectNoneLeftRunning(record)!.argv).toEqual(
      expect.arrayContaining(["--resume", session, "--allowedTools", "Bash"]),
    );
  });
});
