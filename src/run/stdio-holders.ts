import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/**
 * What the backend's stdout and stderr are, as the kernel names them
 * ("socket:[4026]"): read right after the spawn, while they are surely still
 * ours. [] where there is no /proc.
 */
export function stdioIdentities(pid: number): string[] {
  return fileNames(String(pid), ["1", "2"]);
}

/**
 * Whether anything may still hold one of these open. Cheap, where looking
 * through every process is not: a socket nobody holds any more is gone from
 * /proc/net/unix. True when it cannot tell.
 */
export function possiblyHeld(identities: readonly string[]): boolean {
  const inodes = identities.map((id) => /^socket:\[(\d+)\]$/.exec(id)?.[1]);
  if (inodes.length === 0 || inodes.some((inode) => inode === undefined)) return true;
  let table: string;
  try {
    table = readFileSync("/proc/net/unix", "utf8");
  } catch {
    return true;
  }
  // "Num RefCount Protocol Flags Type St Inode Path"
  const live = new Set(table.split("\n").map((row) => row.trim().split(/\s+/)[6]));
  return inodes.some((inode) => live.has(inode!));
}

/**
 * Processes other than agentstream that hold one of these open. A process
 * that left the backend's process group (setsid) but kept its stdout is found
 * here: it inherited the pipe, so the backend started it. Processes of other
 * users are not visible.
 */
export function processesHolding(identities: readonly string[]): number[] {
  if (identities.length === 0) return [];
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const holders: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    if (openFiles(entry).some((file) => identities.includes(file))) holders.push(Number(entry));
  }
  return holders;
}

function openFiles(pid: string): string[] {
  try {
    return fileNames(pid, readdirSync(`/proc/${pid}/fd`));
  } catch {
    return []; // another user's, or exited meanwhile
  }
}

/** What these file descriptors of a process refer to, skipping those already closed (or no /proc). */
function fileNames(pid: string, fds: string[]): string[] {
  const names: string[] = [];
  for (const fd of fds) {
    try {
      names.push(readlinkSync(`/proc/${pid}/fd/${fd}`));
    } catch {
      // closed meanwhile
    }
  }
  return names;
}
