// Build step: compiles the canonical schema to standalone validation code, so
// the CLI does not load and compile the schema at every start.
//
// One validator per event type, picked by `type` at run time. The schema says
// "if type is X then payload X" once per type: compiled as one validator, every
// event goes through all those rules and an error object is made for each rule
// that does not apply. Per type, the rules amount to the envelope plus that
// type's payload, merged here into one flat object schema (one function, no
// $ref between envelope and payload); an unknown type gets the envelope alone.
// test/unit/schema/built-validator.test.ts proves the result judges events as the schema does.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { _, Ajv2020, type KeywordCxt, str } from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";
import { loadSchema } from "./schema-files.js";

interface TypeRule {
  if: { properties: { type: { const: string } } };
  then: { $ref: string };
}

interface ObjectSchema {
  type: "object";
  required: string[];
  properties: Record<string, unknown>;
  description?: string;
}

type Defs = Record<string, ObjectSchema>;

const { allOf, $defs, $id, ...envelope } = loadSchema() as unknown as {
  allOf: TypeRule[];
  $defs: Defs;
  $id: string;
  $schema: string;
} & ObjectSchema;
const idFor = (name: string): string => `${$id.replace(/\.schema\.json$/, "")}/${name}`;
// The envelope's ts and type repeat from event to event (ts for a millisecond, type among a few):
// each pattern remembers the last string it judged, so a repeat costs a comparison, not a regex
// run. Written into the generated file as it is here (the engine's `code` names it there).
function rememberingRegExp(source: string, flags: string): { test(text: string): boolean; toString(): string } {
  const pattern = new RegExp(source, flags);
  let last: string | undefined;
  let verdict = false;
  return {
    test(text: string): boolean {
      if (text !== last) {
        verdict = pattern.test(text);
        last = text;
      }
      return verdict;
    },
    // Ajv tells patterns apart by this.
    toString: () => String(pattern),
  };
}

/**
 * Ajv counts a string's length in code points (a loop over the string); minLength is compiled here to
 * count UTF-16 code units instead (the string's length, no loop; see minLengthInCodeUnits). For
 * "minLength": 1 the two agree (a string has a code point as soon as it has a code unit), and it is the
 * only length the schema sets: checked here.
 */
function onlyMinLengthOne(value: unknown): void {
  if (typeof value !== "object" || value === null) return;
  for (const [key, item] of Object.entries(value)) {
    if ((key === "minLength" && item !== 1) || key === "maxLength")
      throw new Error(`${key}: ${JSON.stringify(item)}: only "minLength": 1 is counted the same in code units`);
    onlyMinLengthOne(item);
  }
}
onlyMinLengthOne({ envelope, $defs });

const ajv = new Ajv2020({
  code: { source: true, esm: true, regExp: Object.assign(rememberingRegExp, { code: "rememberingRegExp" }) },
  allErrors: false,
  strict: true,
});
minLengthInCodeUnits();

/**
 * minLength as `data.length < limit`, with ajv's own error (keyword, params and message). Ajv's option for
 * this (`unicode: false`) is deprecated and says so on every build; a keyword of our own is not.
 */
function minLengthInCodeUnits(): void {
  ajv.removeKeyword("minLength");
  ajv.addKeyword({
    keyword: "minLength",
    type: "string",
    schemaType: "number",
    error: {
      message: ({ schemaCode }) => str`must NOT have fewer than ${schemaCode} characters`,
      params: ({ schemaCode }) => _`{limit: ${schemaCode}}`,
    },
    code: (cxt: KeywordCxt) => cxt.fail(_`${cxt.data}.length < ${cxt.schemaCode}`),
  });
}
// The shared definitions keep the schema's own $id; refs into them are made absolute below.
ajv.addSchema({ $schema: envelope.$schema, $id, $defs });
const exported: Record<string, string> = { envelope: idFor("envelope") };
ajv.addSchema({ ...envelope, $id: exported.envelope });

/** A payload definition with its "#/$defs/..." refs pointing into the schema by its $id. */
function absoluteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(absoluteRefs);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === "$ref" && typeof v === "string" && v.startsWith("#") ? `${$id}${v}` : absoluteRefs(v),
    ]),
  );
}

/** "Envelope and payload" as one object schema: both lists of required fields, both sets of properties. */
function envelopeWith(type: string, payload: ObjectSchema): object {
  const keys = Object.keys(payload);
  if (keys.some((k) => !["type", "required", "properties", "description"].includes(k)) || payload.type !== "object") {
    throw new Error(`$defs/${type}: only type, required, properties and description can be merged with the envelope`);
  }
  const properties: Record<string, unknown> = { ...envelope.properties };
  for (const [name, rule] of Object.entries(absoluteRefs(payload.properties) as Record<string, unknown>)) {
    const outer = properties[name];
    // A field both describe (session_id) must meet both rules.
    properties[name] =
      outer === undefined || JSON.stringify(outer) === JSON.stringify(rule) ? rule : { allOf: [outer, rule] };
  }
  return {
    $schema: envelope.$schema,
    $id: idFor(type),
    type: "object",
    required: [...new Set([...envelope.required, ...payload.required])],
    properties,
  };
}

const types = allOf.map((rule, i) => {
  const type = rule.if.properties.type.const;
  const def = $defs[rule.then.$ref.replace("#/$defs/", "")];
  if (!def) throw new Error(`no definition for ${rule.then.$ref}`);
  exported[`type${i}`] = idFor(type);
  ajv.addSchema(envelopeWith(type, def));
  return type;
});
const dispatch = `
const byType = new Map([${types.map((type, i) => `[${JSON.stringify(type)}, type${i}]`).join(", ")}]);
export default function validate(event) {
  const check = (event !== null && typeof event === "object" && byType.get(event.type)) || envelope;
  const valid = check(event);
  validate.errors = check.errors;
  return valid;
}
`;
// Another path as the first argument: a test builds a copy without rewriting the one the CLI loads.
const out = process.argv[2] ?? fileURLToPath(new URL("./canonical-validator.generated.js", import.meta.url));
// The standalone code still require()s a few ajv runtime helpers.
const header = [
  "// Generated by build-validators.js from schemas/canonical-v1.schema.json. Do not edit.",
  'import { createRequire } from "node:module";',
  "const require = createRequire(import.meta.url);",
  rememberingRegExp.toString(),
].join("\n");
writeFileSync(out, `${header}\n${standaloneCode.default(ajv, exported)}\n${dispatch}`);
