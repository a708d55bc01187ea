/**
 * The envelope across lines: seq counts up by 1, ts and elapsed_ms never go
 * back, run_id and backend never change, session_id never changes or
 * disappears once present. Fields of the wrong type are left to the schema.
 */
export class EnvelopeRules {
  private lastSeq: number | undefined;
  private readonly ts = new NonDecreasing("ts");
  private readonly elapsed = new NonDecreasing("elapsed_ms");
  private readonly runId = new FixedField("run_id");
  private readonly backend = new FixedField("backend");
  private readonly sessionId = new FixedField("session_id", { mustStay: true });

  /** Problem messages for one line's envelope. */
  check(event: Record<string, unknown>, line: number): string[] {
    const out: string[] = [];
    const add = (message: string | undefined): void => {
      if (message !== undefined) out.push(message);
    };
    add(this.checkSeq(event.seq));
    if (typeof event.ts === "string") add(this.ts.check(Date.parse(event.ts), event.ts, line));
    if (Number.isInteger(event.elapsed_ms))
      add(this.elapsed.check(event.elapsed_ms as number, String(event.elapsed_ms), line));
    add(this.runId.check(event.run_id, line));
    add(this.backend.check(event.backend, line));
    add(this.sessionId.check(event.session_id, line));
    return out;
  }

  // Line against line, as the rule says: a dropped line is one problem, a swapped pair three.
  private checkSeq(seq: unknown): string | undefined {
    if (!Number.isInteger(seq)) return undefined;
    const last = this.lastSeq;
    this.lastSeq = seq as number;
    if (last === undefined)
      return seq === 1 ? undefined : `seq is ${seq as number}, but the first line must have seq 1`;
    return seq === last + 1 ? undefined : `seq is ${seq as number} after seq ${last}, but must be ${last + 1}`;
  }
}

/** Compared with the previous line, not the largest value seen, so one odd line does not flag every line after it. */
class NonDecreasing {
  private last: { value: number; shown: string; line: number } | undefined;

  constructor(private readonly name: string) {}

  check(value: number, shown: string, line: number): string | undefined {
    if (Number.isNaN(value)) return undefined;
    const last = this.last;
    this.last = { value, shown, line };
    if (last === undefined || value >= last.value) return undefined;
    return `${this.name} goes back: ${shown} comes after ${last.shown} on line ${last.line}, but must never decrease`;
  }
}

/** A string that keeps its first value; with mustStay, it may not disappear either. */
class FixedField {
  private first: { value: string; line: number } | undefined;

  constructor(
    private readonly name: string,
    private readonly options: { mustStay?: boolean } = {},
  ) {}

  check(value: unknown, line: number): string | undefined {
    const first = this.first;
    if (value === undefined) {
      return first && this.options.mustStay
        ? `${this.name} is missing, but once present (since line ${first.line}) it must stay`
        : undefined;
    }
    if (typeof value !== "string") return undefined;
    if (first === undefined) {
      this.first = { value, line };
      return undefined;
    }
    if (value === first.value) return undefined;
    return `${this.name} is ${JSON.stringify(value)}, but was ${JSON.stringify(first.value)} on line ${first.line} and must not change`;
  }
}
