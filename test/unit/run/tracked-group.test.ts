// A process group is known by its members (pid and start time), not by its id
// alone: once the group is empty the kernel may give the id to an unrelated
// process leading a group of its own, which must never be signalled. The
// process table is injected, so a pid reuse is played exactly.
import { describe, expect, it } from "vitest";
import { escapedGroups, type ProcessEntry } from "../../../src/run/process-group.js";
import { TrackedGroup } from "../../../src/run/tracked-group.js";

const proc = (pid: number, ppid: number, pgrp: number, startTime: number): ProcessEntry => ({
  pid,
  ppid,
  pgrp,
  startTime,
  running: true,
});

/** A table the test changes as it goes, and the signals sent to group ids. */
function world(initial: ProcessEntry[] | undefined) {
  let table: ProcessEntry[] | undefined = initial;
  const sent: string[] = [];
  return {
    set: (next: ProcessEntry[] | undefined) => void (table = next),
    table: () => table,
    sent,
    signal: (pgid: number, signal: NodeJS.Signals | 0) => {
      sent.push(`${pgid} ${signal}`);
      return true;
    },
  };
}

describe("TrackedGroup", () => {
  it("an id freed and taken by an unrelated process's new group is not signalled, then or ever after", () => {
    const escapee = proc(500, 1, 500, 1000);
    const w = world([escapee]);
    const group = new TrackedGroup(500, [escapee], w.table, w.signal);
    expect(group.signal("SIGTERM")).toBe(true);
    expect(w.sent).toEqual(["500 SIGTERM"]);
    // The escapee died; pid 500 went to another process, which leads a group 500 of its own.
    w.set([proc(500, 77, 500, 9000)]);
    expect(group.alive()).toBe(false);
    expect(group.signal("SIGKILL")).toBe(false);
    // Even should one of the old identities seem back, the id is not the group's any more.
    w.set([escapee]);
    expect(group.signal("SIGKILL")).toBe(false);
    expect(w.sent).toEqual(["500 SIGTERM"]);
  });

  it("a member's child that outlives its parent keeps the group known and signalled", () => {
    const leader = proc(500, 1, 500, 1000);
    const w = world([leader]);
    const group = new TrackedGroup(500, [leader], w.table, w.signal);
    w.set([leader, proc(501, 500, 500, 1100)]);
    expect(group.alive()).toBe(true);
    w.set([proc(501, 1, 500, 1100)]);
    expect(group.signal("SIGKILL")).toBe(true);
    expect(w.sent).toEqual(["500 SIGKILL"]);
  });

  it("a zombie member does not count: the group is gone", () => {
    const w = world([{ ...proc(500, 1, 500, 1000), running: false }]);
    const group = new TrackedGroup(500, [proc(500, 1, 500, 1000)], w.table, w.signal);
    expect(group.signal("SIGTERM")).toBe(false);
    expect(w.sent).toEqual([]);
  });

  it("without a process table (no /proc), whether any process has the id is all it asks", () => {
    const w = world(undefined);
    const group = new TrackedGroup(500, [], w.table, w.signal);
    expect(group.signal("SIGTERM")).toBe(true);
    expect(w.sent).toEqual(["500 0", "500 SIGTERM"]);
  });

  it("escapedGroups names each group a descendant made with the descendants found in it", () => {
    const table = [
      proc(100, 1, 100, 1),
      proc(101, 100, 100, 2),
      proc(102, 101, 102, 3),
      proc(103, 102, 102, 4),
      proc(104, 100, 104, 5),
      proc(200, 1, 200, 6),
    ];
    expect(escapedGroups(100, 100, () => table)).toEqual(
      new Map([
        [104, [table[4]]],
        [102, [table[2], table[3]]],
      ]),
    );
  });
});
