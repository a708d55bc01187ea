import { spawn } from "node:child_process";

// pi 1.6 reads `--` as the end of its flags; 0.73 and 0.84 do not have it and
// would read a prompt starting with "-" as a flag.
const FIRST_WITH_TERMINATOR = [1, 6, 0];
const PROBE_TIMEOUT_MS = 10_000;

/** Whether this pi executable accepts `--` before the prompt; false when its version cannot be told. */
export async function piAcceptsPromptTerminator(executable: string, env: NodeJS.ProcessEnv): Promise<{ accepts: boolean; version?: string }> {
  const version = await probeVersion(executable, env);
  if (version === undefined) return { accepts: false };
  const parts = version.split(".").map(Number);
  return { accepts: compareVersions(parts, FIRST_WITH_TERMINATOR) >= 0, version };
}

function probeVersion(executable: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    let output = "";
    const child = spawn(executable, ["--version"], { env, stdio: ["ignore", "pipe", "pipe"], timeout: PROBE_TIMEOUT_MS });
    const collect = (chunk: Buffer): void => {
      if (output.length < 4096) output += chunk.toString("utf8");
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("error", () => resolve(undefined));
    child.on("close", () => resolve(/\b(\d+)\.(\d+)\.(\d+)\b/.exec(output)?.[0]));
  });
}

function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < b.length; i++) {
    const d = (a[i] ?? 0) - b[i]!;
    if (d !== 0) return d;
  }
  return 0;
}
