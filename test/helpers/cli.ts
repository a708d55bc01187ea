import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../../bin/agentstream.js", import.meta.url));
export const SAMPLES = fileURLToPath(new URL("../../../shared/samples/", import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Run the built CLI as a real process. */
export function runCli(args: string[], options: { input?: string | Buffer; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<CliResult> {
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
    if (options.input !== undefined) child.stdin!.end(options.input);
  });
}

export function parseJsonl(text: string): Record<string, unknown>[] {
  return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>);
}
