// What an option's value may be, declared once per kind of value: the check (the library's, typed with the
// value it admits, so the request types are derived from the table), the CLI's parser of a flag's text into
// that value, and the default as --help shows it.
import type { BackendExit } from "../canonical/events.js";
import { MAX_DELAY_MS, MAX_LINE_BYTES_LIMIT, MAX_SECONDS } from "./limits.js";

/** What is wrong with a value, or undefined when nothing is; `T` is the type of a value it admits. */
export interface Check<T> {
  (value: unknown): string | undefined;
  /** Never set: the type a value it admits has, for the request types. */
  readonly admits?: T;
  /** The CLI's parser of a flag's text (throws an Error saying what was expected); none: commander's text as is. */
  readonly parse?: (text: string, previous: unknown) => T;
  /** A default as --help shows it; none: as commander shows it. */
  shown?(value: T): string;
}

/** How the CLI reads and shows a value of this kind. */
interface CliForm<T> {
  parse?: (text: string, previous: unknown) => T;
  shown?: (value: T) => string;
}

/** A check of values of type T (with the CLI's parser and shown default of such values, where they differ from commander's). */
export const checkOf = <T>(check: (value: unknown) => string | undefined, cli: CliForm<T> = {}): Check<T> =>
  Object.assign((value: unknown) => check(value), cli);

export const string = checkOf<string>((v) => (typeof v === "string" ? undefined : "expected a string"));
export const nonEmpty = (what: string): Check<string> =>
  checkOf((v) => (typeof v === "string" && v !== "" ? undefined : `expected ${what}`));
export const boolean = checkOf<boolean>((v) => (typeof v === "boolean" ? undefined : "expected true or false"), {
  shown: (on) => (on ? "on" : "off"),
});
/** A list: on the CLI a repeatable flag, each value joining it. */
export const strings = checkOf<readonly string[]>(
  (v) => (Array.isArray(v) && v.every((item) => typeof item === "string") ? undefined : "expected an array of strings"),
  {
    parse: (value, previous) => [...((previous as string[] | undefined) ?? []), value],
    shown: (list) => list.join(", ") || "none",
  },
);
export const plainObject = <T extends object>(what: string): Check<T> =>
  checkOf((v) => (typeof v === "object" && v !== null && !Array.isArray(v) ? undefined : `expected ${what}`));
export const func = <T extends (...args: never[]) => unknown>(): Check<T> =>
  checkOf((v) => (typeof v === "function" ? undefined : "expected a function"));
export const oneOf = <const V extends string>(values: readonly V[]): Check<V> =>
  checkOf((v) => ((values as readonly unknown[]).includes(v) ? undefined : `expected one of ${values.join(", ")}`));
// Plain decimal notation only: Number() would also take "0x10", "1e3" or "0b1".
const DECIMAL_INTEGER = /^\d+$/;
const DECIMAL_NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * A number, checked once: the library's value by `check`; the CLI's text written in this decimal notation, then
 * the same check, its refusal in the CLI's words (`expected`, with an example).
 */
function decimal(notation: RegExp, check: (value: unknown) => string | undefined, expected: string): Check<number> {
  return checkOf(check, {
    parse: (text) => {
      const n = Number(text);
      if (!notation.test(text) || check(n) !== undefined) throw new Error(expected);
      return n;
    },
  });
}

/** A time: milliseconds in the library and the request, seconds on the CLI (and in --help's default). */
export const milliseconds = (allowZero: boolean): Check<number> =>
  checkOf(
    (v) =>
      typeof v === "number" && Number.isFinite(v) && (allowZero ? v >= 0 : v > 0) && v <= MAX_DELAY_MS
        ? undefined
        : `expected a number of milliseconds ${allowZero ? "from 0" : "greater than 0"} up to ${MAX_DELAY_MS}`,
    { parse: secondsParser(allowZero), shown: (ms) => String(ms / 1000) },
  );
/** A limit: a whole number above 0 (--max-turns, --max-tokens), or any number above 0 (--max-cost-usd, in US dollars). */
export const above0 = (whole: boolean): Check<number> =>
  decimal(
    whole ? DECIMAL_INTEGER : DECIMAL_NUMBER,
    (v) =>
      typeof v === "number" && Number.isFinite(v) && v > 0 && (!whole || Number.isSafeInteger(v))
        ? undefined
        : `expected a ${whole ? "whole number" : "number"} greater than 0`,
    whole
      ? "expected a whole number greater than 0, e.g. 20."
      : "expected a decimal number of US dollars greater than 0, e.g. 0.50.",
  );
export const lineBytes = decimal(
  DECIMAL_INTEGER,
  (v) =>
    Number.isSafeInteger(v) && (v as number) > 0 && (v as number) <= MAX_LINE_BYTES_LIMIT
      ? undefined
      : `expected a whole number of bytes from 1 to ${MAX_LINE_BYTES_LIMIT}`,
  `expected a whole number of bytes from 1 to ${MAX_LINE_BYTES_LIMIT} (256 MiB).`,
);
export const backendExit = checkOf<BackendExit | null>(
  (v) =>
    v === null ||
    (typeof v === "object" &&
      ((v as BackendExit).code === null || Number.isInteger((v as BackendExit).code)) &&
      ((v as BackendExit).signal === null || typeof (v as BackendExit).signal === "string"))
      ? undefined
      : "expected null or { code: number | null, signal: string | null }",
  { parse: parseBackendExit },
);

export function otlpEndpoint(v: unknown): string | undefined {
  let url: URL | undefined;
  try {
    url = typeof v === "string" ? new URL(v) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:"))
    return "expected an http(s) URL of an OTLP collector, such as http://localhost:4318";
  return url.port === "0" ? "port 0 names no collector: give the collector's port" : undefined;
}

/** Seconds as the CLI takes them, milliseconds as the request holds them. */
function secondsParser(allowZero: boolean): (value: string) => number {
  const range = `${allowZero ? "from 0" : "greater than 0"} up to ${MAX_SECONDS} (about 24.8 days)`;
  return (value) => {
    const n = Number(value);
    if (!DECIMAL_NUMBER.test(value) || (n === 0 && !allowZero) || n > MAX_SECONDS)
      throw new Error(`expected a decimal number of seconds ${range}, e.g. 30 or 0.5.`);
    return Math.round(n * 1000);
  };
}

/** --backend-exit: how the recorded backend ended, an exit code or a signal's name. */
function parseBackendExit(value: string): BackendExit {
  if (/^SIG[A-Z0-9]+$/.test(value)) return { code: null, signal: value };
  if (/^\d{1,3}$/.test(value) && Number(value) <= 255) return { code: Number(value), signal: null };
  throw new Error("expected an exit code (0-255) or a signal name such as SIGTERM.");
}

/** An http(s) URL; anything else is refused, so that `--otlp PROMPT` is not taken for an endpoint unnoticed. */
export function parseEndpoint(value: string): string {
  const problem = otlpEndpoint(value);
  if (problem === undefined) return value;
  throw new Error(
    problem.startsWith("port 0")
      ? "port 0 names no collector: give the collector's port, such as http://localhost:4318."
      : `${problem} (to use the OTEL_EXPORTER_OTLP_* variables or the default, give --otlp with no value, after the prompt or file, or write --otlp=URL).`,
  );
}
