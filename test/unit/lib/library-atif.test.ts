// The library's `atif` option to run(): the run's ATIF document, as `run --atif` writes it, equal to what
// `export atif` makes of the events run() yielded; a file that cannot be written refused before the run.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { CanonicalEvent } from "../../../src/canonical/events.js";
import { UsageError } from "../../../src/core/errors.js";
import { run } from "../../../src/lib/run.js";
import { runCli } from "../../helpers/cli.js";
import { Scratch } from "../../helpers/stand-in.js";

const REPLAY = fileURLToPath(new URL("../../../examples/replay-backend.mjs", import.meta.url));
const scratch = new Scratch();
afterAll(() => scratch.remove());

describe("library run({ atif })", () => {
  it("writes the document export atif makes of the events it yielded", async () => {
    const dir = join(scratch.dir, "library-atif");
    mkdirSync(dir);
    const file = join(dir, "run.atif.json");
    const events: CanonicalEvent[] = [];
    for await (const event of run({
      backend: "evosci",
      bin: REPLAY,
      prompt: "x",
      atif: file,
      env: { ...process.env, REPLAY_SPEED: "200" },
    }))
      events.push(event);
    expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "succeeded" });
    const stream = join(dir, "stream.jsonl");
    writeFileSync(stream, events.map((event) => `${JSON.stringify(event)}\n`).join(""));
    const exported = await runCli(["export", "atif", stream]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(exported.stdout);
  });

  it("refuses a file whose folder is missing before the backend starts: a UsageError, no event", async () => {
    const file = join(scratch.dir, "missing", "run.atif.json");
    const events = run({ backend: "evosci", bin: REPLAY, prompt: "x", atif: file });
    await expect(events.next()).rejects.toThrow(UsageError);
    await expect(run({ backend: "evosci", bin: REPLAY, prompt: "x", atif: file }).next()).rejects.toThrow(
      `cannot write atif ${file}: its folder does not exist`,
    );
    expect(existsSync(file)).toBe(false);
  });
});
