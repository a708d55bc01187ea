import { Ajv2020 } from "ajv/dist/2020.js";
import { loadSchema } from "../../src/schema/schema-files.js";

const ajv = new Ajv2020({ allErrors: true, strict: true });
const validateStrict = ajv.compile(strictSchema(loadSchema()));

/** Problems of one event against the strict schema (no undeclared fields); [] when valid. */
export function strictProblems(event: unknown): string[] {
  if (validateStrict(event)) return [];
  return (validateStrict.errors ?? []).map(
    (e) =>
      `${e.instancePath || "/"} ${e.message}${e.params && "unevaluatedProperty" in e.params ? ` (${String(e.params.unevaluatedProperty)})` : ""}${e.params && "additionalProperty" in e.params ? ` (${String(e.params.additionalProperty)})` : ""}`,
  );
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
  const eventDefs = new Set(
    (copy.allOf as SchemaNode[]).map((rule) =>
      String((rule.then as SchemaNode).$ref)
        .split("/")
        .pop(),
    ),
  );
  for (const value of Object.values(copy.properties as Record<string, SchemaNode>)) closeObjects(value);
  for (const [name, def] of Object.entries(copy.$defs as Record<string, SchemaNode>)) {
    if (eventDefs.has(name))
      for (const value of Object.values((def.properties ?? {}) as Record<string, SchemaNode>)) closeObjects(value);
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
