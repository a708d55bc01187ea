import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { StreamVerifier } from "../../../src/verify/stream-verifier.js";
import { publishedValidator } from "../../helpers/verify.js";
import {
  eachLine,
  expectNoneLeftRunning,
  floodStalled,
  peakRssMiB,
  REPORT_PEAK_RSS,
  Scratch,
  STAND_IN,
  spawnCli,
  standInEnv,
  transcript,
} from "../../helpers/stand-in.js";

// A backend that writes faster than agentstream's reader takes its output is
// held back (backpressure), not buffered: the reader pauses agentstream's
// stdout (or stderr), the stand-in's flood stalls within a few MB, and
// agentstream's peak RSS stays far below what the flood would need.

const scratch = new Scratch();
afterAll(() => scratch.remove());

const MAX_RSS_MIB = 150;
const FLOOD_EVENT = /"type":"backend\.event","native_type":"flood","raw":(\{"type":"flood","n":(\d+),"pad":"f*"\})/;
// What may sit in pipes and buffers between the stand-in and a reader that reads nothing.
const MAX_UNREAD_BYTES = 16 * 1024 * 1024;

/** Start agentstream on a flooding stand-in with `paused` not read until the flood has stalled or ended. */
async function floodWithPausedReader(knobs: Record<string, string>, paused: "stdout" | "stderr", extra: string[] = []) {
  const record = scratch.recordPath();
  const progress = scratch.path("progress");
  const child = spawnCli(["run", "--backend", "evosci", "--bin", STAND_IN, ...extra, "x"], {
    node: ["--import", REPORT_PEAK_RSS],
    env: standInEnv(record, { ...knobs, STANDIN_PROGRESS: progress }),
  });
  child[paused].pause();
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const whilePaused = await floodStalled(progress);
  return { child, exited, whilePaused, record, progress };
}

describe.concurrent("agentstream run: a backend faster than the reader", () => {
  it("200 MB on stdout, read only after the flood stalls: throttled, not buffered; every line arrives, in order", async () => {
    const { child, exited, whilePaused, record, progress } = await floodWithPausedReader(
      { STANDIN_FLOOD_MB: "200", STANDIN_TRANSCRIPT: transcript("evosci-success.jsonl") },
      "stdout",
    );
    expect(whilePaused.done).toBe(false);
    expect(whilePaused.bytes).toBeLessThan(MAX_UNREAD_BYTES);

    // The stream is checked as it arrives, never held whole.
    const verifier = new StreamVerifier(publishedValidator);
    const problems: unknown[] = [];
    let lineNumber = 0;
    let floodLines = 0;
    let floodBytes = 0;
    let outOfOrder = 0;
    let last: Record<string, unknown> = {};
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const read = eachLine(child.stdout, (line) => {
      problems.push(...verifier.push(line, ++lineNumber));
      // A flood line's backend.event carries the native line as raw, compact as the stand-in wrote it.
      const flood = FLOOD_EVENT.exec(line);
      if (!flood) return void (last = JSON.parse(line) as Record<string, unknown>);
      if (Number(flood[2]) !== floodLines++) outOfOrder++;
      floodBytes += flood[1]!.length + 1;
    });
    child.stdout.resume();
    const [code] = await Promise.all([exited, read]);
    problems.push(...verifier.finish());

    expect(problems).toEqual([]);
    expect(outOfOrder).toBe(0);
    expect(`${floodBytes} done`).toBe(readFileSync(progress, "utf8"));
    expect(last).toMatchObject({
      type: "run.finished",
      status: "succeeded",
      exit_code: 0,
      counts: { unknown_events: floodLines },
    });
    expect(code).toBe(0);
    expect(peakRssMiB(stderr)).toBeLessThan(MAX_RSS_MIB);
    expectNoneLeftRunning(record);
  }, 60_000);

  it("--verbose, 50 MB on stderr, read only after the flood stalls: throttled, not buffered; all of it shown", async () => {
    const { child, exited, whilePaused, record } = await floodWithPausedReader(
      { STANDIN_STDERR_FLOOD_MB: "50", STANDIN_TRANSCRIPT: transcript("evosci-success.jsonl") },
      "stderr",
      ["--verbose"],
    );
    expect(whilePaused.done).toBe(false);
    expect(whilePaused.bytes).toBeLessThan(MAX_UNREAD_BYTES);

    let stdout = "";
    let shown = 0;
    let lastPiece = -1;
    let tail: string[] = [];
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    const read = eachLine(child.stderr, (line) => {
      const warning = /^\[evosci\] warning (\d+)\.(\d+): /.exec(line);
      if (warning) {
        shown++;
        if (warning[2] === "599") lastPiece = Number(warning[1]);
      }
      tail = [...tail.slice(-9), line];
    });
    child.stderr.resume();
    const [code] = await Promise.all([exited, read]);

    expect(code).toBe(0);
    expect(JSON.parse(stdout.trimEnd().split("\n").at(-1)!)).toMatchObject({
      type: "run.finished",
      status: "succeeded",
    });
    // The stand-in writes its warnings 600 to a numbered piece: all of them were shown.
    expect(shown).toBe((lastPiece + 1) * 600);
    expect(shown * 100).toBeGreaterThan(50 * 1024 * 1024 * 0.5);
    expect(peakRssMiB(tail.join("\n"))).toBeLessThan(MAX_RSS_MIB);
    expectNoneLeftRunning(record);
  }, 60_000);
});
