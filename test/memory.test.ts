// normalize streams: its memory does not grow with the length of its input.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BIN } from "./helpers/cli.js";

const GENERATOR = fileURLToPath(new URL("./fixtures/generate-stream.mjs", import.meta.url));
// Prints the process's peak resident set size (KiB) on stderr as it exits.
const REPORT_PEAK_RSS = `data:text/javascript,process.on("exit",()=>process.stderr.write("maxrss="+process.resourceUsage().maxRSS+"\\n"))`;

function peakRssMiB(protocol: string, megabytes: number): Promise<{ rssMiB: number; lastLine: string }> {
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
      const match = /maxrss=(\d+)/.exec(stderr);
      if (!match) return reject(new Error(`no maxrss in: ${stderr}`));
      resolve({ rssMiB: Number(match[1]) / 1024, lastLine: tail.trimEnd().split("\n").pop() ?? "" });
    });
  });
}

describe("memory", () => {
  it.each(["evosci", "atomic"])("stays flat on a %s stream ten times longer", async (protocol) => {
    const small = await peakRssMiB(protocol, 8);
    const large = await peakRssMiB(protocol, 80);
    expect(JSON.parse(large.lastLine)).toMatchObject({ type: "run.finished", status: "succeeded" });
    expect(large.rssMiB).toBeLessThan(120);
    // Holding the stream would add well over 80 MiB; heap sizing under load adds some.
    expect(large.rssMiB - small.rssMiB).toBeLessThan(40);
  }, 60_000);
});
