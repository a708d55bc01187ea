import { readProcessTable, signalGroup, type ProcessEntry, type ProcessTable } from "./process-group.js";

/**
 * A process group of the backend's (its own, or one a descendant made with
 * setsid, found while the backend was stopped), signalled until nothing of it
 * is left. A group id is a pid: once the group is empty the kernel may hand that id to
 * an unrelated process, which may lead a new group of the same id. So the
 * group is known by its members (pid and start time, which no reuse repeats):
 * it is signalled only while it still holds one of them, and once it held
 * none, never again.
 */
export class TrackedGroup {
  private readonly members = new Set<string>();
  private gone = false;

  constructor(
    readonly id: number,
    found: ProcessEntry[],
    private readonly table: ProcessTable = readProcessTable,
    private readonly signalId: (pgid: number, signal: NodeJS.Signals | 0) => boolean = signalGroup,
  ) {
    this.add(found);
  }

  /** The group as it is now: its running members are taken to be the group's (there must be no time for a reuse). */
  static now(id: number, table: ProcessTable = readProcessTable): TrackedGroup {
    // No process in it at all (the kernel says so at once): not every process's stat read to find that out.
    const found = table === readProcessTable && !signalGroup(id, 0) ? [] : membersOf(id, table);
    const group = new TrackedGroup(id, found ?? [], table);
    // None running in it: gone already (alive() would read the whole process table again to say so).
    if (found?.length === 0) group.gone = true;
    return group;
  }

  /** More of its members, found among the backend's descendants; false (nothing added) once the group is gone. */
  add(found: ProcessEntry[]): boolean {
    if (this.gone) return false;
    for (const entry of found) this.members.add(identity(entry));
    return true;
  }

  /**
   * True while a process known to be of the group still runs in it. Those
   * running in it beside one are its members too (a process joins only a group
   * of its own session), so a member's child outlives its parent known.
   */
  alive(): boolean {
    if (this.gone) return false;
    const now = membersOf(this.id, this.table);
    // Without /proc nothing tells a reused id apart: whether some process has it is all there is to know.
    if (now === undefined) return this.signalId(this.id, 0);
    if (!now.some((entry) => this.members.has(identity(entry)))) {
      this.gone = true;
      return false;
    }
    for (const entry of now) this.members.add(identity(entry));
    return true;
  }

  /** Signal the group while it is still the one found; false when it is gone. */
  signal(signal: NodeJS.Signals): boolean {
    return this.alive() && this.signalId(this.id, signal);
  }
}

function membersOf(id: number, table: ProcessTable): ProcessEntry[] | undefined {
  return table()?.filter((entry) => entry.running && entry.pgrp === id);
}

function identity(entry: ProcessEntry): string {
  return `${entry.pid}:${entry.startTime}`;
}
