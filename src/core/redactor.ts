export const REDACTED = "[redacted]";
// Shorter values ("1", "true") would blank out ordinary words rather than hide anything.
export const MIN_SECRET_LENGTH = 6;

/**
 * The one place where secrets leave what agentstream writes: built once per
 * run from the secret values it knows (secret flags' values, secret-looking
 * environment variables), applied to every stdout line and stderr write.
 */
export class Redactor {
  private readonly plain: string[];
  // As the secret appears inside a JSON string: the redacted line stays valid JSON.
  private readonly escaped: string[];

  constructor(secrets: Iterable<string>) {
    // The longest first: a secret that contains another is hidden whole.
    this.plain = [...new Set(secrets)].filter((secret) => secret.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
    this.escaped = [...new Set(this.plain.map((secret) => JSON.stringify(secret).slice(1, -1)))].sort((a, b) => b.length - a.length);
  }

  /** Text as written to a terminal or a plain stream. */
  text(text: string): string {
    return replaceAll(text, this.plain);
  }

  /** A serialized JSON line (a canonical event, the --output json document). */
  jsonLine(line: string): string {
    return replaceAll(line, this.escaped);
  }

  /** The stream, with every string written through it redacted (its other members untouched). */
  stream<S extends NodeJS.WritableStream>(target: S): S {
    if (this.plain.length === 0) return target;
    const write = (chunk: unknown, ...rest: unknown[]): boolean =>
      (target.write as (...args: unknown[]) => boolean)(this.text(typeof chunk === "string" ? chunk : Buffer.isBuffer(chunk) ? chunk.toString("utf8") : String(chunk)), ...rest);
    return new Proxy(target, {
      get(object, property) {
        if (property === "write") return write;
        const value = Reflect.get(object, property, object) as unknown;
        return typeof value === "function" ? value.bind(object) : value;
      },
    });
  }
}

function replaceAll(text: string, secrets: readonly string[]): string {
  for (const secret of secrets) {
    if (text.includes(secret)) text = text.split(secret).join(REDACTED);
  }
  return text;
}
