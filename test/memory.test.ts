// normalize streams: its memory does not grow with the length of its input.
import { spawn } from "node:child_process";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BIN, peakRssMiB, REPORT_PEAK_RSS } from "./helpers/cli.js";

const GENERATOR = fileURLToPath(new URL("./fixtures/generate-stream.mjs", import.meta.url));

function normalizeGenerated(protocol: string, megabytes: number): Promise<{ rssMiB: number; lastLine: string }> {
  return new Promise((resolve, reject) => {
    const generator = spawn(process.execPath, [GENERATOR, protocol, String(megabytes)], { stdio: ["ignore", "pipe", "inherit"] });
    const agentstream = spawn(process.execPath, ["--import", REPORT_PEAK_RSS, BIN, "normalize", "--from", protocol], { stdio: ["pipe", "pipe", "pipe"] });
    generator.stdout.pipe(agentstream.stdin);
    let stderr = "";
    let tail = "";
    agentstream.stdout.setEncoding("utf8").on("data", (d: string) => (tail = (tail + d).slice(-4096)));
    agentstream.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    agentstream.on("error", reject);
    agentstream.on("close", () => {
      try {
        resolve({ rssMiB: peakRssMiB(stderr), lastLine: tail.trimEnd().split("\n").pop() ?? "" });
      } catch (err) {
        reject(err);
      }
    });
  });
}

describe("memory", () => {
  it.each(["evosci", "atomic"])("stays flat on a %s stream ten times longer", async (protocol) => {
    const small = await normalizeGenerated(protocol, 8);
    const large = await normalizeGenerated(protocol, 80);
    expect(JSON.parse(large.lastLine)).toMatchObject({ type: "run.finished", status: "succeeded" });
    // The benchmark holds the 120 MB target on a quiet machine; other test files run beside this one.
    expect(large.rssMiB).toBeLessThan(150);
    // Holding the stream would add well over 80 MiB; heap sizing under load adds some.
    expect(large.rssMiB - small.rssMiB).toBeLessThan(40);
  }, 60_000);
});

describe("memory with --from auto", () => {
  it("reads many large garbage lines with a small heap: detection holds bytes, not lines", async () => {
    // 40 lines of 4 MiB: holding them all, as detection once did, needs far more than the 64 MiB heap.
    const line = Buffer.from(`${"garbage ".repeat(512 * 1024)}\n`);
    const agentstream = spawn(process.execPath, ["--max-old-space-size=64", BIN, "normalize", "-"], { stdio: ["pipe", "pipe", "pipe"] });
    Readable.from((function* () {
      for (let i = 0; i < 40; i++) yield line;
    })()).pipe(agentstream.stdin);
    agentstream.stdin.on("error", () => {}); // a crashed child closes its stdin early; the exit is what is checked
    let tail = "";
    let stderr = "";
    agentstream.stdout.setEncoding("utf8").on("data", (d: string) => (tail = (tail + d).slice(-8192)));
    agentstream.stderr.setEncoding("utf8").on("data", (d: string) => (stderr = (stderr + d).slice(-8192)));
    const code = await new Promise<number | null>((resolve, reject) => {
      agentstream.on("error", reject);
      agentstream.on("close", resolve);
    });
    expect(stderr).not.toMatch(/heap out of memory/);
    expect(JSON.parse(tail.trimEnd().split("\n").pop() ?? "")).toMatchObject({ type: "run.finished", counts: { unparsed_lines: 40 } });
    expect(code).not.toBeNull();
  }, 120_000);
});
