import { readdirSync, readFileSync, readlinkSync } from "node:fs";

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

/** The pids of processes whose working directory is `dir` (Linux /proc; one removed since reads "DIR (deleted)"). */
export function processesIn(dir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cwd = readlinkSync(`/proc/${entry}/cwd`);
      if (cwd === dir || cwd === `${dir} (deleted)`) pids.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return pids;
}
