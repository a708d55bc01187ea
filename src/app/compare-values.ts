// The values of compare's own options (its rows of src/app/options.ts): the agents, the shard, the plan.
import { BACKEND_NAMES } from "../backends/registry.js";
import { checkOf, type Check } from "./option-values.js";

/** One agent of a compare: a backend, optionally its model, its own arguments and executable. */
export interface CompareAgent {
  backend: string;
  model?: string;
  args?: readonly string[];
  bin?: string;
}

/** Which cells this process runs: shard `index` (1-based) of `total`. */
export interface ShardSpec {
  index: number;
  total: number;
}

/** `--backend claude:sonnet,codex`: each value of the list a backend, a colon, a model (the model may hold colons). */
export function agentsOf(text: string): CompareAgent[] {
  return text.split(",").map((item) => {
    const colon = item.indexOf(":");
    const backend = colon === -1 ? item : item.slice(0, colon);
    const model = colon === -1 ? undefined : item.slice(colon + 1);
    if (!(BACKEND_NAMES as readonly string[]).includes(backend))
      throw new Error(`expected NAME[:MODEL], NAME one of ${BACKEND_NAMES.join(", ")}; got ${JSON.stringify(item)}.`);
    if (model === "") throw new Error(`a model after ${backend}: is empty; got ${JSON.stringify(item)}.`);
    return model === undefined ? { backend } : { backend, model };
  });
}

/** The repeatable --backend: each value's agents join the list. */
export const collectAgents = (text: string, previous: unknown): CompareAgent[] => [
  ...(previous as CompareAgent[]),
  ...agentsOf(text),
];

/** What is wrong with one agent of the library's list, or undefined. */
export function agentProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return "expected an agent { backend, model?, args?, bin? }";
  const { backend, model, args, bin } = value as Record<string, unknown>;
  if (!(BACKEND_NAMES as readonly unknown[]).includes(backend))
    return `expected an agent whose backend is one of ${BACKEND_NAMES.join(", ")}`;
  if (model !== undefined && (typeof model !== "string" || model === "")) return "expected a model name (a string)";
  if (args !== undefined && !(Array.isArray(args) && args.every((a) => typeof a === "string")))
    return "expected args as an array of strings";
  if (bin !== undefined && (typeof bin !== "string" || bin === "")) return "expected bin as a path (a string)";
  return undefined;
}

export const agentsCheck: Check<readonly CompareAgent[]> = checkOf((v) =>
  Array.isArray(v) ? v.map(agentProblem).find((p) => p !== undefined) : "expected an array of agents",
);

/** `--shard 2/3`, or `--shard auto` (the CI's own variables, read when the compare starts). */
export function parseShard(text: string): ShardSpec | "auto" {
  if (text === "auto") return "auto";
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const shard = match ? { index: Number(match[1]), total: Number(match[2]) } : undefined;
  if (shard === undefined || shardProblem(shard) !== undefined)
    throw new Error("expected I/N with 1 <= I <= N (e.g. 2/3), or auto.");
  return shard;
}

function shardProblem(v: unknown): string | undefined {
  if (v === "auto") return undefined;
  const { index, total } = (v ?? {}) as Record<string, unknown>;
  return Number.isSafeInteger(index) && Number.isSafeInteger(total) && (index as number) >= 1 && index! <= total!
    ? undefined
    : 'expected { index, total } with 1 <= index <= total, or "auto"';
}

export const shardCheck: Check<ShardSpec | "auto"> = checkOf(shardProblem);

/** How a cell's workspace is made: a git worktree of the commit, a copy of the folder, or the folder itself. */
export const WORKSPACE_MODES = ["worktree", "copy", "none"] as const;
export type WorkspaceMode = (typeof WORKSPACE_MODES)[number];

/**
 * A setup or check command: a command line split into words and run without a shell ("npm test",
 * 'sh -c "make && make test"'), its words, or `{ shell }`: a line given to sh -c.
 */
export type CommandSpec = string | readonly string[] | { readonly shell: string };

/** One task of a plan: what the agents are asked, and how its cells are set up and checked. */
export interface PlanTask {
  id: string;
  prompt?: string;
  /** A file holding the prompt, relative to the plan file. */
  prompt_file?: string;
  setup?: CommandSpec;
  check?: CommandSpec;
  workspace?: WorkspaceMode;
}

/** A plan (--plan FILE, JSON or YAML; the library's `plan`): tasks × agents × repeats. */
export interface ComparePlan {
  tasks?: readonly PlanTask[];
  agents?: readonly CompareAgent[];
  repeat?: number;
}

export const planCheck: Check<ComparePlan | string> = checkOf((v) =>
  (typeof v === "string" && v !== "") || (typeof v === "object" && v !== null && !Array.isArray(v))
    ? undefined
    : "expected a plan { tasks, agents, repeat } or the path of a JSON or YAML file",
);
