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

/** True while the process runs; a zombie waiting to be reaped does not count. */
export function processRunning(pid: number): boolean {
  if (!signalProcess(pid, 0)) return false;
  const stat = procStat(String(pid));
  return stat === undefined ? process.platform !== "linux" : stat.running;
}

/** When the process started, in clock ticks since boot; undefined once it is reaped, or where there is no /proc. */
export function startTime(pid: number | "self"): number | undefined {
  return procStat(String(pid))?.startTime;
}

/** One process as /proc/PID/stat tells it. */
export interface ProcessEntry {
  pid: number;
  ppid: number;
  pgrp: number;
  /** When it started, in clock ticks since boot: with the pid, names the process for good (a pid alone is reused). */
  startTime: number;
  /** Not a zombie waiting to be reaped. */
  running: boolean;
}

/** A look at every process of the system, undefined where there is none (no /proc); injected in tests, to play a pid reused. */
export type ProcessTable = () => ProcessEntry[] | undefined;

/** Every process /proc shows. */
export const readProcessTable: ProcessTable = () => {
  if (process.platform !== "linux") return undefined;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined;
  }
  const table: ProcessEntry[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(entry);
    if (stat) table.push({ pid: Number(entry), ...stat });
  }
  return table;
};

/**
 * The process groups, other than the backend's own, of its living descendants,
 * each with the descendants found in it: a child that made a group of its own
 * (a shell tool run with setsid or detached) is out of reach of a signal to the
 * backend's group, and would outlive it. Empty where there is no /proc.
 */
export function escapedGroups(
  pid: number,
  ownGroup: number,
  table: ProcessTable = readProcessTable,
): Map<number, ProcessEntry[]> {
  const children = new Map<number, ProcessEntry[]>();
  for (const entry of table() ?? []) {
    if (!entry.running) continue;
    children.set(entry.ppid, [...(children.get(entry.ppid) ?? []), entry]);
  }
  const ours = procStat("self")?.pgrp;
  const groups = new Map<number, ProcessEntry[]>();
  const queue = [...(children.get(pid) ?? [])];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const group = next.pgrp;
    if (group !== ownGroup && group !== ours && group > 1) groups.set(group, [...(groups.get(group) ?? []), next]);
    queue.push(...(children.get(next.pid) ?? []));
  }
  return groups;
}

function procStat(pid: string): Omit<ProcessEntry, "pid"> | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined; // exited meanwhile, or no /proc
  }
  // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses. Only the fields needed are cut out (the
  // whole table is read each time a backend's group is looked at: no array of its 50 fields per process).
  const start = stat.lastIndexOf(")") + 2;
  const state = stat[start];
  return {
    running: state !== "Z" && state !== "X",
    ppid: Number(field(stat, start, 1)),
    pgrp: Number(field(stat, start, 2)),
    startTime: Number(field(stat, start, 19)),
  };
}

/** The `n`th space-separated field of `text` from `start` (the 0th starts there). */
function field(text: string, start: number, n: number): string {
  let from = start;
  for (let i = 0; i < n && from > 0; i++) from = text.indexOf(" ", from) + 1;
  if (from === 0) return "";
  const end = text.indexOf(" ", from);
  return text.slice(from, end === -1 ? undefined : end);
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
