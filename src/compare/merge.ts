// Reading compare folders back: one compare's --out, or the --out folders of its shards copied together.
// Their rows come in the plan's order; a cell no folder holds is named missing, a cell two folders hold is
// refused (its shards overlapped: two runs of one cell cannot both be its result).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../core/errors.js";
import { cellDir } from "./cell.js";
import { MANIFEST, type Manifest, type ManifestCell } from "./manifest.js";
import { readRecord } from "./record.js";
import type { CompareRow } from "./row.js";

export interface Merged {
  rows: CompareRow[];
  /** The plan's cells that no folder holds a record of. */
  missing: ManifestCell[];
}

function manifestIn(dir: string): Manifest {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, MANIFEST), "utf8")) as Manifest;
  } catch (err) {
    throw new UsageError(`${dir} is not a compare's folder: no readable ${MANIFEST} (${(err as Error).message})`);
  }
  if (manifest.v !== 1 || !Array.isArray(manifest.cells))
    throw new UsageError(`${join(dir, MANIFEST)}: not a compare manifest of version 1`);
  return manifest;
}

export function mergeFolders(dirs: readonly string[]): Merged {
  if (dirs.length === 0) throw new UsageError("no compare folder to read");
  const manifests = dirs.map((dir) => ({ dir, manifest: manifestIn(dir) }));
  const first = manifests[0]!;
  for (const { dir, manifest } of manifests)
    if (manifest.plan !== first.manifest.plan)
      throw new UsageError(
        `${dir} and ${first.dir} are of different plans (their cells differ): a merge reads the shards of one compare`,
      );
  const found = new Map<string, { row: CompareRow; dir: string }>();
  for (const { dir, manifest } of manifests)
    for (const cell of manifest.cells) {
      const row = readRecord(cellDir(dir, cell.id));
      if (row === undefined) continue;
      const other = found.get(cell.id);
      if (other && other.dir !== dir)
        throw new UsageError(
          `the cell ${cell.id} (${cell.task}, ${cell.backend}) is in both ${other.dir} and ${dir}: keep one (its shards overlapped)`,
        );
      found.set(cell.id, { row, dir });
    }
  const rows: CompareRow[] = [];
  const missing: ManifestCell[] = [];
  for (const cell of first.manifest.cells) {
    const hit = found.get(cell.id);
    if (hit) rows.push(hit.row);
    else missing.push(cell);
  }
  return { rows, missing };
}

export function missingShown(cell: ManifestCell): string {
  return `${cell.id} (${cell.task}, ${cell.model === null ? cell.backend : `${cell.backend}:${cell.model}`}, repeat ${cell.repeat})`;
}
