// run --continue-from reads its file line by line with a bound: a line longer
// than the cap is skipped, never held whole (a --raw run whose tool printed a
// lot), and a long line under the cap is read whatever the chunks it comes in.
import { writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { UsageError } from "../../../src/core/errors.js";
import { readContinuation } from "../../../src/run/continue-from.js";
import { NO_STOPS } from "../../../src/run/stop-signals.js";
import { Scratch } from "../../helpers/stand-in.js";

const scratch = new Scratch();
afterAll(() => scratch.remove());

const line = (event: Record<string, unknown>) => `${JSON.stringify({ v: 1, seq: 1, ...event })}\n`;
const started = line({ type: "run.started", backend: "codex" });

describe("readContinuation and long lines", () => {
  it("a line over the cap is not read, and the refusal says which line it was", async () => {
    const file = scratch.path("overlong.jsonl");
    writeFileSync(file, started + line({ type: "tool.output", session_id: "in-the-long-line", pad: "x".repeat(4000) }));
    const read = readContinuation(file, NO_STOPS, 1024);
    await expect(read).rejects.toThrow(UsageError);
    await expect(read).rejects.toThrow(
      /no resume hint and no session_id to continue \(line 2 is longer than 1024 bytes and was not read\)$/,
    );
  });

  it("the lines after an over-cap line are read", async () => {
    const file = scratch.path("after-overlong.jsonl");
    const finished = line({ type: "run.finished", resume: { session_id: "sess-9" } });
    writeFileSync(file, started + line({ type: "tool.output", pad: "y".repeat(5000) }) + finished);
    expect(await readContinuation(file, NO_STOPS, 1024)).toEqual({
      backend: "codex",
      sessionId: "sess-9",
      from: "resume",
    });
  });

  it("a line under the cap, longer than the read chunks (64 KiB), is read whole", async () => {
    const file = scratch.path("long.jsonl");
    writeFileSync(file, started + line({ type: "tool.output", session_id: "long-one", pad: "z".repeat(300_000) }));
    expect(await readContinuation(file)).toEqual({ backend: "codex", sessionId: "long-one", from: "session_id" });
  });
});
