// A compare's options, from the CLI or the library: its own (the table's compare rows) and the run options
// every cell takes. What cannot apply across cells is refused here, before any cell starts, and each agent's
// run options are planned once, so that a backend that lacks one is refused as `run` refuses it.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import type { CompareAgent, ShardSpec, WorkspaceMode } from "../app/compare-values.js";
import { part, rowsOf, type Request, type RunRequest } from "../app/request.js";
import { OptionError, UsageError } from "../core/errors.js";
import type { StopWatch } from "../run/stop-signals.js";
import { shardCells } from "./manifest.js";
import { cellsOf, shownAgent, type Cell } from "./plan.js";
import { planCellRun } from "./run-cell.js";
import type { Source } from "./workspace.js";

export type CompareRequest = Request<"compare">;

/** Why the shard could not be read from the CI's variables, or the shard they name. */
export function shardFromEnv(env: NodeJS.ProcessEnv): ShardSpec {
  const whole = (name: string): number | undefined => {
    const text = env[name];
    return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
  };
  const gitlab = { index: whole("CI_NODE_INDEX"), total: whole("CI_NODE_TOTAL") };
  if (gitlab.index !== undefined && gitlab.total !== undefined)
    return checkedShard(gitlab.index, gitlab.total, "CI_NODE_INDEX/CI_NODE_TOTAL");
  const k8s = whole("JOB_COMPLETION_INDEX");
  if (k8s !== undefined) {
    const total = whole("AGENTSTREAM_SHARD_TOTAL");
    if (total === undefined)
      throw new OptionError(
        (name) =>
          `${name("shard")} auto: JOB_COMPLETION_INDEX is set, but not AGENTSTREAM_SHARD_TOTAL (the Job's completions)`,
      );
    // A Kubernetes Indexed Job counts from 0.
    return checkedShard(k8s + 1, total, "JOB_COMPLETION_INDEX + 1/AGENTSTREAM_SHARD_TOTAL");
  }
  throw new OptionError(
    (name) =>
      `${name("shard")} auto: no CI variables name a shard (GitLab's CI_NODE_INDEX and CI_NODE_TOTAL, or a Kubernetes Indexed Job's JOB_COMPLETION_INDEX with AGENTSTREAM_SHARD_TOTAL)`,
  );
}

function checkedShard(index: number, total: number, from: string): ShardSpec {
  if (index < 1 || index > total)
    throw new OptionError(
      (name) => `${name("shard")} auto: ${from} gives ${index}/${total}, not a shard from 1 to ${total}`,
    );
  return { index, total };
}

/**
 * The run options that shape every cell, as its id hashes them: what runs and how, not where on this machine
 * (no executable, folder, environment or callback); an output schema by its content.
 */
function shapingOf(request: RunRequest): Record<string, unknown> {
  const local = new Set([
    "bin",
    "cwd",
    "promptFile",
    "env",
    "backend",
    "prompt",
    "continueFrom",
    "resume",
    "onPermissionRequest",
  ]);
  const shaping: Record<string, unknown> = {};
  for (const lifetime of ["agent", "limits", "timing", "translation"] as const)
    for (const [key, value] of Object.entries(part("run", request, lifetime)))
      if (!local.has(key) && typeof value !== "function" && value !== undefined) shaping[key] = value;
  if (typeof request.outputSchema === "string") {
    let text = "";
    try {
      text = readFileSync(request.outputSchema, "utf8");
    } catch {
      // Unreadable: refused when the cells are planned, with the run's own words.
    }
    shaping.outputSchema = { sha256: createHash("sha256").update(text).digest("hex") };
  }
  return shaping;
}

export interface PlannedCompare {
  cells: Cell[];
  mine: Cell[];
  shard: ShardSpec | undefined;
  parallel: number;
  workspace: WorkspaceMode;
  /** What the user is told before the cells start (a dirty work tree, cells run one at a time). */
  notes: string[];
}

/** The cells and how they run, every refusal said before any starts. */
export async function planCompare(
  own: CompareRequest,
  request: RunRequest,
  prompt: string | undefined,
  source: Source,
  env: NodeJS.ProcessEnv,
  stops?: StopWatch,
): Promise<PlannedCompare> {
  // What only one run can take (its row says why): refused, as compare's --help does not offer it.
  for (const row of rowsOf("run")) {
    const value = (request as Record<string, unknown>)[row.key];
    if (row.oneRun !== undefined && value !== undefined && value !== false) {
      const reason = row.oneRun;
      throw new OptionError((name) => `${name(row.key)} ${reason}`);
    }
  }
  const cells = cellsOf({
    agents: own.agents,
    ...(prompt !== undefined ? { prompt } : {}),
    ...(own.plan !== undefined ? { plan: own.plan } : {}),
    ...(own.repeat !== undefined ? { repeat: own.repeat } : {}),
    ...(own.setup !== undefined ? { setup: own.setup } : {}),
    ...(own.check !== undefined ? { check: own.check } : {}),
    shaping: shapingOf(request),
  });
  const shard = own.shard === "auto" ? shardFromEnv(env) : own.shard;
  const mine = shardCells(cells, shard);
  const notes: string[] = [];
  const workspace = own.workspace ?? (source.git ? "worktree" : "copy");
  if (workspace === "worktree" && !source.git)
    throw new OptionError(
      (name) => `${name("workspace")} worktree: ${source.dir} is in no git repository with a commit (use copy or none)`,
    );
  for (const cell of cells)
    if (cell.task.workspace === "worktree" && !source.git)
      throw new UsageError(
        `the plan's task ${cell.task.id}: workspace worktree: ${source.dir} is in no git repository with a commit`,
      );
  let parallel = own.parallel ?? Math.max(1, availableParallelism());
  const shared = mine.some((cell) => (cell.task.workspace ?? workspace) === "none");
  if (shared && parallel > 1 && mine.length > 1) {
    parallel = 1;
    notes.push("workspace none: the cells share one folder, so they run one at a time");
  }
  if (request.approvals === "ask" && parallel > 1 && mine.length > 1)
    throw new OptionError(
      (name) =>
        `${name("approvals")} ask asks one person on this terminal: with more than one cell at once the questions would mix (give ${name("parallel")} 1)`,
    );
  await checkAgents(cells, request, stops);
  return { cells, mine, shard, parallel, workspace, notes };
}

/** Each agent's options planned as its run would plan them: a backend that lacks one is refused now. */
async function checkAgents(cells: readonly Cell[], request: RunRequest, stops?: StopWatch): Promise<void> {
  const seen = new Set<string>();
  for (const cell of cells) {
    const key = JSON.stringify(cell.agent);
    if (seen.has(key)) continue;
    seen.add(key);
    const agentRequest: RunRequest = {
      ...request,
      backend: cell.agent.backend as RunRequest["backend"],
      backendArgs: [...request.backendArgs, ...(cell.agent.args ?? [])],
      ...(cell.agent.model !== undefined ? { model: cell.agent.model } : {}),
      ...(cell.agent.bin !== undefined ? { bin: cell.agent.bin } : {}),
    };
    try {
      await planCellRun(agentRequest, cell.task.prompt, stops);
    } catch (err) {
      if (err instanceof OptionError) throw new AgentRefusal(cell.agent, err);
      throw err;
    }
  }
}

/** A refusal of one agent's options: said with the agent it is about. */
export class AgentRefusal extends OptionError {
  constructor(agent: CompareAgent, err: OptionError) {
    super(
      (name) => `${shownAgent(agent)}: ${err.wordedAs(name).message}`,
      err.hint === undefined ? undefined : (name) => err.wordedAs(name).hint ?? "",
    );
  }
}
