import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** schemas/ ships beside dist/ in the package and the repository alike. */
export const SCHEMA_PATH = fileURLToPath(new URL("../../schemas/canonical-v1.schema.json", import.meta.url));

export function readSchemaText(): string {
  return readFileSync(SCHEMA_PATH, "utf8");
}

export function loadSchema(): Record<string, unknown> {
  return JSON.parse(readSchemaText()) as Record<string, unknown>;
}
