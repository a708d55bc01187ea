// What one run asks of its backend, in one type: the library's option names, each value as the user gave
// it (the rules' tool names resolved to the backend's own once, in planning), plus what the run itself
// supplies (the usage file). Every backend's `supports` map is keyed by the same names; the argv frame
// (prompt, `--`, --backend-arg) and the driver (the live permission callback) take the rest.

import { APPROVALS_MODES, type ApprovalsMode, type PermissionCallback } from "../policy/permission-request.js";

// The approvals modes and a live permission request are the policy's terms (src/policy/permission-request.ts).
export { APPROVALS_MODES, type ApprovalsMode, type PermissionCallback } from "../policy/permission-request.js";

/**
 * Whether a run offers an agent questions (ACP form elicitation): answer (the default) where the run has an
 * answerer; pending also where it has none (a question then ends the run needs_input with it pending); never.
 */
export const QUESTIONS_MODES = ["answer", "pending", "never"] as const;
export type QuestionsMode = (typeof QUESTIONS_MODES)[number];

/** --output-schema as a backend is given it. */
export interface OutputSchemaValue {
  /** The JSON Schema, parsed. */
  schema: object;
  /** The schema as compact JSON text (for a flag that takes it inline, or a file written for the run). */
  text: string;
  /** ajv compiles it, less its `$schema`, as draft-07 in strict mode (told when it was compiled, in its bounds). */
  strictDraft07: boolean;
}

/** Each option a backend's `supports` answers for, with the value its entry is given when it is asked. */
export interface PortableValues {
  model: string;
  provider: string;
  /** Absolute. */
  workdir: string;
  /** Only the non-default is asked: the backend is to stop for the user's input. */
  autoMode: false;
  /** Tool rules, in the backend's own names once planned (portable names to a driver). */
  allowTools: readonly string[];
  denyTools: readonly string[];
  /** A choice: each backend's entry says per mode what it becomes, or why it lacks it. */
  approvals: ApprovalsMode;
  /** A command line (`sh -c`) that answers each request no rule decides: a backend asked live only. */
  approveWith: string;
  /** Whether questions are offered (the non-default only is asked): a backend asked live only. */
  questions: QuestionsMode;
  /** The session to continue. */
  resume: string;
  maxTurns: number;
  maxTokens: number;
  maxCostUsd: number;
  /**
   * Where the backend is to write what its stream leaves out (token counts): run names a fresh file, reads it
   * once the backend exited and hands its text to the translator's finish (`StreamEndFacts.usageFile`);
   * `normalize --usage-file FILE` does the same for a recording.
   */
  usageFile: string;
  /** The schema the answer must match (the answer is checked by agentstream whatever the means). */
  outputSchema: OutputSchemaValue;
}

export type PortableOption = keyof PortableValues;

/**
 * One run's request to its backend: every field optional, absent where not asked (planning leaves out an
 * option's default, as the option table gives it: autoMode true asks nothing).
 */
export type PortableRequest = { [K in PortableOption]?: PortableValues[K] } & {
  /** Passed through as given, before the prompt (the argv frame's). */
  backendArgs?: readonly string[];
  /** Answers a permission request live, where no rule decides: a backend with a driver only. */
  onPermissionRequest?: PermissionCallback;
  /** How long --approve-with's command or a person at the terminal has to answer one request. */
  answerTimeoutMs?: number;
};

/** The options of a request that are asked, each with the value its entry is given. */
export type Asked = Partial<PortableValues>;

/**
 * Every option a backend answers for, in the order its refusals are said: the first one asked that the
 * backend lacks is the one refused (the library's live callback, which only a driver takes, after resume).
 */
const ORDER = {
  model: 0,
  provider: 0,
  workdir: 0,
  autoMode: 0,
  maxTurns: 0,
  maxTokens: 0,
  maxCostUsd: 0,
  allowTools: 0,
  denyTools: 0,
  approvals: 0,
  approveWith: 0,
  questions: 0,
  resume: 0,
  onPermissionRequest: 0,
  usageFile: 0,
  outputSchema: 0,
} as const satisfies Record<PortableOption | "onPermissionRequest", 0>;

/** What may be refused of a request: every portable option, and the live callback. */
export type RefusableOption = keyof typeof ORDER;
export const REFUSABLE_OPTIONS = Object.keys(ORDER) as RefusableOption[];
export const PORTABLE_OPTION_NAMES = REFUSABLE_OPTIONS.filter(
  (option): option is PortableOption => option !== "onPermissionRequest",
);

/** Options whose value is one of a few choices: a backend's entry for one says per choice. */
export const CHOICES = { approvals: APPROVALS_MODES } as const;
export type ChoiceOption = keyof typeof CHOICES;

export function isChoice(option: string): option is ChoiceOption {
  return Object.hasOwn(CHOICES, option);
}

/** Whether a value asks anything: not undefined, not an empty list (planning leaves defaults out). */
export function isAsked(value: unknown): boolean {
  return value !== undefined && !(Array.isArray(value) && value.length === 0);
}

/** What a request holds besides its portable options: the argv frame's and the driver's. */
const NOT_PORTABLE: ReadonlySet<string> = new Set([
  "prompt",
  "promptTerminator",
  "backendArgs",
  "onPermissionRequest",
  "answerTimeoutMs",
]);

/**
 * The portable options a request may ask, in the order their refusals are said: those above first, then
 * any other the request holds (a new option's row is all planning needs to hand its value on).
 */
export function portableOptionsOf(request: object): PortableOption[] {
  const more = Object.keys(request).filter(
    (key) => !NOT_PORTABLE.has(key) && !(PORTABLE_OPTION_NAMES as readonly string[]).includes(key),
  );
  return [...PORTABLE_OPTION_NAMES, ...(more as PortableOption[])];
}

/** The portable options a request asks, each as a backend's entry is given it. */
export function askedOf(request: PortableRequest): Asked {
  const asked: Record<string, unknown> = {};
  for (const option of portableOptionsOf(request)) if (isAsked(request[option])) asked[option] = request[option];
  return asked as Asked;
}
