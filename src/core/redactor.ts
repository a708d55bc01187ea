import { setOwn, wellFormed } from "../canonical/strict-json.js";
import { showControlsInLines } from "./control-chars.js";

export const REDACTED = "[redacted]";
// Shorter values ("1", "true") would blank out ordinary words rather than hide anything.
export const MIN_SECRET_LENGTH = 6;

// Token shapes hidden wherever they appear, known or not: OpenAI/Anthropic keys
// (sk-...), GitHub tokens (ghp_..., github_pat_...), Slack tokens (xoxb-...),
// JWTs (eyJ....eyJ....sig) and whatever follows "Bearer ". One regex, run only
// on text that holds one of its literal starts (the cheap check keeps
// normalize's hot path fast). A token may follow a JSON escape (\n, \t).
const TOKEN_START = /sk-|gh[pousr]_|github_pat_|xox[abp]-|eyJ|Bearer/;
const TOKEN = new RegExp(
  String.raw`(\bBearer\s+)[A-Za-z0-9._~+/=-]{8,}|(?:(?<![A-Za-z0-9_-])|(?<=\\[nrtbf]))` +
    String.raw`(?:sk-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abp]-[A-Za-z0-9-]{10,}|eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)`,
  "g",
);

/** The text with every token-shaped string replaced ("Bearer " itself kept). */
export function redactTokens(text: string): string {
  if (!TOKEN_START.test(text)) return text;
  return text.replace(TOKEN, (_match, bearer: string | undefined) => `${bearer ?? ""}${REDACTED}`);
}

/**
 * The one place where secrets leave what agentstream writes: built once per
 * run from the secret values it knows (secret flags' values, secret-looking
 * environment variables), applied to every stdout line and stderr write;
 * token shapes are hidden even with no known values (normalize).
 */
export class Redactor {
  private readonly plain: string[];
  // As the secret appears inside a JSON string: the redacted line stays valid JSON.
  private readonly escaped: string[];
  /** Every secret is well-formed UTF-16, so one inside a string shows in its JSON text as `escaped` (see mayHide). */
  private readonly scannable: boolean;
  /** Any escaped secret or token start: one pass over a line finds any of them, however many secrets there are. */
  private readonly hint: RegExp;

  constructor(secrets: Iterable<string>) {
    // The longest first: a secret that contains another is hidden whole.
    this.plain = [...new Set(secrets)]
      .filter((secret) => secret.length >= MIN_SECRET_LENGTH)
      .sort((a, b) => b.length - a.length);
    this.escaped = [...new Set(this.plain.map((secret) => JSON.stringify(secret).slice(1, -1)))].sort(
      (a, b) => b.length - a.length,
    );
    this.scannable = this.plain.every((secret) => wellFormed(secret) === secret);
    this.hint =
      this.escaped.length === 0
        ? TOKEN_START
        : new RegExp([...this.escaped.map(literalPattern), TOKEN_START.source].join("|"));
  }

  /**
   * Whether value() could change the value whose JSON text (as JSON.stringify
   * writes it) this is. JSON escapes each character on its own, so a string or
   * key that holds a secret or a token shape's start shows it in the text: when
   * the text holds neither, nothing in the value is hidden. One scan of one
   * string, in place of a walk over every string of the object.
   */
  mayHide(json: string): boolean {
    return !this.scannable || this.hint.test(json);
  }

  /** Text as written to a terminal or a plain stream. */
  text(text: string): string {
    return redactTokens(replaceAll(text, this.plain));
  }

  /**
   * Text of ours that may quote an agent's, as stderr shows it: secrets hidden first (whole, before
   * anything is escaped), then every control character but the newline shown (src/core/control-chars.ts).
   */
  shown(text: string): string {
    return showControlsInLines(this.text(text));
  }

  /**
   * A serialized JSON line (a canonical event, the --output json document).
   * The cheap scan runs on the text; only a line that holds a secret is parsed
   * and has its string values redacted, so a secret that is also a key name or
   * the digits of a number cannot break the line's JSON or its shape.
   */
  jsonLine(line: string): string {
    if (redactTokens(replaceAll(line, this.escaped)) === line) return line;
    return JSON.stringify(this.strings(JSON.parse(line) as unknown));
  }

  private strings(value: unknown): unknown {
    if (typeof value === "string") return this.text(value);
    if (Array.isArray(value)) return value.map((item) => this.strings(item));
    if (typeof value !== "object" || value === null) return value;
    const out: Record<string, unknown> = {};
    // A key named __proto__ (an agent's tool argument) is kept as the key it is.
    for (const [key, item] of Object.entries(value)) setOwn(out, key, this.strings(item));
    return out;
  }

  /**
   * A value (a canonical event, a native object) with every string in it
   * redacted, object keys included: the value itself when nothing had to be
   * hidden, else a copy (the original is never changed). Numbers, booleans and
   * the shape are kept, so a secret that is also a key's name or a number's
   * digits cannot break what is serialized from it.
   */
  value<T>(value: T): T {
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (typeof value === "string") return this.text(value);
    if (typeof value !== "object" || value === null) return value;
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const item = this.walk(value[i]);
        if (item === value[i]) continue;
        copy ??= value.slice();
        copy[i] = item;
      }
      return copy ?? value;
    }
    let copy: Record<string, unknown> | undefined;
    const entries = Object.entries(value);
    for (let i = 0; i < entries.length; i++) {
      const [key, item] = entries[i]!;
      const hiddenKey = this.text(key);
      const hidden = this.walk(item);
      if (copy === undefined && (hiddenKey !== key || hidden !== item)) {
        copy = {};
        for (let j = 0; j < i; j++) setOwn(copy, entries[j]![0], entries[j]![1]);
      }
      if (copy !== undefined) setOwn(copy, hiddenKey, hidden);
    }
    return copy ?? value;
  }

  /** The stream, with every string written through it redacted (its other members untouched). */
  stream<S extends NodeJS.WritableStream>(target: S): S {
    const write = (chunk: unknown, ...rest: unknown[]): boolean =>
      (target.write as (...args: unknown[]) => boolean)(
        this.text(typeof chunk === "string" ? chunk : Buffer.isBuffer(chunk) ? chunk.toString("utf8") : String(chunk)),
        ...rest,
      );
    return new Proxy(target, {
      get(object, property) {
        if (property === "write") return write;
        const value = Reflect.get(object, property, object) as unknown;
        return typeof value === "function" ? value.bind(object) : value;
      },
    });
  }
}

/** A pattern matching exactly this text. */
function literalPattern(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

function replaceAll(text: string, secrets: readonly string[]): string {
  for (const secret of secrets) {
    if (text.includes(secret)) text = text.split(secret).join(REDACTED);
  }
  return text;
}
