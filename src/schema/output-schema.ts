// A user's JSON Schema for the run's final answer (--output-schema): compiled with ajv once, before anything
// starts, and each answer checked against it; what a value breaks of it said as the first few failing paths.
// A schema is anyone's code, so both run in a worker thread with bounds (bounded-worker.ts): the compile
// turns the schema into ajv's standalone validator source, which the check's worker runs.
import { createRequire } from "node:module";
import type { ErrorObject } from "ajv";
import { nestingDepth } from "./json-depth.js";
import { runBounded, WORKER_HEAP_MB, type WorkBounds } from "./bounded-worker.js";
import { describeErrors } from "./validator.js";

/** An answer schema ready to check values with. */
export interface AnswerSchema {
  /** The schema, parsed. */
  schema: object;
  /** The schema as compact JSON text. */
  text: string;
  /** ajv compiles it, less its `$schema`, as draft-07 in strict mode (Claude Code's own check of --json-schema). */
  strictDraft07: boolean;
  /** Check a value (and its JSON text, which the worker reads): what it breaks of the schema, or why it could not be checked. */
  check(value: unknown, json: string, stop?: AbortSignal): Promise<SchemaVerdict>;
}

export type SchemaVerdict =
  | { valid: true }
  /** The first MAX_SHOWN_PROBLEMS failing paths, said, and how many more. */
  | { problems: string }
  /** Not checked in its bounds: why, as a sentence. */
  | { cannot: string }
  /** Stopped by the caller's signal: its reason. */
  | { stopped: unknown };

const DRAFT_2020 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;
const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
/** How many of the value's failing paths a message names; the rest are counted. */
export const MAX_SHOWN_PROBLEMS = 5;
/** A schema's compact JSON text is at most this long (UTF-16 code units: its characters, nearly). */
export const MAX_SCHEMA_CHARS = 256 * 1024;
/** Arrays and objects in a schema nest at most this deep. */
export const MAX_SCHEMA_DEPTH = 128;
/** The time compiling the schema, and each check of an answer, may take. */
export const CHECK_TIME_MS = 10_000;

// ajv is resolved (never loaded here) only when a schema is given: the workers load it from there.
const ajvPackage = (): string => createRequire(import.meta.url).resolve("ajv/package.json");

/** Compile a schema (draft 2020-12 unless its `$schema` names draft-07); rejects with an Error saying what is wrong. */
export async function compileAnswerSchema(schema: unknown, bounds: Partial<WorkBounds> = {}): Promise<AnswerSchema> {
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
  if (nestingDepth(schema, MAX_SCHEMA_DEPTH) > MAX_SCHEMA_DEPTH)
    throw new Error(`it nests deeper than ${MAX_SCHEMA_DEPTH} levels, the most agentstream compiles`);
  const text = JSON.stringify(schema);
  if (text.length > MAX_SCHEMA_CHARS)
    throw new Error(`it is ${text.length} characters of JSON: agentstream compiles at most ${MAX_SCHEMA_CHARS}`);
  const draft07 = typeof declared === "string" && DRAFT_07.test(declared);
  const compiled = await runBounded(compileInWorker, { text, draft07 }, ajvPackage(), {
    timeLimitMs: CHECK_TIME_MS,
    ...bounds,
  });
  if ("stopped" in compiled) throw new Error("its compiling was stopped");
  if ("cannot" in compiled)
    throw new Error(
      `ajv could not compile it: ${notWithin(compiled, "its $refs lead too deep (a chain of thousands)")}`,
    );
  if ("refused" in compiled.done) throw new Error(`not a schema ajv compiles: ${compiled.done.refused}`);
  const { code, strictDraft07 } = compiled.done;
  return {
    schema,
    text,
    strictDraft07,
    check: async (value, json, signal) => {
      const checked = await runBounded(checkInWorker, { code, json, shown: MAX_SHOWN_PROBLEMS }, ajvPackage(), {
        timeLimitMs: CHECK_TIME_MS,
        ...(signal ? { signal } : {}),
      });
      if ("stopped" in checked) return checked;
      if ("cannot" in checked)
        return {
          cannot: notWithin(
            checked,
            'it went too deep (a schema that refers to itself without going into the answer, as {"$ref":"#"}, never ends)',
          ),
        };
      const { errors, count } = checked.done;
      if (count === 0) return { valid: true };
      const more = count - errors.length;
      return { problems: `${describeErrors(errors, value, "the answer")}${more > 0 ? `; and ${more} more` : ""}` };
    },
  };
}

/** Why a bounded piece of work was not done, as the end of a sentence. */
function notWithin(
  result: { cannot: "time" | "memory" | "stack" | "error"; message?: string },
  tooDeep: string,
): string {
  switch (result.cannot) {
    case "time":
      return `it took longer than the bound of ${CHECK_TIME_MS / 1000} s and was stopped`;
    case "memory":
      return `it needed more than the bound of ${WORKER_HEAP_MB} MiB of memory`;
    case "stack":
      return tooDeep;
    case "error":
      return result.message ?? "it failed";
  }
}

// The two bodies below run in a worker, from their source alone: they use nothing of this module.

/** Compile with ajv into its standalone validator source; and whether Claude Code's strict draft-07 ajv takes it. */
function compileInWorker(
  input: { text: string; draft07: boolean },
  require: NodeJS.Require,
): { code: string; strictDraft07: boolean } | { refused: string } {
  type Compiler = new (options: object) => { compile(schema: object): unknown };
  const Draft07 = (require("ajv") as { Ajv: Compiler }).Ajv;
  const Validator = input.draft07 ? Draft07 : (require("ajv/dist/2020.js") as { Ajv2020: Compiler }).Ajv2020;
  const standalone = (require("ajv/dist/standalone/index.js") as { default: (ajv: object, v: unknown) => string })
    .default;
  // allErrors: every failing path, of which the message names the first few. strict off: a schema written
  // for another validator (unknown keywords, formats) still checks what ajv knows of it.
  const ajv = new Validator({ allErrors: true, strict: false, validateFormats: false, code: { source: true } });
  const schema = JSON.parse(input.text) as object;
  let validate: unknown;
  try {
    validate = ajv.compile(schema);
  } catch (err) {
    if (err instanceof RangeError) throw err;
    return { refused: (err as Error).message };
  }
  const { $schema: _dialect, ...rest } = schema as { $schema?: unknown };
  let strictDraft07 = true;
  try {
    new Draft07({ validateFormats: false, logger: false }).compile(rest);
  } catch {
    strictDraft07 = false;
  }
  return { code: standalone(ajv, validate), strictDraft07 };
}

/** Run the standalone validator on the answer's JSON text: its first few errors, and how many there are. */
function checkInWorker(
  input: { code: string; json: string; shown: number },
  require: NodeJS.Require,
): { errors: ErrorObject[]; count: number } {
  const module = { exports: {} as { default?: unknown } };
  new Function("require", "module", "exports", input.code)(require, module, module.exports);
  const validate = module.exports.default as { (value: unknown): boolean; errors?: ErrorObject[] | null };
  if (validate(JSON.parse(input.json))) return { errors: [], count: 0 };
  const errors = validate.errors ?? [];
  return { errors: errors.slice(0, input.shown), count: Math.max(errors.length, 1) };
}
