// --answer-file FILE for run and normalize, as a real process: the final answer
// in a file while stdout streams the canonical JSONL.
import { spawnSync } from "node:child_process";
import { once } from "node:events";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { cliForNobody } from "../../helpers/as-nobody.js";
import { BIN, parseJsonl, runCli } from "../../helpers/cli.js";
import { verifyEvents } from "../../helpers/verify.js";
import { Scratch, expectCanonical, runStandIn, spawnCli, transcript } from "../../helpers/stand-in.js";

const RESEARCH = fileURLToPath(new URL("../../../examples/evosci/research.native.jsonl", import.meta.url));
const OVERLOADED = fileURLToPath(new URL("../../../examples/evosci/overloaded.native.jsonl", import.meta.url));
const STAND_IN_ANSWER = "There are two entries: README.md and data/.\n";

const scratch = new Scratch();
afterAll(() => scratch.remove());

/** A fresh empty folder, to see that nothing but the answer is left in it. */
function folder(): string {
  const dir = scratch.path("answer");
  mkdirSync(dir);
  return dir;
}

describe("run --answer-file", () => {
  it("writes the final answer to the file while stdout streams the canonical JSONL", async () => {
    const dir = folder();
    const file = join(dir, "answer.txt");
    const { result } = await runStandIn(scratch, ["--backend", "evosci", "--answer-file", file, "x"], {
      knobs: { STANDIN_TRANSCRIPT: transcript("evosci-success.jsonl") },
    });
    expect(result.code).toBe(0);
    expectCanonical(result);
    expect(readFileSync(file, "utf8")).toBe(STAND_IN_ANSWER);
    expect(readdirSync(dir)).toEqual(["answer.txt"]);
  });

  it("holds what --output text prints, secrets redacted", async () => {
    const dir = folder();
    const recording = join(dir, "recording.jsonl");
    writeFileSync(
      recording,
      '{"type": "done", "response": "the key is s3cr3t-value-123, and sk-abcdefghijklmnopqrstu"}\n',
    );
    const file = join(dir, "answer.txt");
    const env = { MY_API_KEY: "s3cr3t-value-123" };
    const knobs = { STANDIN_TRANSCRIPT: recording };
    const { result } = await runStandIn(scratch, ["--backend", "evosci", "--answer-file", file, "x"], { knobs, env });
    const { result: text } = await runStandIn(scratch, ["--backend", "evosci", "--output", "text", "x"], {
      knobs,
      env,
    });
    expect(result.code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe("the key is [redacted], and [redacted]\n");
    expect(readFileSync(file, "utf8")).toBe(text.stdout);
  });

  it("removes an earlier file when the run has no final answer, keeping the outcome's exit code", async () => {
    const dir = folder();
    const file = join(dir, "answer.txt");
    writeFileSync(file, "the answer of an earlier run\n");
    const recording = join(dir, "recording.jsonl");
    writeFileSync(recording, '{"type": "error", "message": "Error code: 529 - overloaded"}\n');
    const { result } = await runStandIn(scratch, ["--backend", "evosci", "--answer-file", file, "x"], {
      knobs: { STANDIN_TRANSCRIPT: recording },
    });
    expect(result.code).toBe(75);
    expect(readdirSync(dir)).toEqual(["recording.jsonl"]);
  });

  it("refuses a file it cannot write with exit 2 before the backend starts", async () => {
    const dir = folder();
    for (const file of [join(dir, "no-such-folder", "answer.txt"), dir]) {
      const record = scratch.recordPath();
      const run = await runCli(
        [
          "run",
          "--backend",
          "evosci",
          "--bin",
          fileURLToPath(new URL("../../fixtures/backends/stand-in.mjs", import.meta.url)),
          "--answer-file",
          file,
          "x",
        ],
        { env: { STANDIN_RECORD: record } },
      );
      expect(run.code, file).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(
        new RegExp(
          `agentstream: cannot write --answer-file ${file}: (its folder does not exist|it is not a regular file)`,
        ),
      );
      expect(existsSync(record), "the backend started").toBe(false);
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("normalize --answer-file", () => {
  it("replaces an earlier file with the answer; stdout is still the stream, whatever --output says", async () => {
    const dir = folder();
    const file = join(dir, "answer.txt");
    writeFileSync(file, "the answer of an earlier run\n");
    const run = await runCli(["normalize", "--backend-exit", "0", "--answer-file", file, RESEARCH]);
    expect(run.code).toBe(0);
    expect(verifyEvents(parseJsonl(run.stdout))).toEqual([]);
    expect(readFileSync(file, "utf8")).toBe("Baselines: CIFAR-100 ~76%, Tiny-ImageNet ~55% top-1.\n");
    const json = await runCli([
      "normalize",
      "--backend-exit",
      "0",
      "--output",
      "json",
      "--answer-file",
      file,
      RESEARCH,
    ]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      type: "run.finished",
      result: { text: "Baselines: CIFAR-100 ~76%, Tiny-ImageNet ~55% top-1." },
    });
    expect(readFileSync(file, "utf8")).toBe("Baselines: CIFAR-100 ~76%, Tiny-ImageNet ~55% top-1.\n");
    expect(readdirSync(dir)).toEqual(["answer.txt"]);
  });

  it("writes through a symbolic link to the file it points to, keeping the link", async () => {
    const dir = folder();
    writeFileSync(join(dir, "real.txt"), "old\n");
    symlinkSync("real.txt", join(dir, "link.txt"));
    const run = await runCli(["normalize", "--backend-exit", "0", "--answer-file", join(dir, "link.txt"), RESEARCH]);
    expect(run.code).toBe(0);
    expect(readFileSync(join(dir, "real.txt"), "utf8")).toBe("Baselines: CIFAR-100 ~76%, Tiny-ImageNet ~55% top-1.\n");
    expect(readdirSync(dir).sort()).toEqual(["link.txt", "real.txt"]);
  });

  it("removes the file when there is no answer, and refuses a device with exit 2", async () => {
    const dir = folder();
    const file = join(dir, "answer.txt");
    writeFileSync(file, "stale\n");
    const run = await runCli(["normalize", "--answer-file", file, OVERLOADED]);
    expect(run.code).toBe(75);
    expect(readdirSync(dir)).toEqual([]);
    const device = await runCli(["normalize", "--answer-file", "/dev/null", RESEARCH]);
    expect(device.code).toBe(2);
    expect(device.stdout).toBe("");
    expect(device.stderr).toMatch(/cannot write --answer-file \/dev\/null: it is not a regular file/);
  });

  // As root every file is writable: root runs it as user nobody (from where nobody can read it).
  const asRoot = process.getuid?.() === 0;
  it("refuses a read-only file with exit 2 and leaves it alone", ({ onTestFinished, skip }) => {
    const nobody = asRoot ? cliForNobody() : undefined;
    if (nobody && "skip" in nobody) return skip(nobody.skip);
    if (nobody) onTestFinished(() => nobody.remove());
    const dir = folder();
    chmodSync(dir, 0o777);
    chmodSync(scratch.dir, 0o755);
    const file = join(dir, "answer.txt");
    writeFileSync(file, "keep me\n");
    chmodSync(file, 0o444);
    // The recording too, where nobody can read it: the checkout may be out of its reach.
    const input = join(scratch.dir, "research.native.jsonl");
    copyFileSync(RESEARCH, input);
    chmodSync(input, 0o644);
    const args = ["normalize", "--backend-exit", "0", "--answer-file", file, input];
    const run = nobody ? nobody.run(args) : spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/cannot write --answer-file .*: permission denied/);
    expect(readFileSync(file, "utf8")).toBe("keep me\n");
    expect(readdirSync(dir)).toEqual(["answer.txt"]);
  });

  it("leaves no file and no temporary file when the reader closes stdout (exit 141)", async () => {
    const dir = folder();
    const file = join(dir, "answer.txt");
    writeFileSync(file, "stale\n");
    const child = spawnCli(["normalize", "--from", "evosci", "--answer-file", file], { stdin: "pipe" });
    const exited = once(child, "close");
    child.stdout.once("data", () => child.stdout.destroy());
    child.stdin!.on("error", () => {});
    // Lines keep coming until agentstream notices its reader has gone.
    const line = `${JSON.stringify({ type: "text", content: "x".repeat(1000) })}\n`;
    let running = true;
    void exited.then(() => (running = false));
    while (running) {
      // The callback comes once the line is taken (or with the error once agentstream is gone);
      // setImmediate lets the exit be seen.
      await new Promise((resolve) => child.stdin!.write(line, resolve));
      await new Promise(setImmediate);
    }
    const [code] = await exited;
    expect(code).toBe(141);
    expect(readdirSync(dir)).toEqual([]);
  });
});
