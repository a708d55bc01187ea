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

/**
 * The strict variant used by the test suite: the same contract, but no
 * undeclared field anywhere, so the code never emits undocumented keys.
 */
export function strictSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(schema) as SchemaNode;
  copy.$id = String(schema.$id).replace(/\.schema\.json$/, ".strict.schema.json");
  // Envelope and payload are checked together: the payload's fields count as evaluated.
  copy.unevaluatedProperties = false;
  const eventDefs = new Set((copy.allOf as SchemaNode[]).map((rule) => String((rule.then as SchemaNode).$ref).split("/").pop()));
  for (const value of Object.values(copy.properties as Record<string, SchemaNode>)) closeObjects(value);
  for (const [name, def] of Object.entries(copy.$defs as Record<string, SchemaNode>)) {
    if (eventDefs.has(name)) for (const value of Object.values((def.properties ?? {}) as Record<string, SchemaNode>)) closeObjects(value);
    else closeObjects(def);
  }
  return copy;
}

type SchemaNode = Record<string, unknown>;

/** Every object schema that lists its properties allows no others. */
function closeObjects(node: SchemaNode): void {
  if (node.properties) {
    node.additionalProperties ??= false;
    for (const value of Object.values(node.properties as Record<string, SchemaNode>)) closeObjects(value);
  }
  if (node.items && typeof node.items === "object") closeObjects(node.items as SchemaNode);
  for (const key of ["oneOf", "anyOf", "allOf"]) {
    const list = node[key];
    if (Array.isArray(list)) for (const sub of list as SchemaNode[]) closeObjects(sub);
  }
}
