import { readdirSync, readFileSync } from "node:fs";

/**
 * Signal every process of a process group. False when the group no longer
 * exists. (Signal 0 only checks.)
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (err) {
    // EPERM: a member we may not signal (setuid); it is still there.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** True while a process of the group is still running; zombies waiting to be reaped do not count. */
export function groupAlive(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  if (process.platform !== "linux") return true;
  try {
    return livingMembers(pgid) > 0;
  } catch {
    return true;
  }
}

function livingMembers(pgid: number): number {
  let living = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") living++;
  }
  return living;
}

/** Wait until the group is gone, checking every `intervalMs`; false if it is still there after `timeoutMs`. */
export async function waitForGroupExit(pgid: number, timeoutMs: number, intervalMs = 25): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (groupAlive(pgid)) {
    if (performance.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return true;
}
