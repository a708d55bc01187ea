import type { EnvelopeKey } from "../canonical/envelope.js";
import type { CanonicalEvent } from "../canonical/events.js";
import { loadSchema } from "../schema/schema-files.js";
import { REPORT_LIMITS } from "./report-v1.js";
import { clip } from "../core/clip.js";
import { ownTable } from "../core/own-table.js";

// A report reads streams it did not write: an event may carry a valid envelope
// and still break the schema (a number as a tool's output, an object as an
// error message). Each event is read against the canonical schema before any
// report looks at it: a field that breaks it is left out where the schema lets
// the event do without it, else the whole event is skipped; either way the
// report says so. Every text the schema types is cut as it is read
// (REPORT_LIMITS.eventAnswerChars, eventTextChars).

/** What reading one event gave. */
export interface ReadEvent {
  /** The event as a report may read it (the same object when it meets the schema); undefined when skipped. */
  event: CanonicalEvent | undefined;
  /** Fields (or array items) left out of the event read. */
  leftOut: number;
  /** Why it was skipped, or the first REPORT_LIMITS.notes fields left out: `output must be a string: left out`. */
  problems: string[];
}

/** The fields left out of one event: all counted, the first few said. */
class Problems {
  count = 0;
  readonly said: string[] = [];

  add(problem: string): void {
    this.count++;
    if (this.said.length < REPORT_LIMITS.notes) this.said.push(problem);
  }

  addAll(other: Problems): void {
    this.count += other.count - other.said.length;
    for (const p of other.said) this.add(p);
  }
}

/** The part of JSON Schema the canonical schema uses. */
export interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  pattern?: string;
  required?: string[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  /** Rules that all apply, in turn (a field both the envelope and the payload describe). */
  allOf?: SchemaNode[];
}

// Of the envelope (src/canonical/envelope.ts), a report needs only what every line
// must carry to be read at all (agentstream report checks these first); the rest is
// left out when it breaks the schema.
const ENVELOPE_REQUIRED: EnvelopeKey[] = ["v", "seq", "run_id", "type"];
// A backend name the schema does not list yet (a later version's) is still a name.
const ENVELOPE_RELAXED: Partial<Record<EnvelopeKey, SchemaNode>> = { backend: { type: "string", minLength: 1 } };
// What a report cannot do without, where it is less than the schema requires:
// a call needs its id, name and status, not its output; a run.finished its
// outcome. Every other field is left out when it breaks the schema.
const PAYLOAD_REQUIRED = ownTable<string[]>({
  "run.started": [],
  "message.completed": [],
  "tool.started": ["tool_call_id", "name"],
  "tool.updated": ["tool_call_id"],
  "tool.completed": ["tool_call_id", "name", "status"],
  "run.finished": ["status", "exit_code"],
});

class EventSchema {
  private readonly defs: Record<string, SchemaNode>;
  private readonly envelope: SchemaNode;
  private readonly byType = new Map<string, SchemaNode>();
  private readonly patterns = new Map<string, RegExp>();

  constructor(schema: Record<string, unknown>) {
    this.defs = schema.$defs as Record<string, SchemaNode>;
    const properties = { ...(schema.properties as Record<string, SchemaNode>), ...ENVELOPE_RELAXED };
    this.envelope = { type: "object", required: ENVELOPE_REQUIRED, properties };
  }

  /** The envelope with the payload of `type` (the envelope alone for a type the schema does not know). */
  forType(type: string): SchemaNode {
    let node = this.byType.get(type);
    if (!node) {
      const payload = Object.hasOwn(this.defs, type) ? this.defs[type]! : undefined;
      const properties = { ...this.envelope.properties };
      for (const [name, rule] of Object.entries(payload?.properties ?? {}))
        properties[name] = properties[name] ? { allOf: [properties[name]!, rule] } : rule;
      const required = [...ENVELOPE_REQUIRED, ...(PAYLOAD_REQUIRED[type] ?? payload?.required ?? [])];
      node = { type: "object", required: [...new Set(required)], properties };
      this.byType.set(type, node);
    }
    return node;
  }

  resolve(node: SchemaNode): SchemaNode {
    let n = node;
    while (n.$ref !== undefined) n = this.defs[n.$ref.replace("#/$defs/", "")] ?? {};
    return n;
  }

  pattern(source: string): RegExp {
    let re = this.patterns.get(source);
    if (!re) {
      re = new RegExp(source, "u");
      this.patterns.set(source, re);
    }
    return re;
  }
}

let schema: EventSchema | undefined;

/** `event` read against the canonical schema, for a report (see the top of this file). */
export function readReportEvent(event: CanonicalEvent): ReadEvent {
  schema ??= new EventSchema(loadSchema());
  const problems = new Problems();
  const type = (event as { type?: unknown }).type;
  const node = schema.forType(typeof type === "string" ? type : "");
  const read = check(schema, event, node, "", problems);
  if (isBroken(read)) return { event: undefined, leftOut: 0, problems: [read.broken] };
  return { event: read as CanonicalEvent, leftOut: problems.count, problems: problems.said };
}

/** A value that breaks its rule, and why. */
interface Broken {
  broken: string;
}
const BROKEN_MARK = Symbol("broken");

function broken(path: string, must: string): Broken {
  return { [BROKEN_MARK]: true, broken: `${path === "" ? "the event" : path} must be ${must}` } as Broken;
}

function isBroken(value: unknown): value is Broken {
  return typeof value === "object" && value !== null && BROKEN_MARK in value;
}

/**
 * `value` as its rule lets a report read it: the value itself when it meets
 * the rule, a copy without what breaks it (each left-out field in
 * `problems`), or Broken when what breaks it is not optional.
 */
function check(s: EventSchema, value: unknown, rule: SchemaNode, path: string, problems: Problems): unknown {
  const node = s.resolve(rule);
  if (node.allOf) {
    let v = value;
    for (const part of node.allOf) {
      v = check(s, v, part, path, problems);
      if (isBroken(v)) return v;
    }
    return v;
  }
  const branches = node.oneOf ?? node.anyOf;
  if (branches) return oneOf(s, value, branches, path, problems);
  if (node.type !== undefined && !hasType(value, node.type)) return broken(path, typeWords(node.type));
  if (node.const !== undefined && value !== node.const) return broken(path, JSON.stringify(node.const));
  if (node.enum && !node.enum.includes(value as never)) return broken(path, "one of the values the schema lists");
  if (typeof value === "number") {
    if (node.minimum !== undefined && value < node.minimum) return broken(path, `at least ${node.minimum}`);
    if (node.maximum !== undefined && value > node.maximum) return broken(path, `at most ${node.maximum}`);
  }
  if (typeof value === "string") {
    if (node.minLength !== undefined && value.length < node.minLength) return broken(path, "a non-empty string");
    if (node.pattern !== undefined && !s.pattern(node.pattern).test(value)) return broken(path, "in the schema's form");
    const max = path === "result.text" ? REPORT_LIMITS.eventAnswerChars : REPORT_LIMITS.eventTextChars;
    return value.length > max ? clip(value, max) : value;
  }
  if (Array.isArray(value) && node.items) return items(s, value, node.items, path, problems);
  if (isObject(value) && (node.properties || node.required)) return fields(s, value, node, path, problems);
  return value;
}

function fields(
  s: EventSchema,
  value: Record<string, unknown>,
  node: SchemaNode,
  path: string,
  problems: Problems,
): unknown {
  const required = node.required ?? [];
  for (const name of required) if (!Object.hasOwn(value, name)) return broken(join(path, name), "present");
  let copy: Record<string, unknown> | undefined;
  for (const [name, rule] of Object.entries(node.properties ?? {})) {
    if (!Object.hasOwn(value, name)) continue;
    const field = join(path, name);
    const read = check(s, value[name], rule, field, problems);
    if (isBroken(read)) {
      if (required.includes(name)) return read;
      copy ??= { ...value };
      delete copy[name];
      problems.add(
        read.broken.startsWith(`${field} `) ? `${read.broken}: left out` : `${read.broken}: ${field} left out`,
      );
    } else if (read !== value[name]) {
      copy ??= { ...value };
      copy[name] = read;
    }
  }
  return copy ?? value;
}

function items(s: EventSchema, value: unknown[], rule: SchemaNode, path: string, problems: Problems): unknown {
  const kept: unknown[] = [];
  let changed = false;
  value.forEach((item, i) => {
    const read = check(s, item, rule, `${path}[${i}]`, problems);
    if (isBroken(read)) problems.add(`${read.broken}: left out`);
    else kept.push(read);
    changed ||= read !== item;
  });
  return changed ? kept : value;
}

/** The first branch the value meets whole, else the first it meets with fields left out. */
function oneOf(s: EventSchema, value: unknown, branches: SchemaNode[], path: string, problems: Problems): unknown {
  let partial: { read: unknown; problems: Problems } | undefined;
  let first: Broken | undefined;
  for (const branch of branches) {
    const own = new Problems();
    const read = check(s, value, branch, path, own);
    if (isBroken(read)) first ??= read;
    else if (own.count === 0) return read;
    else partial ??= { read, problems: own };
  }
  if (partial) {
    problems.addAll(partial.problems);
    return partial.read;
  }
  return first ?? broken(path, "as the schema says");
}

function hasType(value: unknown, type: string | string[]): boolean {
  return typeof type === "string" ? isType(value, type) : type.some((t) => isType(value, t));
}

function isType(value: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return isObject(value);
    default:
      return true;
  }
}

function typeWords(type: string | string[]): string {
  const words = (t: string) => (t === "null" ? "null" : /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`);
  return typeof type === "string" ? words(type) : type.map(words).join(" or ");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function join(path: string, name: string): string {
  return path === "" ? name : `${path}.${name}`;
}
