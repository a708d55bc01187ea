// <out>/compare.json: the plan's cells (every one, whichever shard ran this folder) and the shard this
// folder holds. Merging shards' folders checks they are of one plan, names the cells none of them has, and
// refuses a cell two of them have.
import { createHash } from "node:crypto";
import type { ShardSpec } from "../app/compare-values.js";
import type { Cell } from "./plan.js";

export const MANIFEST = "compare.json";

export interface ManifestCell {
  id: string;
  task: string;
  backend: string;
  model: string | null;
  repeat: number;
}

export interface Manifest {
  v: 1;
  /** A hash of the plan's cell ids in order: one plan, one value, on every machine. */
  plan: string;
  shard: ShardSpec | null;
  cells: ManifestCell[];
}

export function manifestOf(cells: readonly Cell[], shard: ShardSpec | undefined): Manifest {
  return {
    v: 1,
    plan: createHash("sha256")
      .update(cells.map((cell) => cell.id).join("\n"))
      .digest("hex")
      .slice(0, 16),
    shard: shard ?? null,
    cells: cells.map((cell) => ({
      id: cell.id,
      task: cell.task.id,
      backend: cell.agent.backend,
      model: cell.agent.model ?? null,
      repeat: cell.repeat,
    })),
  };
}

/** Shard i of n holds every n-th cell of the plan's order, from the i-th: a fixed partition, even in size. */
export function shardCells<T extends { index: number }>(cells: readonly T[], shard: ShardSpec | undefined): T[] {
  return shard === undefined ? [...cells] : cells.filter((cell) => cell.index % shard.total === shard.index - 1);
}
