import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../../bin/agentstream.js", import.meta.url));
export const SAMPLES = fileURLToPath(new URL("../fixtures/samples/", import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Run the built CLI as a real process. */
export function runCli(
  args: string[],
  options: { input?: string | Buffer; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined, ...options.env },
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    // A child that stops reading its stdin (a refused input) is no failure of the test's.
    child.stdin?.on("error", () => {});
    if (options.input !== undefined) child.stdin!.end(options.input);
  });
}

export function parseJsonl(text: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

// Prints the process's peak resident set size (KiB) on stderr as it exits: `node --import REPORT_PEAK_RSS ...`.
export const REPORT_PEAK_RSS = `data:text/javascript,process.on("exit",()=>process.stderr.write("maxrss="+process.resourceUsage().maxRSS+"\\n"))`;

/** The peak RSS that REPORT_PEAK_RSS wrote on this stderr, in MiB. */
export function peakRssMiB(stderr: string): number {
  const match = /maxrss=(\d+)/.exec(stderr);
  if (!match) throw new Error(`no maxrss in stderr: ${stderr.slice(-500)}`);
  return Number(match[1]) / 1024;
}
