// A cell's record (<out>/cells/<id>/record.json): its row, written atomically (a temporary file renamed over
// it) once the cell has ended. A cell with a record is finished; a compare killed at any moment leaves
// either a whole record or none.
import { randomBytes } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CompareRow } from "./row.js";

export const RECORD = "record.json";

export function writeRecord(dir: string, row: CompareRow): void {
  const temp = join(dir, `.${RECORD}.${randomBytes(4).toString("hex")}.tmp`);
  writeFileSync(temp, `${JSON.stringify(row)}\n`);
  renameSync(temp, join(dir, RECORD));
}

/** The record of a cell, or undefined when it has none (never run, cut) or an unreadable one. */
export function readRecord(dir: string): CompareRow | undefined {
  try {
    const row = JSON.parse(readFileSync(join(dir, RECORD), "utf8")) as CompareRow;
    return row.v === 1 && typeof row.cell_id === "string" ? row : undefined;
  } catch {
    return undefined;
  }
}
