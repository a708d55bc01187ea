// What one run asks of its backend, in one type derived from the portable rows (src/backends/portable-rows.ts):
// the library's option names, each value as the backend is given it (the rules' tool names resolved to the
// backend's own once, in planning), plus what the run itself supplies (the usage file). Every backend's
// `supports` map is keyed by the same names; the argv frame (prompt, `--`, --backend-arg) and the driver (the
// answer timeout) take the rest.
import type { PortableRow } from "../core/option-row.js";
import type { Check } from "../core/option-values.js";
import { PORTABLE_ROWS } from "./portable-rows.js";

// The approvals modes are the policy's (src/policy/permission-request.ts).
export { APPROVALS_MODES, type ApprovalsMode } from "../policy/permission-request.js";

type CheckedValue<R> = R extends { check: Check<infer T> } ? T : never;
/** An option's default asks nothing (autoMode: true): a backend is given only the other values. */
type Asking<R, T> = R extends { default: infer D } ? (D extends readonly [] ? T : Exclude<T, D>) : T;
/** What a row's transform makes of the value (the schema read), else the value as checked. */
type BackendValue<R> = R extends { portable: { value: (...args: never[]) => infer V } }
  ? Awaited<V>
  : Asking<R, CheckedValue<R>>;

/** The portable values of these rows: each option's value as a backend's entry is given it. */
export type PortableValuesOf<R> = {
  -readonly [Row in R as Row extends { key: infer K extends string } ? K : never]: BackendValue<Row>;
};

type PortableRows = (typeof PORTABLE_ROWS)[number];

/** Each option a backend's `supports` answers for, with the value its entry is given when it is asked. */
export type PortableValues = PortableValuesOf<PortableRows>;

export type PortableOption = keyof PortableValues;

type KeysWith<R, Spec> = R extends { key: infer K extends string; portable: Spec } ? K : never;

/** Options whose value is one of a few choices: a backend's entry for one says per choice. */
export type ChoiceOption = KeysWith<PortableRows, { choices: readonly string[] }>;
/** The choices of those only a backend asked live has (`--approvals ask`). */
export type LiveChoiceOf<R = PortableRows> = R extends { portable: { liveChoices: readonly (infer C)[] } } ? C : never;
/** Options only a backend asked live has, with an entry where it has them (--approve-with). */
export type LiveOption = KeysWith<PortableRows, { live: "entry" }>;
/** Options only a driven backend takes, whole, with no entry (the library's callback). */
export type DriverOption = KeysWith<PortableRows, { live: "driver" }>;

/**
 * One run's request to its backend: every field optional, absent where not asked (planning leaves out an
 * option's default, as the option table gives it: autoMode true asks nothing).
 */
export type PortableRequest = Partial<PortableValues>;

/** The request a driver is given: the portable request, and how long its answerer has to answer one request. */
export type DriverRequest = PortableRequest & { answerTimeoutMs: number };

/** What a backend's entry reads of --output-schema's value (the schema read and compiled). */
export interface OutputSchemaValue {
  /** The JSON Schema, parsed. */
  schema: object;
  /** The schema as compact JSON text (for a flag that takes it inline, or a file written for the run). */
  text: string;
  /** ajv compiles it, less its `$schema`, as draft-07 in strict mode (told when it was compiled, in its bounds). */
  strictDraft07: boolean;
}

/** The options of a request that are asked, each with the value its entry is given. */
export type Asked = Partial<PortableValues>;

const ROWS: readonly PortableRow[] = PORTABLE_ROWS;

/** Every portable option, in the order a backend's lacks are refused. */
export const PORTABLE_OPTION_NAMES = ROWS.map((row) => row.key as PortableOption);

/** The portable row of an option, if it is one. */
export function portableRow(option: string, rows: readonly PortableRow[] = ROWS): PortableRow | undefined {
  return rows.find((row) => row.key === option);
}

export function isChoice(option: string): option is ChoiceOption {
  return portableRow(option)?.portable.choices !== undefined;
}

/** Whether a value asks anything: not undefined, not an empty list (planning leaves defaults out). */
export function isAsked(value: unknown): boolean {
  return value !== undefined && !(Array.isArray(value) && value.length === 0);
}

/** The portable options a request asks, each as a backend's entry is given it. */
export function askedOf(request: PortableRequest): Asked {
  return Object.fromEntries(Object.entries(request).filter(([, value]) => isAsked(value))) as Asked;
}
