import { readdirSync, readFileSync } from "node:fs";

/**
 * Signal every process of a process group. False when the group no longer
 * exists. (Signal 0 only checks.)
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  return signalTarget(-pgid, signal);
}

/** Signal one process; false when it no longer exists. */
export function signalProcess(pid: number, signal: NodeJS.Signals | 0): boolean {
  return signalTarget(pid, signal);
}

function signalTarget(target: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(target, signal);
    return true;
  } catch (err) {
    // EPERM: a process we may not signal (setuid); it is still there.
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

/** True while the process runs; a zombie waiting to be reaped does not count. */
export function processRunning(pid: number): boolean {
  if (!signalProcess(pid, 0)) return false;
  const stat = procStat(String(pid));
  return stat === undefined ? process.platform !== "linux" : stat.running;
}

function livingMembers(pgid: number): number {
  let living = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(entry);
    if (stat && stat.pgrp === pgid && stat.running) living++;
  }
  return living;
}

/** When the process started, in clock ticks since boot; undefined once it is reaped, or where there is no /proc. */
export function startTime(pid: number | "self"): number | undefined {
  return procStat(String(pid))?.startTime;
}

/**
 * The process groups, other than the backend's own, of its living descendants:
 * a child that made a group of its own (a shell tool run with setsid or
 * detached) is out of reach of a signal to the backend's group, and would
 * outlive it. Empty where there is no /proc.
 */
export function escapedGroups(pid: number, ownGroup: number): number[] {
  if (process.platform !== "linux") return [];
  const children = new Map<number, number[]>();
  const groupOf = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(entry);
    if (!stat?.running) continue;
    const child = Number(entry);
    groupOf.set(child, stat.pgrp);
    children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), child]);
  }
  const ours = procStat("self")?.pgrp;
  const groups = new Set<number>();
  const queue = [...(children.get(pid) ?? [])];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const group = groupOf.get(next);
    if (group !== undefined && group !== ownGroup && group !== ours && group > 1) groups.add(group);
    queue.push(...(children.get(next) ?? []));
  }
  return [...groups];
}

function procStat(pid: string): { running: boolean; ppid: number; pgrp: number; startTime: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined; // exited meanwhile, or no /proc
  }
  // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return {
    running: fields[0] !== "Z" && fields[0] !== "X",
    ppid: Number(fields[1]),
    pgrp: Number(fields[2]),
    startTime: Number(fields[19]),
  };
}

/** Wait until `alive` turns false, checking every `intervalMs`; false if it is still true after `timeoutMs`. */
export async function waitUntilGone(alive: () => boolean, timeoutMs: number, intervalMs = 25): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (alive()) {
    if (performance.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return true;
}
