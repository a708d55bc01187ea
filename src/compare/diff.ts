// A cell's diff: what its agent changed in its workspace, new files included, as a patch (redacted line by
// line with the run's redactor) and a stat. The workspace is snapshot as a git tree before the agent (after
// its setup) and after it, through an index of its own outside the workspace: the agent's git index and
// history are never touched, and .gitignore is honoured. A copy gets a bare repository beside it for this.
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import type { Redactor } from "../core/redactor.js";
import { git } from "./git.js";
import type { Workspace } from "./workspace.js";

export interface DiffStat {
  files: number;
  added: number;
  removed: number;
}

/** How git is pointed at a workspace for its snapshots. */
interface Snapshots {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

async function snapshots(workspace: Workspace): Promise<Snapshots | undefined> {
  if (workspace.root === undefined) return undefined;
  const index = `${workspace.root}.index`;
  if (workspace.mode === "worktree") return { cwd: workspace.root, env: { ...process.env, GIT_INDEX_FILE: index } };
  const gitDir = `${workspace.root}.git`;
  await git(["init", "--bare", "--quiet", gitDir], { cwd: workspace.root });
  return {
    cwd: workspace.root,
    env: { ...process.env, GIT_DIR: gitDir, GIT_WORK_TREE: workspace.root, GIT_INDEX_FILE: index },
  };
}

/** The workspace as a git tree: every file git would add (.gitignore honoured). */
async function tree(at: Snapshots): Promise<string> {
  await git(["add", "--all", "--", "."], { ...at });
  return (await git(["write-tree"], { ...at })).trim();
}

export interface Before {
  at: Snapshots;
  tree: string;
}

/** The workspace before the agent; undefined where no diff is kept (--workspace none). */
export async function before(workspace: Workspace): Promise<Before | undefined> {
  const at = await snapshots(workspace);
  return at && { at, tree: await tree(at) };
}

/** The patch since `before` written to `file`; its stat. */
export async function diffSince(base: Before, file: string, redactor: Redactor): Promise<DiffStat> {
  const after = await tree(base.at);
  const out = createWriteStream(file);
  let tail = "";
  await git(["diff", "--binary", "--no-color", "--no-ext-diff", "--no-renames", base.tree, after], {
    ...base.at,
    onStdout: (chunk) => {
      const text = tail + chunk.toString("utf8");
      const cut = text.lastIndexOf("\n") + 1;
      tail = text.slice(cut);
      if (cut > 0) out.write(redactor.text(text.slice(0, cut)));
    },
  });
  if (tail !== "") out.write(redactor.text(tail));
  out.end();
  await once(out, "close");
  const numstat = await git(["diff", "--numstat", "--no-renames", base.tree, after], { ...base.at });
  const stat = { files: 0, added: 0, removed: 0 };
  for (const line of numstat.split("\n")) {
    const [added, removed] = line.split("\t");
    if (added === undefined || removed === undefined) continue;
    stat.files++;
    // A binary file counts as changed, with no lines.
    stat.added += Number(added) || 0;
    stat.removed += Number(removed) || 0;
  }
  return stat;
}
