// What each backend supports of the portable options of `run`, declared once: for every option, how it
// reaches the backend (the argv it adds, variables, a file written for the run) and how --help and the
// docs tables show that, or why the backend lacks it (refused before start, never dropped).

import type { Words } from "../core/errors.js";
import {
  isChoice,
  type Asked,
  type ChoiceOption,
  type DriverOption,
  type LiveChoiceOf,
  type LiveOption,
  type PortableOption,
  type PortableValues,
} from "./request.js";

/** A file run writes for the run (in its own temporary folder, removed when the run ends). */
export interface RunFileInput {
  /** Its name in the run's folder. */
  name: string;
  text: string;
  /** The arguments that name it, given where it was written. */
  args(path: string): string[];
}

/** What one option adds to the backend's input. */
export interface NativeInput {
  /** Arguments among its flags, where the backend's argv layout places this option. */
  args?: string[];
  /** Words of a subcommand, after the backend's own (Codex's `exec resume`). */
  subcommand?: string[];
  /** Operands after its flags, before the prompt (Codex's session to resume). */
  operands?: string[];
  /** Variables set in its environment, over the caller's. */
  env?: Record<string, string>;
  /** A file written for the run; its arguments go where `args` would. */
  file?: RunFileInput;
  /** The prompt as the backend is to get it, given the user's (an option a backend takes in words). */
  prompt?(prompt: string): string;
}

/** What an entry may read of the run besides its own value. */
export interface RunContext {
  /** Every portable option the run asks (some reach the backend together, as Codex's resume and --cd). */
  asked: Asked;
  /** The caller's environment (OpenCode's rules merge over its OPENCODE_PERMISSION). */
  env: NodeJS.ProcessEnv;
}

/** An option the backend has (of the values V: the portable rows', or a test's with one more). */
export interface Reaches<K extends keyof V, V = PortableValues> {
  /** How it reaches the backend, as --help and the docs tables show it: its spelling first, then any note in parentheses. */
  via: string;
  reaches(value: V[K], run: RunContext): NativeInput;
  /** What the backend gets when the option is not asked (Copilot CLI's --allow-all-tools without an allow list). */
  otherwise?(run: RunContext): NativeInput;
}

/**
 * An option the backend lacks: why (the refusal says it; the option's row decides where). Agentstream's own
 * options it names are left open (`use ${name("cwd")} DIR`); a backend's own flags (Codex's --sandbox) are
 * its words, written out.
 */
export interface Lacks {
  lacks: Words;
}

export type Support<K extends keyof V, V = PortableValues> = Reaches<K, V> | Lacks;

/**
 * A choice option's entry: one per choice (a rule means the same on every backend; each mode is refused apart);
 * a live choice (`--approvals ask`) only where the backend is asked live (the row's `liveChoices`).
 */
export type PerChoice<K extends ChoiceOption> = {
  readonly [C in Exclude<PortableValues[K], LiveChoiceOf>]: Support<K>;
} & { readonly [C in Extract<PortableValues[K], LiveChoiceOf>]?: Support<K> };

/** An option's entry: how it reaches the backend or why it lacks it (per choice, for a choice). */
export type Entry<K extends keyof V, V = PortableValues> = K extends ChoiceOption ? PerChoice<K> : Support<K, V>;

/**
 * One entry per portable row (src/backends/portable-rows.ts): adding a row makes every backend say how it takes
 * it (a live option only where the backend has it; one the driver takes whole, the library's callback, none).
 */
export type Supports<V = PortableValues> = {
  [K in Exclude<keyof V, LiveOption | DriverOption>]: Entry<K, V>;
} & { [K in LiveOption & keyof V]?: Entry<K, V> };

/** Whether the backend has the option. */
export function reaches<K extends keyof V, V = PortableValues>(support: Support<K, V>): support is Reaches<K, V> {
  return "reaches" in support;
}

/** A limit agentstream watches on the canonical events, stopping the backend when it is crossed: nothing to pass. */
export const WATCHED = { via: "watched on its events", reaches: () => ({}) } as const;

/** A backend whose stream tells its usage as it runs: every limit watched on its events, no usage file. */
export const USAGE_IN_STREAM = {
  maxTurns: WATCHED,
  maxTokens: WATCHED,
  maxCostUsd: WATCHED,
  usageFile: { lacks: "writes its usage in its stream" },
} as const;

/** An option the backend gets by default (or through its driver): nothing to pass. */
export function byDefault(via: string): Reaches<PortableOption> {
  return { via, reaches: () => ({}) };
}

/**
 * The entry that answers for this option's value: for a choice, the entry of the choice asked (none when it
 * is not asked: a choice has no `otherwise`); else the option's own.
 */
export function supportOf<K extends PortableOption>(
  supports: Supports,
  option: K,
  value?: PortableValues[K],
): Support<K> | undefined {
  const entry = (supports as Readonly<Record<string, Entry<PortableOption> | undefined>>)[option];
  if (entry === undefined) return undefined;
  if (!isChoice(option)) return entry as Support<K>;
  return value === undefined ? undefined : (entry as Readonly<Record<string, Support<K>>>)[value as string];
}

/** The parts of a backend's argv that are no portable option. */
export interface ArgvFrame {
  prompt: string;
  /** Put `--` before the prompt, so a prompt starting with "-" stays a prompt. */
  promptTerminator: boolean;
  /** --backend-arg, passed through as given, before the prompt. */
  backendArgs: readonly string[];
}

/** The options' arguments, for a backend's layout to place. */
export interface PlacedOptions {
  /** The arguments of these options, in this order; with none named, those of every option not yet placed, in `supports` order. */
  flags(...options: PortableOption[]): string[];
  /** Subcommand words the options add (Codex's `resume`). */
  subcommand: string[];
  /** Operands the options add after the flags, before the prompt (Codex's session). */
  operands: string[];
}
