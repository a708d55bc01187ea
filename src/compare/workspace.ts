// Each cell's folder: a git worktree of the commit (detached, the same commit for every cell), a copy of the
// source folder, or the folder itself. They live in <out>/work/, the registry of what a compare made: whatever
// is there when a compare starts was left by one that was killed, and is removed then (its agents killed, its
// worktrees unregistered), so nothing it left outlives the next run.
import { readlinkSync } from "node:fs";
import { cp, mkdir, readdir, rm } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import type { WorkspaceMode } from "../app/compare-values.js";
import { readProcessTable, signalGroup, signalProcess, startTime } from "../run/process-group.js";
import { git, gitTop } from "./git.js";

/** What the cells' workspaces are made of: the folder the compare runs in, and its git commit where there is one. */
export interface Source {
  dir: string;
  git?: { top: string; commit: string /** `dir` inside the work tree ("" at its top). */; sub: string };
}

export interface Workspace {
  mode: WorkspaceMode;
  /** Where the agent, its setup and its check run. */
  cwd: string;
  /** What is removed at the end (absent for none). */
  root?: string;
}

export async function sourceOf(dir: string): Promise<Source> {
  const top = await gitTop(dir);
  if (top === undefined) return { dir };
  let commit: string;
  try {
    commit = (await git(["rev-parse", "--verify", "HEAD^{commit}"], { cwd: top })).trim();
  } catch {
    // A repository with no commit yet: nothing to make a worktree of.
    return { dir };
  }
  return { dir, git: { top, commit, sub: relative(top, resolve(dir)) } };
}

/** What `git status` shows besides the compare's own folder: changes a worktree of HEAD does not hold. */
export async function uncommitted(source: Source, out: string): Promise<string[]> {
  if (!source.git) return [];
  const status = await git(["status", "--porcelain", "-z"], { cwd: source.git.top });
  const outRel = relative(source.git.top, resolve(out));
  return status
    .split("\0")
    .filter((entry) => entry.length > 3)
    .map((entry) => entry.slice(3))
    .filter(
      (path) => outRel.startsWith("..") || !(`${path.replace(/\/$/, "")}/`.startsWith(`${outRel}/`) || path === outRel),
    );
}

export class Workspaces {
  /** git worktree add and remove, one at a time: each writes the repository's worktree list. */
  private gitQueue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly root: string,
    private readonly source: Source,
    private readonly out: string,
  ) {}

  /** Removes what a killed compare left in the registry: its agents and checks first, then its folders. */
  async cleanLeftovers(): Promise<string[]> {
    const left = await readdir(this.root).catch(() => [] as string[]);
    if (left.length === 0) return [];
    killProcessesIn(this.root);
    for (const name of left) {
      const path = join(this.root, name);
      if (this.source.git)
        await this.serial(() =>
          git(["worktree", "remove", "--force", path], { cwd: this.source.git!.top }).catch(() => undefined),
        );
      await rm(path, { recursive: true, force: true });
    }
    if (this.source.git)
      await this.serial(() => git(["worktree", "prune"], { cwd: this.source.git!.top }).catch(() => undefined));
    return left;
  }

  async make(cellId: string, mode: WorkspaceMode): Promise<Workspace> {
    if (mode === "none") return { mode, cwd: this.source.dir };
    await mkdir(this.root, { recursive: true });
    const root = join(this.root, cellId);
    await rm(root, { recursive: true, force: true });
    if (mode === "worktree") {
      const repo = this.source.git!;
      // What a refused try left is removed before the next.
      await this.serial(async () => {
        await rm(root, { recursive: true, force: true });
        await git(["worktree", "add", "--detach", "--quiet", root, repo.commit], { cwd: repo.top });
      });
      return { mode, cwd: join(root, repo.sub), root };
    }
    const out = resolve(this.out);
    await cp(this.source.dir, root, {
      recursive: true,
      verbatimSymlinks: true,
      // The compare's own folder is never copied into a cell.
      filter: (path) => {
        const at = resolve(path);
        return at !== out && !at.startsWith(`${out}${sep}`);
      },
    });
    return { mode, cwd: root, root };
  }

  async remove(workspace: Workspace): Promise<void> {
    if (workspace.root === undefined) return;
    const { root } = workspace;
    if (workspace.mode === "worktree")
      await this.serial(() =>
        git(["worktree", "remove", "--force", root], { cwd: this.source.git!.top }).catch(() => undefined),
      );
    await rm(root, { recursive: true, force: true });
    await rm(`${root}.git`, { recursive: true, force: true });
    await rm(`${root}.index`, { force: true });
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const retried = (): Promise<T> => withLockRetries(work);
    const next = this.gitQueue.then(retried, retried);
    this.gitQueue = next.catch(() => undefined);
    return next;
  }
}

/**
 * git refuses to write a file another git holds locked (the repository's config, its worktree list): other
 * compares of the same repository (shards run side by side on one machine) make worktrees too. Tried again.
 */
async function withLockRetries<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      // Up to about 8 s in all: a loaded machine's other git may hold the lock that long.
      if (attempt >= 16 || !/\block\b|\.lock'/i.test((err as Error).message)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 60 * attempt));
    }
  }
}

/** Kills (with their process groups) the processes whose folder is inside `root`: agents a killed compare left. */
function killProcessesIn(root: string): void {
  const table = readProcessTable();
  if (table === undefined) return;
  const ownGroup = table.find((entry) => entry.pid === process.pid)?.pgrp;
  const inside = `${resolve(root)}${sep}`;
  for (const entry of table) {
    if (!entry.running || entry.pid === process.pid) continue;
    let cwd: string;
    try {
      cwd = readlinkSync(`/proc/${entry.pid}/cwd`);
    } catch {
      continue;
    }
    if (!`${cwd}${sep}`.startsWith(inside)) continue;
    // The same process still (a pid is reused): its start time is the one the table saw.
    if (startTime(entry.pid) !== entry.startTime) continue;
    if (entry.pgrp > 1 && entry.pgrp !== ownGroup) signalGroup(entry.pgrp, "SIGKILL");
    signalProcess(entry.pid, "SIGKILL");
  }
}
