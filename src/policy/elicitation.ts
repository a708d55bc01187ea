// An ACP form elicitation (`elicitation/create`, mode "form"): the agent's question, read once, bounded, by the
// translation (input.requested of kind question) and the driver (what the answer must fit) alike. A form is
// the agent's text: a flat object of ACP's field types (string, number, integer, boolean, a single choice as a
// string enum or oneOf, several choices as an array of enum or anyOf). Anything else, or more than the bounds
// below, is refused whole (never half read): the reason is said, the agent answered an error.
import { clip } from "../core/clip.js";
import { isObject, nonEmpty, objectOrEmpty } from "../core/fields.js";
import type { InputQuestion } from "../canonical/events.js";

/** A field's type as input.requested names it. */
export type FieldType = "text" | "number" | "integer" | "boolean" | "choice" | "choices";

export interface FormChoice {
  value: string;
  title: string;
}

export interface FormField {
  /** The property's name: the answer's key. */
  id: string;
  type: FieldType;
  /** What is asked: the field's description, else its title, else its id. */
  question: string;
  /** Its title, where it has one beside a description. */
  title?: string;
  choices?: FormChoice[];
  required: boolean;
}

export interface Form {
  message: string;
  toolCallId?: string;
  fields: FormField[];
  /** What an answer must fit: the form's fields as a JSON Schema (only ACP's keywords kept), no other key. */
  schema: Record<string, unknown>;
}

/** The most fields a form may hold. */
export const MAX_FIELDS = 64;
/** The most choices one field may offer. */
export const MAX_CHOICES = 256;
/** The longest field name (an answer's key) read. */
export const MAX_FIELD_ID = 256;
/** The longest pattern a text field may give (it is compiled, and run on answers in a bounded worker). */
export const MAX_PATTERN = 1024;
/** What input.requested keeps of a form's text (its message, a question, a choice), each: longer is cut, said. */
export const MAX_SHOWN_TEXT = 4000;

export type FormReading = { form: Form } | { refused: string };

/** The form of an elicitation/create request's params, or why agentstream does not read it. */
export function readForm(params: unknown): FormReading {
  const p = objectOrEmpty(params);
  if (p.mode !== "form")
    return {
      refused:
        p.mode === "url"
          ? "a URL elicitation, which agentstream does not declare (it would send a person to a browser)"
          : `an elicitation of mode ${JSON.stringify(clip(String(p.mode), 40))}: agentstream declares form elicitation only`,
    };
  const schema = p.requestedSchema;
  if (!isObject(schema)) return { refused: "its requestedSchema is not an object" };
  if (schema.type !== undefined && schema.type !== "object")
    return { refused: "its requestedSchema is not of type object" };
  const properties = schema.properties ?? {};
  if (!isObject(properties)) return { refused: "its requestedSchema's properties is not an object" };
  const names = Object.keys(properties);
  if (names.length > MAX_FIELDS)
    return { refused: `it has ${names.length} fields: agentstream reads at most ${MAX_FIELDS}` };
  const required = schema.required ?? [];
  if (!Array.isArray(required) || !required.every((r) => typeof r === "string"))
    return { refused: "its requestedSchema's required is not a list of field names" };
  for (const name of required)
    if (!Object.hasOwn(properties, name)) return { refused: `it requires ${shownName(name)}, which it does not ask` };
  const message = typeof p.message === "string" ? p.message : "";
  const fields: FormField[] = [];
  const checked: Record<string, unknown> = {};
  for (const id of names) {
    if (id.length === 0 || id.length > MAX_FIELD_ID)
      return { refused: `a field's name is ${id.length} characters long: 1 to ${MAX_FIELD_ID} are read` };
    const read = readField(id, properties[id], required.includes(id));
    if ("refused" in read) return { refused: `field ${shownName(id)}: ${read.refused}` };
    fields.push(read.field);
    checked[id] = read.schema;
  }
  const toolCallId = nonEmpty(p.toolCallId);
  return {
    form: {
      message,
      ...(toolCallId !== undefined ? { toolCallId } : {}),
      fields,
      schema: {
        type: "object",
        properties: checked,
        ...(required.length > 0 ? { required: [...new Set(required)] } : {}),
        additionalProperties: false,
      },
    },
  };
}

/** The form's questions as input.requested shows them, each text cut to MAX_SHOWN_TEXT. */
export function shownQuestions(form: Form): InputQuestion[] {
  return form.fields.map((f) => ({
    id: f.id,
    question: clip(f.title !== undefined ? `${f.title}: ${f.question}` : f.question, MAX_SHOWN_TEXT),
    type: f.type,
    ...(f.choices ? { choices: f.choices.map((c) => clip(c.value, MAX_SHOWN_TEXT)) } : {}),
    required: f.required,
  }));
}

type FieldReading = { field: FormField; schema: Record<string, unknown> } | { refused: string };

function readField(id: string, given: unknown, required: boolean): FieldReading {
  if (!isObject(given)) return { refused: "not an object" };
  const title = nonEmpty(given.title);
  const description = nonEmpty(given.description);
  const question = description ?? title ?? id;
  const base = { id, question, ...(description !== undefined && title !== undefined ? { title } : {}), required };
  switch (given.type) {
    case "string": {
      const choices = singleChoices(given);
      if (choices !== undefined) {
        if ("refused" in choices) return choices;
        return {
          field: { ...base, type: "choice", choices: choices.choices },
          schema: { type: "string", enum: choices.choices.map((c) => c.value) },
        };
      }
      const schema: Record<string, unknown> = { type: "string" };
      for (const key of ["minLength", "maxLength"] as const) {
        const bound = given[key];
        if (bound === undefined || bound === null) continue;
        if (!Number.isSafeInteger(bound) || (bound as number) < 0)
          return { refused: `its ${key} is not a whole number from 0` };
        schema[key] = bound;
      }
      if (given.pattern !== undefined && given.pattern !== null) {
        const pattern = patternProblem(given.pattern);
        if (pattern !== undefined) return { refused: pattern };
        schema.pattern = given.pattern;
      }
      return { field: { ...base, type: "text" }, schema };
    }
    case "number":
    case "integer": {
      const schema: Record<string, unknown> = { type: given.type };
      for (const key of ["minimum", "maximum"] as const) {
        const bound = given[key];
        if (bound === undefined || bound === null) continue;
        if (typeof bound !== "number" || !Number.isFinite(bound)) return { refused: `its ${key} is not a number` };
        schema[key] = bound;
      }
      return { field: { ...base, type: given.type }, schema };
    }
    case "boolean":
      return { field: { ...base, type: "boolean" }, schema: { type: "boolean" } };
    case "array": {
      const items = objectOrEmpty(given.items);
      const choices = Array.isArray(items.anyOf)
        ? titledChoices(items.anyOf)
        : Array.isArray(items.enum) && (items.type === undefined || items.type === "string")
          ? plainChoices(items.enum)
          : { refused: "its items are neither an enum of strings nor anyOf titled choices" };
      if ("refused" in choices) return choices;
      const schema: Record<string, unknown> = {
        type: "array",
        items: { type: "string", enum: choices.choices.map((c) => c.value) },
      };
      for (const key of ["minItems", "maxItems"] as const) {
        const bound = given[key];
        if (bound === undefined || bound === null) continue;
        if (!Number.isSafeInteger(bound) || (bound as number) < 0)
          return { refused: `its ${key} is not a whole number from 0` };
        schema[key] = bound;
      }
      return { field: { ...base, type: "choices", choices: choices.choices }, schema };
    }
    default:
      return {
        refused: `its type ${JSON.stringify(clip(String(given.type), 40))} is none of ACP's form field types (string, number, integer, boolean, array)`,
      };
  }
}

type ChoicesReading = { choices: FormChoice[] } | { refused: string };

/** A string field's single choice (enum or oneOf), undefined where it offers none. */
function singleChoices(given: Record<string, unknown>): ChoicesReading | undefined {
  if (Array.isArray(given.oneOf)) return titledChoices(given.oneOf);
  if (Array.isArray(given.enum)) return plainChoices(given.enum);
  if (given.oneOf !== undefined && given.oneOf !== null) return { refused: "its oneOf is not a list" };
  if (given.enum !== undefined && given.enum !== null) return { refused: "its enum is not a list" };
  return undefined;
}

function plainChoices(values: unknown[]): ChoicesReading {
  if (!values.every((v) => typeof v === "string")) return { refused: "its choices are not all strings" };
  return bounded((values as string[]).map((value) => ({ value, title: value })));
}

function titledChoices(options: unknown[]): ChoicesReading {
  const choices: FormChoice[] = [];
  for (const option of options) {
    if (!isObject(option) || typeof option.const !== "string")
      return { refused: "a choice is not an object with a string const" };
    choices.push({ value: option.const, title: nonEmpty(option.title) ?? option.const });
  }
  return bounded(choices);
}

function bounded(choices: FormChoice[]): ChoicesReading {
  if (choices.length === 0) return { refused: "it offers no choice" };
  if (choices.length > MAX_CHOICES)
    return { refused: `it offers ${choices.length} choices: agentstream reads at most ${MAX_CHOICES}` };
  return { choices };
}

/** Why a pattern cannot be checked (not a string, too long, not a regular expression), or undefined. */
function patternProblem(pattern: unknown): string | undefined {
  if (typeof pattern !== "string") return "its pattern is not a string";
  if (pattern.length > MAX_PATTERN)
    return `its pattern is ${pattern.length} characters long: agentstream compiles at most ${MAX_PATTERN}`;
  try {
    // As ajv compiles it.
    new RegExp(pattern, "u");
    return undefined;
  } catch (err) {
    return `its pattern does not compile (${clip((err as Error).message, 200)})`;
  }
}

/** A field's name as a refusal quotes it: cut, in JSON (its control characters escaped). */
function shownName(name: string): string {
  return JSON.stringify(clip(name, 80));
}
