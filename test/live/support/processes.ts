import { readdirSync, readFileSync } from "node:fs";

/** The pids of processes whose command line contains `text` (Linux /proc). */
export function processesRunning(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ").includes(text)) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}
