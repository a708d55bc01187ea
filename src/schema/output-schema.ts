// A user's JSON Schema for the run's final answer (--output-schema): compiled
// with ajv once, before anything starts; what a value breaks of it said as the
// first few failing paths.
import { createRequire } from "node:module";
import type { Ajv } from "ajv";
import type { ErrorObject, Options } from "ajv";
import { describeErrors } from "./validator.js";

// ajv is loaded only when a schema is given: at every start-up it would cost ~50 ms (the canonical
// validator is compiled at build time and needs none of it).
const require = createRequire(import.meta.url);
type AjvClass = new (options: Options) => Ajv;
const ajvDraft07 = (): AjvClass => (require("ajv") as { Ajv: AjvClass }).Ajv;
const ajvDraft2020 = (): AjvClass => (require("ajv/dist/2020.js") as { Ajv2020: AjvClass }).Ajv2020;

/** An answer schema ready to check values with. */
export interface AnswerSchema {
  /** The schema, parsed. */
  schema: object;
  /** The schema as compact JSON text. */
  text: string;
  /** What the value breaks of the schema, the first MAX_SHOWN_PROBLEMS failing paths; undefined when it matches. */
  problems(value: unknown): string | undefined;
}

const DRAFT_2020 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;
const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
/** How many of the value's failing paths a message names; the rest are counted. */
export const MAX_SHOWN_PROBLEMS = 5;

/** Compile a schema (draft 2020-12 unless its `$schema` names draft-07); throws an Error saying what is wrong. */
export function compileAnswerSchema(schema: unknown): AnswerSchema {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    throw new Error(`a JSON Schema is an object, not ${Array.isArray(schema) ? "an array" : JSON.stringify(schema)}`);
  const declared = (schema as { $schema?: unknown }).$schema;
  if (
    declared !== undefined &&
    (typeof declared !== "string" || !(DRAFT_2020.test(declared) || DRAFT_07.test(declared)))
  )
    throw new Error(
      `its $schema ${JSON.stringify(declared)} is not one agentstream reads: draft 2020-12 (https://json-schema.org/draft/2020-12/schema) or draft-07 (http://json-schema.org/draft-07/schema#)`,
    );
  // allErrors: every failing path, of which the message names the first few. strict off: a schema written
  // for another validator (unknown keywords, formats) still checks what ajv knows of it.
  const options = { allErrors: true, strict: false, validateFormats: false };
  const Validator = typeof declared === "string" && DRAFT_07.test(declared) ? ajvDraft07() : ajvDraft2020();
  const ajv = new Validator(options);
  let validate: ReturnType<Ajv["compile"]>;
  try {
    validate = ajv.compile(schema);
  } catch (err) {
    throw new Error(`not a schema ajv compiles: ${(err as Error).message}`);
  }
  return {
    schema,
    text: JSON.stringify(schema),
    problems: (value) => (validate(value) ? undefined : firstProblems(validate.errors ?? [], value)),
  };
}

function firstProblems(errors: ErrorObject[], value: unknown): string {
  const shown = errors.slice(0, MAX_SHOWN_PROBLEMS);
  const more = errors.length - shown.length;
  return `${describeErrors(shown, value, "the answer")}${more > 0 ? `; and ${more} more` : ""}`;
}

/** Whether ajv compiles the schema as draft-07 in strict mode (Claude Code's own check of --json-schema). */
export function compilesAsStrictDraft07(schema: object): boolean {
  try {
    new (ajvDraft07())({ validateFormats: false, logger: false }).compile(schema);
    return true;
  } catch {
    return false;
  }
}
