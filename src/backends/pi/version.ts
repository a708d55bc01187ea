import { BackendProcess } from "../../run/backend-process.js";
import type { StopWatch } from "../../run/stop-signals.js";

// pi 1.6 reads `--` as the end of its flags; 0.73 and 0.84 do not have it and
// would read a prompt starting with "-" as a flag.
const FIRST_WITH_TERMINATOR = [1, 6, 0];
const PROBE_TIMEOUT_MS = 10_000;

/**
 * Whether this pi executable accepts `--` before the prompt; false when its
 * version cannot be told. The probe (`pi --version`) is run like the backend:
 * in its own process group, stopped after 10 s or on a stop signal (a second
 * one kills it at once), SIGKILLed `graceMs` after that, and what it leaves
 * behind with it.
 */
export async function piAcceptsPromptTerminator(
  executable: string,
  env: NodeJS.ProcessEnv,
  graceMs: number,
  stops: StopWatch,
): Promise<{ accepts: boolean; version?: string }> {
  const version = await probeVersion(executable, env, graceMs, stops);
  if (version === undefined) return { accepts: false };
  const parts = version.split(".").map(Number);
  return { accepts: compareVersions(parts, FIRST_WITH_TERMINATOR) >= 0, version };
}

async function probeVersion(
  executable: string,
  env: NodeJS.ProcessEnv,
  graceMs: number,
  stops: StopWatch,
): Promise<string | undefined> {
  if (stops.signal) return undefined;
  let probe: BackendProcess;
  try {
    probe = new BackendProcess({ file: executable, args: ["--version"], cwd: process.cwd(), env, graceMs });
  } catch {
    return undefined;
  }
  let output = "";
  const collect = (chunk: Buffer): void => {
    if (output.length < 4096) output += chunk.toString("utf8");
  };
  probe.stdout.on("data", collect);
  probe.stderr.on("data", collect);
  const unhear = stops.listen((_signal, again) => (again ? probe.kill() : probe.stop("SIGTERM")));
  const timer = setTimeout(() => probe.stop("SIGTERM"), PROBE_TIMEOUT_MS);
  try {
    await probe.ended;
  } finally {
    clearTimeout(timer);
    unhear();
  }
  return /\b(\d+)\.(\d+)\.(\d+)\b/.exec(output)?.[0];
}

function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < b.length; i++) {
    const d = (a[i] ?? 0) - b[i]!;
    if (d !== 0) return d;
  }
  return 0;
}
