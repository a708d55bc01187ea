import { Ajv2020 } from "ajv/dist/2020.js";
import { loadSchema, strictSchema } from "../../src/schema/schema-files.js";

const ajv = new Ajv2020({ allErrors: true, strict: true });
const validateStrict = ajv.compile(strictSchema(loadSchema()));

/** Problems of one event against the strict schema (no undeclared fields); [] when valid. */
export function strictProblems(event: unknown): string[] {
  if (validateStrict(event)) return [];
  return (validateStrict.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}${e.params && "unevaluatedProperty" in e.params ? ` (${String(e.params.unevaluatedProperty)})` : ""}${e.params && "additionalProperty" in e.params ? ` (${String(e.params.additionalProperty)})` : ""}`);
}
