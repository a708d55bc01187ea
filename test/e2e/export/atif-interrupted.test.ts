// `export atif` as a real process where its input never ends or it is stopped: input that is no canonical stream
// and holds no line end (/dev/zero) is refused once a line passes the canonical line cap (exit 2), and a signal
// during the export (or during normalize --atif) leaves no spill file in the temporary folder.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CANONICAL_MAX_LINE_BYTES } from "../../../src/core/read-canonical.js";
import { BIN, runCli } from "../../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "agentstream-atif-stop-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let folders = 0;
const folder = (): string => {
  const made = join(dir, `t${++folders}`);
  mkdirSync(made);
  return made;
};

/** A canonical run of many turns, each a long message and a call with its result: enough to spill. */
function* turns(count: number): Generator<string> {
  let seq = 0;
  const line = (e: Record<string, unknown>) =>
    `${JSON.stringify({ v: 1, seq: ++seq, ts: "2026-01-01T00:00:00.000Z", elapsed_ms: seq, run_id: "r1", backend: "pi", ...e })}\n`;
  yield line({ type: "run.started", agentstream_version: "9.9.9", mode: "normalize" });
  for (let n = 1; n <= count; n++) {
    yield line({ type: "turn.started", turn: n });
    yield line({ type: "message.completed", message_id: `m${n}`, text: "x".repeat(2000) });
    yield line({ type: "tool.started", tool_call_id: `c${n}`, name: "bash", args: {} });
    yield line({ type: "tool.completed", tool_call_id: `c${n}`, name: "bash", status: "succeeded", output: "ok" });
  }
}

describe("export atif: input that is no canonical stream and never ends", () => {
  it.skipIf(!existsSync("/dev/zero"))(
    "/dev/zero: refused with exit 2 once its first line passes the line cap (before: read forever)",
    async () => {
      const result = await runCli(["export", "atif", "/dev/zero"]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(
        `/dev/zero is not a canonical stream: line 1: longer than ${CANONICAL_MAX_LINE_BYTES} bytes`,
      );
    },
  );
});

/**
 * The command, its input a pipe fed with `input` and left open: once its spill file is in the temporary
 * folder, it is sent `signal`. How it ended, and what the temporary folder holds after.
 */
async function stopped(args: string[], input: Iterable<string>, signal: NodeJS.Signals, temp: string) {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, TMPDIR: temp, NO_COLOR: "1" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.resume();
  child.stdin.on("error", () => {});
  const closed = once(child, "close");
  let gone = false;
  void closed.then(() => (gone = true));
  for (const line of input) if (!child.stdin.write(line)) await once(child.stdin, "drain");
  // Waited for, not timed: the spill file is made once 64 KiB of finished steps wait.
  while (!gone && !readdirSync(temp).some((f) => f.startsWith("agentstream-atif-")))
    await new Promise((r) => setTimeout(r, 20));
  expect(gone, "the command ended before its spill file was made").toBe(false);
  child.kill(signal);
  const [code, by] = (await closed) as [number | null, NodeJS.Signals | null];
  return { code, signal: by, stdout, left: readdirSync(temp) };
}

describe("an interrupted export leaves no spill file", () => {
  it.each(["SIGINT", "SIGTERM"] as const)(
    "export atif - stopped by %s: it dies of the signal as before, nothing on stdout, the spill file removed (before: left)",
    async (signal) => {
      const temp = folder();
      const result = await stopped(["export", "atif", "-"], turns(200), signal, temp);
      expect(result).toEqual({ code: null, signal, stdout: "", left: [] });
    },
  );

  it("normalize --atif stopped by SIGTERM: the run ends cancelled (143), its document written, no spill file left", async () => {
    const temp = folder();
    const out = join(folder(), "run.atif.json");
    // A native EvoScientist stream of many long messages.
    const native = function* (): Generator<string> {
      for (let n = 0; n < 200; n++) yield `${JSON.stringify({ type: "text", content: "y".repeat(2000) })}\n`;
      for (let n = 0; n < 200; n++) {
        yield `${JSON.stringify({ type: "tool_call", id: `t${n}`, name: "bash", args: {} })}\n`;
        yield `${JSON.stringify({ type: "tool_result", id: `t${n}`, name: "bash", content: "z".repeat(2000), success: true })}\n`;
        yield `${JSON.stringify({ type: "text", content: "y".repeat(2000) })}\n`;
      }
    };
    const result = await stopped(["normalize", "--from", "evosci", "--atif", out, "-"], native(), "SIGTERM", temp);
    expect([result.code, result.signal, result.left]).toEqual([143, null, []]);
    const doc = JSON.parse(readFileSync(out, "utf8")) as { extra: { outcome: { status: string } } };
    expect(doc.extra.outcome.status).toBe("cancelled");
  });
});
