// The library's run() and the run's temporary files: a TMPDIR that cannot hold them is a UsageError
// before anything starts, and once run.finished is written, a failure to remove them is a warning,
// never a different end (issue 37, item 9). Removal cannot be made to fail for root on a real folder,
// so node:fs's rmSync is made to fail here for the run's files only.
import * as fs from "node:fs";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CanonicalEvent } from "../../../src/canonical/events.js";
import { UsageError } from "../../../src/core/errors.js";
import { run } from "../../../src/lib/run.js";
import { COPILOT_TOOL, writeFileBackend } from "../../helpers/file-backend.js";

const failing = vi.hoisted(() => ({ removal: false }));
vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs")>();
  const rmSync: typeof real.rmSync = (path, options) => {
    // The run's folder (agentstream-run-…), and the usage file as it was named before it had one.
    if (failing.removal && /agentstream-(run|usage)-/.test(String(path)))
      throw Object.assign(new Error(`EBUSY: resource busy or locked, rm '${String(path)}'`), { code: "EBUSY" });
    real.rmSync(path, options);
  };
  return { ...real, rmSync, default: { ...real, rmSync } };
});

const scratch = mkdtempSync(join(tmpdir(), "agentstream-temp-cleanup-"));
const FAKE = writeFileBackend(scratch);
const savedTmpdir = process.env.TMPDIR;
let temp: string;
beforeEach(() => {
  temp = fs.mkdtempSync(join(scratch, "tmp-"));
  process.env.TMPDIR = temp;
});
afterEach(() => {
  failing.removal = false;
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const copilotRun = (notes: string[], record = join(temp, "record.json")) =>
  run({
    backend: "copilot",
    bin: FAKE,
    prompt: "list the files",
    env: { ...process.env, FAKE_RECORD: record, FAKE_TRANSCRIPT: COPILOT_TOOL },
    onNote: (text) => notes.push(text),
  });

describe("library run() and the run's temporary files", () => {
  it("a run whose temporary folder cannot be removed still returns its outcome; the failure is a note", async () => {
    failing.removal = true;
    const notes: string[] = [];
    const events: CanonicalEvent[] = [];
    const iterator = copilotRun(notes);
    let step = await iterator.next();
    for (; !step.done; step = await iterator.next()) events.push(step.value);
    expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "succeeded", usage: { input_tokens: 80 } });
    expect(step.value).toMatchObject({ status: "succeeded", exitCode: 0 });
    expect(notes).toContainEqual(expect.stringMatching(/^cannot remove the run's temporary folder .*agentstream-run-/));
  });

  // Before issue 46 item 5 the library reworded every flag-like word of its messages and notes: a path was not spared.
  it("a path that reads like a flag of agentstream's (a TMPDIR named --cwd) is said as it is, in a note and a refusal", async () => {
    const flagLike = join(scratch, "--cwd");
    fs.mkdirSync(flagLike);
    process.env.TMPDIR = flagLike;
    failing.removal = true;
    const notes: string[] = [];
    const iterator = copilotRun(notes);
    for (let step = await iterator.next(); !step.done; step = await iterator.next());
    expect(notes).toContainEqual(
      expect.stringContaining(`cannot remove the run's temporary folder ${flagLike}/agentstream-run-`),
    );
    const file = join(flagLike, "--model");
    writeFileSync(file, "");
    process.env.TMPDIR = file;
    await expect(copilotRun([], join(scratch, "flag-like-record.json")).next()).rejects.toThrow(
      `TMPDIR ${file}: it is not a directory`,
    );
  });

  it("a TMPDIR that is not a folder: a UsageError naming it, thrown before the backend starts", async () => {
    const file = join(scratch, "tmp-file");
    writeFileSync(file, "");
    process.env.TMPDIR = file;
    const record = join(scratch, "refused-record.json");
    await expect(copilotRun([], record).next()).rejects.toThrow(UsageError);
    await expect(copilotRun([], record).next()).rejects.toThrow(`TMPDIR ${file}: it is not a directory`);
    expect(readdirSync(scratch)).not.toContain("refused-record.json");
  });
});
