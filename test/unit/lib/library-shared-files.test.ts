// The library refuses as the CLI does (issue 53 item 8): run()'s and normalizeStream()'s `atif` naming a file
// the call reads (continueFrom, outputSchema, the file a read stream comes from; through a link or not) is
// a UsageError before anything is read or started, worded with the library's option names, no flag; the
// file stays as it was.
import { createReadStream, linkSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { longFlag, RUN_OPTIONS } from "../../../src/app/options.js";
import { clisOf } from "../../../src/core/option-row.js";
import { UsageError } from "../../../src/core/errors.js";
import { normalizeStream } from "../../../src/lib/normalize.js";
import { run } from "../../../src/lib/run.js";
import { Scratch } from "../../helpers/stand-in.js";

const REPLAY = fileURLToPath(new URL("../../../examples/replay-backend.mjs", import.meta.url));
const RECORDING = readFileSync(new URL("../../../examples/pi/tool.native.jsonl", import.meta.url), "utf8");
const CANONICAL = readFileSync(new URL("../../../examples/evosci/research.canonical.jsonl", import.meta.url), "utf8");
const SCHEMA = JSON.stringify({ type: "object" });
const scratch = new Scratch();
afterAll(() => scratch.remove());

const FLAGS = [...new Set(RUN_OPTIONS.flatMap((row) => clisOf(row).map(longFlag)))];

let folders = 0;
function folder(): string {
  const dir = join(scratch.dir, `lib-shared-${++folders}`);
  mkdirSync(dir);
  writeFileSync(join(dir, "rec.jsonl"), RECORDING);
  writeFileSync(join(dir, "c.jsonl"), CANONICAL);
  writeFileSync(join(dir, "schema.json"), SCHEMA);
  return dir;
}

const snapshot = (dir: string) =>
  Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), "utf8")]));

/** The refusal of a call that must throw before its first event. */
async function refusal(events: AsyncGenerator<unknown>): Promise<UsageError> {
  try {
    await events.next();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  }
  throw new Error("not refused");
}

function expectWorded(err: UsageError, prefix: string, names: string[]): void {
  expect(err.message.startsWith(prefix), err.message).toBe(true);
  expect(err.message).toContain("are one file");
  for (const name of names) expect(err.message).toContain(name);
  const said = `${err.message}\n${err.hint ?? ""}`;
  expect(FLAGS.filter((flag) => said.includes(flag))).toEqual([]);
}

describe("the library refuses an output that is an input", () => {
  it("run({ atif }) naming continueFrom's stream, or outputSchema's file through a link: nothing started or touched", async () => {
    const dir = folder();
    symlinkSync("schema.json", join(dir, "link.json"));
    const before = snapshot(dir);
    const options = { backend: "evosci" as const, bin: REPLAY, prompt: "x" };
    const continued = await refusal(
      run({ ...options, continueFrom: join(dir, "c.jsonl"), atif: join(dir, "c.jsonl") }),
    );
    expectWorded(continued, "run(): ", ["option atif", "option continueFrom"]);
    const schema = await refusal(
      run({ ...options, outputSchema: join(dir, "schema.json"), atif: join(dir, "link.json") }),
    );
    expectWorded(schema, "run(): ", ["option atif", "option outputSchema"]);
    expect(snapshot(dir)).toEqual(before);
  });

  it("normalizeStream(a file's read stream, { atif }) naming that file or a hard link to it; atif naming outputSchema", async () => {
    const dir = folder();
    linkSync(join(dir, "rec.jsonl"), join(dir, "hard.jsonl"));
    const before = snapshot(dir);
    for (const atif of ["rec.jsonl", "hard.jsonl"]) {
      const input = createReadStream(join(dir, "rec.jsonl"));
      const err = await refusal(normalizeStream(input, { atif: join(dir, atif) }));
      input.destroy();
      expectWorded(err, "normalizeStream(): ", ["option atif", "the input "]);
    }
    const schema = await refusal(
      normalizeStream([RECORDING], { outputSchema: join(dir, "schema.json"), atif: join(dir, "schema.json") }),
    );
    expectWorded(schema, "normalizeStream(): ", ["option atif", "option outputSchema"]);
    expect(snapshot(dir)).toEqual(before);
  });

  it("an atif of its own is written", async () => {
    const dir = folder();
    const input = createReadStream(join(dir, "rec.jsonl"));
    for await (const _ of normalizeStream(input, { atif: join(dir, "run.atif.json") }));
    expect(readdirSync(dir).sort()).toEqual(["c.jsonl", "rec.jsonl", "run.atif.json", "schema.json"]);
    expect(readFileSync(join(dir, "rec.jsonl"), "utf8")).toBe(RECORDING);
  });
});
