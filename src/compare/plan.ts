// The cells of a compare: tasks × agents × repeats, from the options or a plan file (JSON or YAML), each
// with an id that depends only on what shapes it, so that the same plan names the same cells on every machine.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import {
  agentProblem,
  WORKSPACE_MODES,
  type CommandSpec,
  type CompareAgent,
  type ComparePlan,
  type WorkspaceMode,
} from "../app/compare-values.js";
import { UsageError } from "../core/errors.js";
import { fileErrorReason } from "../core/file-errors.js";

/** One task as the cells run it: its prompt read, its commands and workspace decided. */
export interface Task {
  id: string;
  prompt: string;
  setup?: CommandSpec;
  check?: CommandSpec;
  workspace?: WorkspaceMode;
}

/** One run of one agent on one task. */
export interface Cell {
  id: string;
  /** Its place in the plan's order (tasks, then agents, then repeats): what shards are cut by. */
  index: number;
  task: Task;
  agent: CompareAgent;
  /** 1-based. */
  repeat: number;
}

/** What the cells are made of, from the options, a plan, or both. */
export interface CellSource {
  agents: readonly CompareAgent[];
  /** The prompt given as text (the CLI's argument, the library's prompt) or read from --prompt-file. */
  prompt?: string;
  plan?: ComparePlan | string;
  repeat?: number;
  setup?: CommandSpec;
  check?: CommandSpec;
  /** The run options that shape every cell (limits, rules, ...), as they join each cell's id. */
  shaping: Record<string, unknown>;
}

/** A plan read from its file (JSON or YAML: the YAML parser reads both); prompt_file is read relative to it. */
export function readPlan(plan: ComparePlan | string): { plan: ComparePlan; base: string } {
  if (typeof plan !== "string") return { plan, base: process.cwd() };
  let text: string;
  try {
    text = readFileSync(plan, "utf8");
  } catch (err) {
    throw new UsageError(`cannot read the plan ${plan}: ${fileErrorReason(err as NodeJS.ErrnoException)}`);
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch (err) {
    throw new UsageError(`the plan ${plan} is neither JSON nor YAML: ${(err as Error).message.split("\n")[0]}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new UsageError(`the plan ${plan}: expected an object { tasks, agents, repeat }`);
  return { plan: parsed as ComparePlan, base: dirname(resolve(plan)) };
}

/** Every cell of the compare, in the plan's order; refuses a plan that names no task or no agent. */
export function cellsOf(source: CellSource): Cell[] {
  const { plan, base } =
    source.plan === undefined ? { plan: {} as ComparePlan, base: process.cwd() } : readPlan(source.plan);
  const tasks = tasksOf(plan, base, source);
  const agents = source.agents.length > 0 ? source.agents : agentsOf(plan, base);
  if (agents.length === 0)
    throw new UsageError("no agent to compare: give --backend NAME[:MODEL] (or agents in --plan)");
  const repeat = source.repeat ?? repeatOf(plan);
  const cells: Cell[] = [];
  for (const task of tasks)
    for (const agent of agents)
      for (let r = 1; r <= repeat; r++)
        cells.push({ id: cellId(task, agent, r, source.shaping), index: cells.length, task, agent, repeat: r });
  const seen = new Set<string>();
  for (const cell of cells) {
    if (seen.has(cell.id))
      throw new UsageError(`the agent ${shownAgent(cell.agent)} is listed twice for task ${cell.task.id}`);
    seen.add(cell.id);
  }
  return cells;
}

export function shownAgent(agent: CompareAgent): string {
  return agent.model === undefined ? agent.backend : `${agent.backend}:${agent.model}`;
}

function tasksOf(plan: ComparePlan, base: string, source: CellSource): Task[] {
  const given = plan.tasks;
  if (given === undefined || given.length === 0) {
    if (source.prompt === undefined)
      throw new UsageError("no prompt: give it as the argument, --prompt-file FILE, or tasks in --plan");
    return [withDefaults({ id: "prompt", prompt: source.prompt }, source)];
  }
  if (source.prompt !== undefined) throw new UsageError("a prompt and a plan's tasks: give one or the other");
  if (!Array.isArray(given)) throw new UsageError("the plan's tasks: expected a list");
  const ids = new Set<string>();
  return given.map((task: unknown, at) => {
    const named = `the plan's task ${at + 1}`;
    if (typeof task !== "object" || task === null) throw new UsageError(`${named}: expected an object`);
    const t = task as Record<string, unknown>;
    if (typeof t.id !== "string" || !/^[\w.-]+$/.test(t.id))
      throw new UsageError(`${named}: expected an id of letters, digits, _ . - (got ${JSON.stringify(t.id)})`);
    if (ids.has(t.id)) throw new UsageError(`${named}: the id ${t.id} is taken by another task`);
    ids.add(t.id);
    const prompt = promptOf(t, base, `the plan's task ${t.id}`);
    for (const key of ["setup", "check"] as const)
      if (t[key] !== undefined && !isCommand(t[key]))
        throw new UsageError(
          `the plan's task ${t.id}: ${key}: expected a command line, a list of words or { shell: LINE }`,
        );
    if (t.workspace !== undefined && !(WORKSPACE_MODES as readonly unknown[]).includes(t.workspace))
      throw new UsageError(`the plan's task ${t.id}: workspace: expected one of ${WORKSPACE_MODES.join(", ")}`);
    return withDefaults(
      {
        id: t.id,
        prompt,
        ...(t.setup !== undefined ? { setup: t.setup as CommandSpec } : {}),
        ...(t.check !== undefined ? { check: t.check as CommandSpec } : {}),
        ...(t.workspace !== undefined ? { workspace: t.workspace as WorkspaceMode } : {}),
      },
      source,
    );
  });
}

/** --setup and --check apply to the tasks that have none of their own. */
function withDefaults(task: Task, source: CellSource): Task {
  return {
    ...task,
    ...(task.setup === undefined && source.setup !== undefined ? { setup: source.setup } : {}),
    ...(task.check === undefined && source.check !== undefined ? { check: source.check } : {}),
  };
}

function promptOf(t: Record<string, unknown>, base: string, named: string): string {
  if (typeof t.prompt === "string" && t.prompt_file === undefined) return t.prompt;
  if (typeof t.prompt_file === "string" && t.prompt === undefined) {
    const path = resolve(base, t.prompt_file);
    try {
      return readFileSync(path, "utf8").replace(/\r?\n$/, "");
    } catch (err) {
      throw new UsageError(
        `${named}: cannot read its prompt_file ${path}: ${fileErrorReason(err as NodeJS.ErrnoException)}`,
      );
    }
  }
  throw new UsageError(`${named}: expected a prompt or a prompt_file (one of them)`);
}

function isCommand(value: unknown): value is CommandSpec {
  if (typeof value === "string") return value.trim() !== "";
  if (Array.isArray(value)) return value.length > 0 && value.every((w) => typeof w === "string");
  return (
    typeof value === "object" &&
    value !== null &&
    Object.keys(value).length === 1 &&
    typeof (value as { shell?: unknown }).shell === "string"
  );
}

/** The plan's agents; a bin is found relative to the plan's folder. */
function agentsOf(plan: ComparePlan, base: string): CompareAgent[] {
  if (plan.agents === undefined) return [];
  if (!Array.isArray(plan.agents)) throw new UsageError("the plan's agents: expected a list");
  return plan.agents.map((agent: unknown, at) => {
    const problem = agentProblem(agent);
    if (problem) throw new UsageError(`the plan's agent ${at + 1}: ${problem}`);
    const { bin } = agent as CompareAgent;
    return bin?.includes("/") ? { ...(agent as CompareAgent), bin: resolve(base, bin) } : (agent as CompareAgent);
  });
}

function repeatOf(plan: ComparePlan): number {
  if (plan.repeat === undefined) return 1;
  if (!Number.isSafeInteger(plan.repeat) || plan.repeat < 1)
    throw new UsageError("the plan's repeat: expected a whole number greater than 0");
  return plan.repeat;
}

/**
 * A cell's id: a hash of what shapes it (the task's prompt, commands and workspace, the agent, the repeat, the
 * run options), never of a time or of this machine's paths (an agent's bin is left out): the same on every
 * machine, and a changed plan names new cells rather than mixing with old results.
 */
function cellId(task: Task, agent: CompareAgent, repeat: number, shaping: Record<string, unknown>): string {
  const shape = {
    v: 1,
    task,
    agent: { backend: agent.backend, model: agent.model ?? null, args: agent.args ?? [] },
    repeat,
    run: shaping,
  };
  return createHash("sha256").update(stableJson(shape)).digest("hex").slice(0, 16);
}

/** JSON with every object's keys sorted: one text for one value. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (typeof value === "object" && value !== null)
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}
