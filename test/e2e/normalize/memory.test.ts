// normalize streams: its memory does not grow with the length of its input.
// Measured as the heap left after a full collection at exit, which holds what
// is still referenced (a leak) and not what V8 chose to keep around (peak RSS
// moves with heap sizing and with the load of the machine, so it is no test).
import { spawn } from "node:child_process";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BIN } from "../../helpers/cli.js";

const GENERATOR = fileURLToPath(new URL("../../fixtures/generate-stream.mjs", import.meta.url));
// At exit: collect everything unreachable, then report what is still held.
const REPORT_RETAINED_HEAP = `data:text/javascript,process.on("exit",()=>{globalThis.gc();process.stderr.write("retained="+process.memoryUsage().heapUsed+"\\n")})`;

function retainedMiB(stderr: string): number {
  const match = /retained=(\d+)/.exec(stderr);
  if (!match) throw new Error(`no retained heap reported; stderr:\n${stderr}`);
  return Number(match[1]) / 2 ** 20;
}

function normalizeGenerated(protocol: string, megabytes: number): Promise<{ heapMiB: number; lastLine: string }> {
  return new Promise((resolve, reject) => {
    const generator = spawn(process.execPath, [GENERATOR, protocol, String(megabytes)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const agentstream = spawn(
      process.execPath,
      ["--expose-gc", "--import", REPORT_RETAINED_HEAP, BIN, "normalize", "--from", protocol],
      { stdio: ["pipe", "pipe", "pipe"] },
    );
    generator.stdout.pipe(agentstream.stdin);
    let stderr = "";
    let tail = "";
    agentstream.stdout.setEncoding("utf8").on("data", (d: string) => (tail = (tail + d).slice(-4096)));
    agentstream.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    agentstream.on("error", reject);
    agentstream.on("close", () => {
      try {
        resolve({ heapMiB: retainedMiB(stderr), lastLine: tail.trimEnd().split("\n").pop() ?? "" });
      } catch (err) {
        reject(err);
      }
    });
  });
}

describe("memory", () => {
  it.each(["evosci", "atomic"])(
    "stays flat on a %s stream ten times longer",
    async (protocol) => {
      const small = await normalizeGenerated(protocol, 8);
      const large = await normalizeGenerated(protocol, 80);
      expect(JSON.parse(large.lastLine)).toMatchObject({ type: "run.finished", status: "succeeded" });
      // About 6 MiB at any length; holding the stream (or its events) would keep tens of MiB more.
      expect(large.heapMiB - small.heapMiB).toBeLessThan(8);
    },
    60_000,
  );
});

describe("memory with --from auto", () => {
  it("reads many large garbage lines with a small heap: detection holds bytes, not lines", async () => {
    // 40 lines of 4 MiB: holding them all, as detection once did, needs far more than the 64 MiB heap.
    const line = Buffer.from(`${"garbage ".repeat(512 * 1024)}\n`);
    const agentstream = spawn(process.execPath, ["--max-old-space-size=64", BIN, "normalize", "-"], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    Readable.from(
      (function* () {
        for (let i = 0; i < 40; i++) yield line;
      })(),
    ).pipe(agentstream.stdin);
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
    expect(JSON.parse(tail.trimEnd().split("\n").pop() ?? "")).toMatchObject({
      type: "run.finished",
      counts: { unparsed_lines: 40 },
    });
    expect(code).not.toBeNull();
  }, 120_000);
});
