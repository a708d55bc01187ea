import type { ErrorObject } from "ajv";

export interface Validator {
  (event: unknown): boolean;
  errors?: ErrorObject[] | null;
}

let compiled: Validator | undefined;

/** The canonical v1 validator, compiled at build time (see build-validators.ts). */
export async function loadValidator(): Promise<Validator> {
  if (!compiled) {
    // @ts-expect-error: generated at build time, after tsc, so it has no types.
    const mod = (await import("./canonical-validator.generated.js")) as { default: Validator };
    compiled = mod.default;
  }
  return compiled;
}

/**
 * The schema's complaints as sentences, joined by "; ": the field by its
 * dotted path, the value it has (when `event` is given) and what it may be,
 * e.g. `status is "done", but must be one of "succeeded", "failed", "cancelled"`.
 */
export function describeErrors(errors: ErrorObject[] | null | undefined, event?: unknown, root = "the event"): string {
  if (!errors || errors.length === 0) return "invalid";
  return errors.map((e) => describeError(e, event, root)).join("; ");
}

function describeError(error: ErrorObject, event: unknown, root: string): string {
  const field = fieldName(error.instancePath, root);
  const params = error.params as Record<string, unknown>;
  const has = (): string => (event === undefined ? "" : `is ${shown(valueAt(event, error.instancePath))}, but `);
  switch (error.keyword) {
    case "required":
      return `${quoted(joinPath(error.instancePath, String(params.missingProperty)))} is required but missing`;
    case "additionalProperties":
      return `${quoted(joinPath(error.instancePath, String(params.additionalProperty)))} is not a field the schema allows here`;
    case "enum":
      return `${field} ${has()}must be one of ${(params.allowedValues as unknown[]).map(shown).join(", ")}`;
    case "const":
      return `${field} ${has()}must be ${shown(params.allowedValue)}`;
    case "type": {
      const types = Array.isArray(params.type) ? (params.type as string[]) : String(params.type).split(",");
      return `${field} ${event === undefined ? "" : `is ${kindOf(valueAt(event, error.instancePath))}, but `}must be ${types.map(article).join(" or ")}`;
    }
    default:
      return `${field} ${has()}${error.message ?? "is invalid"}`;
  }
}

/** "/error/code" as error.code, "/items/0" as items[0]; the root as `root` ("the event"). */
function fieldName(instancePath: string, root: string): string {
  return instancePath === "" ? root : joinPath(instancePath);
}

function joinPath(instancePath: string, last?: string): string {
  const parts = instancePath.split("/").slice(1).map(unescapePointer);
  if (last !== undefined) parts.push(last);
  return parts.reduce(
    (path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path === "" ? part : `${path}.${part}`),
    "",
  );
}

function unescapePointer(part: string): string {
  return part.replace(/~1/g, "/").replace(/~0/g, "~");
}

function quoted(path: string): string {
  return JSON.stringify(path);
}

function valueAt(event: unknown, instancePath: string): unknown {
  let value = event;
  for (const part of instancePath.split("/").slice(1).map(unescapePointer)) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

// Long values (an output, a message) would drown the sentence.
const MAX_SHOWN = 60;

function shown(value: unknown): string {
  const text = value === undefined ? "undefined" : JSON.stringify(value);
  if (text.length <= MAX_SHOWN) return text;
  const cut = text.slice(0, MAX_SHOWN - 1);
  // A word cut in two is left out whole: part of a key would be found by no redactor after this.
  return `${/\S/.test(text[MAX_SHOWN - 1]!) ? cut.replace(/\S+$/, "") : cut}…`;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return `the number ${value}`;
  if (typeof value === "string") return `the string ${shown(value)}`;
  return article(typeof value);
}

function article(type: string): string {
  if (type === "null") return "null";
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
