// run --atif FILE (and normalize --atif) as a real process: the run's ATIF document, written when the run
// ends whatever its outcome, is the very document `export atif` makes of the canonical stream on stdout.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { Scratch } from "../../helpers/stand-in.js";

const EXAMPLES = fileURLToPath(new URL("../../../examples/", import.meta.url));
const REPLAY = join(EXAMPLES, "replay-backend.mjs");
const scratch = new Scratch();
afterAll(() => scratch.remove());

let folders = 0;
function folder(): string {
  const dir = join(scratch.dir, `atif-${++folders}`);
  mkdirSync(dir);
  return dir;
}

/** What `export atif` makes of a canonical stream. */
async function exported(stream: string, dir: string): Promise<string> {
  const file = join(dir, "stream.jsonl");
  writeFileSync(file, stream);
  const result = await runCli(["export", "atif", file]);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

describe("run --atif", () => {
  // A replayed run that succeeds, one whose recording is one API error (failed, retryable, exit 75), and one
  // stopped by --timeout while the replay still plays at its recorded pace (timed_out, exit 124).
  const cases: [string, string | undefined, string[], number][] = [
    ["succeeded", undefined, [], 0],
    ["failed", '{"after_ms": 0, "stdout": {"type": "error", "message": "Error code: 529 - overloaded"}}\n', [], 75],
    ["timed_out", undefined, ["--timeout", "0.5"], 124],
  ];

  it.each(cases)("%s: the document equals export atif of the run's stdout", async (status, recording, args, code) => {
    const dir = folder();
    const file = join(dir, "run.atif.json");
    const env: NodeJS.ProcessEnv = { REPLAY_SPEED: args.length > 0 ? "1" : "200" };
    if (recording !== undefined) {
      env.REPLAY_RECORDING = join(dir, "recording.jsonl");
      writeFileSync(env.REPLAY_RECORDING, recording);
    }
    const result = await runCli(
      ["run", "--backend", "evosci", "--bin", REPLAY, ...args, "--atif", file, "any prompt"],
      {
        env,
      },
    );
    expect(result.code, result.stderr).toBe(code);
    const document = readFileSync(file, "utf8");
    expect((JSON.parse(document) as { extra: { outcome: { status: string } } }).extra.outcome.status).toBe(status);
    expect(document).toBe(await exported(result.stdout, dir));
    // Renamed into place: no temporary file is left beside it.
    expect(readdirSync(dir).sort()).toEqual(
      [...(recording === undefined ? [] : ["recording.jsonl"]), "run.atif.json", "stream.jsonl"].sort(),
    );
  });

  it("a folder that cannot be written is refused before the backend starts (exit 2, nothing on stdout)", async () => {
    const file = join(folder(), "missing", "run.atif.json");
    const result = await runCli(["run", "--backend", "evosci", "--bin", REPLAY, "--atif", file, "x"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`cannot write --atif ${file}: its folder does not exist`);
    expect(existsSync(file)).toBe(false);
  });
});

describe("normalize --atif", () => {
  it.each(["evosci/research", "evosci/overloaded"])(
    "%s: the document equals export atif of normalize's stdout",
    async (example) => {
      const dir = folder();
      const file = join(dir, "run.atif.json");
      const result = await runCli([
        "normalize",
        "--from",
        "evosci",
        "--atif",
        file,
        join(EXAMPLES, `${example}.native.jsonl`),
      ]);
      expect(result.stdout).not.toBe("");
      expect(readFileSync(file, "utf8")).toBe(await exported(result.stdout, dir));
    },
  );
});
