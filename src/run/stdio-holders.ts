import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { startTime } from "./process-group.js";

/** How to recognise what still holds the backend's stdout and stderr. */
export interface StdioIdentities {
  /** As the kernel names them ("socket:[4026]"). */
  names: string[];
  /**
   * Set when the names were told from our own ends, the backend being gone
   * before it could be asked: the backend's start time (clock ticks since
   * boot). A holder must then have started since, and hold one as its stdout
   * or stderr, as a process the backend started does.
   */
  inferredSince?: number;
}

/**
 * What the backend's stdout and stderr are: read from the backend right after
 * the spawn. A backend can be done before that (a busy machine may run a short
 * script to its end before spawn() returns), its files closed: then they are
 * told from our own ends of the same pipes (`ourEnds`, our file descriptors).
 * No names where there is no /proc.
 */
export function stdioIdentities(pid: number, ourEnds: readonly (number | undefined)[]): StdioIdentities {
  const asked = fileNames(String(pid), ["1", "2"]);
  if (asked.length === 2) return { names: asked };
  const since = startTime(pid);
  const inferred = ourEnds.map(peerOf);
  if (since === undefined || inferred.some((name) => name === undefined)) return { names: asked };
  return { names: inferred as string[], inferredSince: since };
}

/**
 * The child's end of a pipe node made for it, from our end: libuv makes each
 * one with socketpair(), keeps the first socket and hands the child the
 * second, which the kernel numbers next (nearly always: hence the extra
 * checks on holders of an inferred name).
 */
function peerOf(ourFd: number | undefined): string | undefined {
  if (ourFd === undefined) return undefined;
  const inode = /^socket:\[(\d+)\]$/.exec(fileNames("self", [String(ourFd)])[0] ?? "")?.[1];
  return inode === undefined ? undefined : `socket:[${Number(inode) + 1}]`;
}

/**
 * Whether anything may still hold one of these open. Cheap, where looking
 * through every process is not: a socket nobody holds any more is gone from
 * /proc/net/unix. True when it cannot tell.
 */
export function possiblyHeld(identities: StdioIdentities): boolean {
  const inodes = identities.names.map((id) => /^socket:\[(\d+)\]$/.exec(id)?.[1]);
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
export function processesHolding(identities: StdioIdentities): number[] {
  if (identities.names.length === 0) return [];
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const holders: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    if (holds(entry, identities)) holders.push(Number(entry));
  }
  return holders;
}

function holds(pid: string, identities: StdioIdentities): boolean {
  if (identities.inferredSince === undefined) return openFiles(pid).some((file) => identities.names.includes(file));
  if (!fileNames(pid, ["1", "2"]).some((file) => identities.names.includes(file))) return false;
  return (startTime(Number(pid)) ?? -1) >= identities.inferredSince;
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
