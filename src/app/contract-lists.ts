// Build step: each list the contract holds is written once (src/canonical/events.ts, the backend
// registry); the published schemas hold copies of them as enums. `npm run build` runs this to check
// that every copy is the list byte for byte (the whole schema file as this writes it), and
// `npm run schemas` writes them. Not part of the package (`files` leaves it out).
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  ANSWERED_BY,
  COMPACTION_REASONS,
  COST_SOURCES,
  DETECTIONS,
  ERROR_CODES,
  EXIT_CODES,
  RUN_STATUSES,
  TOOL_STATUSES,
} from "../canonical/events.js";
import { BACKEND_NAMES } from "../backends/registry.js";

type Schema = "canonical-v1" | "report-v1" | "compare-row-v1";

/** Where a list stands in a schema: its file and the path of the object whose `enum` it is. */
interface ListCopy {
  schema: Schema;
  path: string[];
  values: readonly (string | number | null)[];
}

const RUN_FINISHED = ["$defs", "run.finished", "properties"];

export const LIST_COPIES: readonly ListCopy[] = [
  { schema: "canonical-v1", path: ["properties", "backend"], values: BACKEND_NAMES },
  { schema: "canonical-v1", path: ["$defs", "error_code"], values: ERROR_CODES },
  { schema: "report-v1", path: ["$defs", "error_code"], values: ERROR_CODES },
  { schema: "canonical-v1", path: ["$defs", "tool_status"], values: TOOL_STATUSES },
  { schema: "report-v1", path: ["$defs", "tool_status"], values: TOOL_STATUSES },
  { schema: "canonical-v1", path: ["$defs", "compaction_reason"], values: COMPACTION_REASONS },
  { schema: "canonical-v1", path: ["$defs", "run.started", "properties", "detection"], values: DETECTIONS },
  { schema: "canonical-v1", path: ["$defs", "input.answered", "properties", "by"], values: ANSWERED_BY },
  { schema: "canonical-v1", path: [...RUN_FINISHED, "status"], values: RUN_STATUSES },
  // A report also knows a run whose stream ended before run.finished.
  { schema: "report-v1", path: ["$defs", "status"], values: [...RUN_STATUSES, "incomplete"] },
  { schema: "canonical-v1", path: [...RUN_FINISHED, "exit_code"], values: EXIT_CODES },
  { schema: "canonical-v1", path: [...RUN_FINISHED, "usage", "properties", "cost_source"], values: COST_SOURCES },
  { schema: "report-v1", path: ["$defs", "usage", "properties", "cost_source"], values: COST_SOURCES },
  {
    schema: "canonical-v1",
    path: ["$defs", "usage", "properties", "cost_source"],
    values: COST_SOURCES.filter((s) => s !== "mixed"),
  },
  { schema: "compare-row-v1", path: ["properties", "backend"], values: BACKEND_NAMES },
  // A compare's cell that was not started has no run status.
  { schema: "compare-row-v1", path: ["properties", "status"], values: [...RUN_STATUSES, "not_run"] },
  { schema: "compare-row-v1", path: ["properties", "cost_source"], values: [...COST_SOURCES, null] },
];

const fileOf = (schema: Schema): string =>
  fileURLToPath(new URL(`../../schemas/${schema}.schema.json`, import.meta.url));

/** The schema's text as it must be: its own, with every list copy set from its list, as JSON with 2 spaces. */
export function schemaWithLists(schema: Schema, text: string): string {
  const document = JSON.parse(text) as Record<string, unknown>;
  for (const copy of LIST_COPIES.filter((c) => c.schema === schema)) {
    let node: unknown = document;
    for (const key of copy.path) node = (node as Record<string, unknown> | undefined)?.[key];
    if (typeof node !== "object" || node === null || !("enum" in node))
      throw new Error(`schemas/${schema}.schema.json has no enum at ${copy.path.join("/")}`);
    (node as { enum: unknown }).enum = [...copy.values];
  }
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** The schemas whose file differs from what the lists make of it. */
export function schemasOutOfStep(): Schema[] {
  const schemas: Schema[] = ["canonical-v1", "report-v1", "compare-row-v1"];
  return schemas.filter((schema) => {
    const text = readFileSync(fileOf(schema), "utf8");
    return schemaWithLists(schema, text) !== text;
  });
}

function main(write: boolean): void {
  for (const schema of schemasOutOfStep()) {
    const file = fileOf(schema);
    if (write) {
      writeFileSync(file, schemaWithLists(schema, readFileSync(file, "utf8")));
      console.log(`schemas: wrote schemas/${schema}.schema.json`);
      continue;
    }
    console.error(
      `schemas/${schema}.schema.json is out of step with the contract's lists (src/canonical/events.ts, the backend registry): run \`npm run schemas\` and review the diff`,
    );
    process.exitCode = 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href)
  main(process.argv.includes("--write"));
