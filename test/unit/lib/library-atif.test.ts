// The library's `atif` option to run(): the run's ATIF document, as `run --atif` writes it, equal to what
// `export atif` makes of the events run() yielded; a file that cannot be written refused before the run.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { CanonicalEvent } from "../../../src/canonical/events.js";
import { UsageError } from "../../../src/core/errors.js";
import { normalizeStream } from "../../../src/lib/normalize.js";
import { run } from "../../../src/lib/run.js";
import { runCli } from "../../helpers/cli.js";
import { Scratch } from "../../helpers/stand-in.js";

const REPLAY = fileURLToPath(new URL("../../../examples/replay-backend.mjs", import.meta.url));
const PI = fileURLToPath(new URL("../../../examples/pi/tool.native.jsonl", import.meta.url));
const scratch = new Scratch();
afterAll(() => scratch.remove());

/** The events an entry point yields given `atif: FILE`, and FILE then holds what export atif makes of them. */
async function expectDocumentOfEvents(
  name: string,
  start: (atif: string) => AsyncIterable<CanonicalEvent>,
): Promise<void> {
  const dir = join(scratch.dir, name);
  mkdirSync(dir);
  const file = join(dir, "run.atif.json");
  const events: CanonicalEvent[] = [];
  for await (const event of start(file)) events.push(event);
  expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "succeeded" });
  const stream = join(dir, "stream.jsonl");
  writeFileSync(stream, events.map((event) => `${JSON.stringify(event)}\n`).join(""));
  const exported = await runCli(["export", "atif", stream]);
  expect(exported.code, exported.stderr).toBe(0);
  expect(readFileSync(file, "utf8")).toBe(exported.stdout);
}

describe("library run({ atif })", () => {
  it("writes the document export atif makes of the events it yielded", async () => {
    await expectDocumentOfEvents("library-atif", (atif) =>
      run({ backend: "evosci", bin: REPLAY, prompt: "x", atif, env: { ...process.env, REPLAY_SPEED: "200" } }),
    );
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

describe("library normalizeStream({ atif })", () => {
  it("writes the document export atif makes of the events it yielded; an unwritable file is a UsageError first", async () => {
    await expectDocumentOfEvents("normalize-atif", (atif) => normalizeStream([readFileSync(PI)], { from: "pi", atif }));
    const missing = join(scratch.dir, "missing", "x.json");
    await expect(normalizeStream([readFileSync(PI)], { atif: missing }).next()).rejects.toThrow(UsageError);
  });
});
