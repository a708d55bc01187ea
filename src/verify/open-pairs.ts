export interface PairNames {
  started: string;
  completed: string;
  /** What one pair is, as in "tool call". */
  what: string;
}

/**
 * Pairs each start with exactly one completion by id. Keeps the open ids and
 * the completed ones (to tell a double completion from one that never started).
 */
export class OpenPairs {
  private readonly open = new Map<string, number>();
  private readonly completed = new Map<string, number>();

  constructor(private readonly names: PairNames) {}

  /** A problem message, or undefined when the start is fine. */
  start(id: string, line: number): string | undefined {
    const startedAt = this.open.get(id);
    if (startedAt !== undefined) {
      return `${this.names.started} for ${this.names.what} ${JSON.stringify(id)}, which is already open (started at line ${startedAt})`;
    }
    this.completed.delete(id);
    this.open.set(id, line);
    return undefined;
  }

  /** A problem message, or undefined when the completion is fine. */
  complete(id: string, line: number): string | undefined {
    if (this.open.delete(id)) {
      this.completed.set(id, line);
      return undefined;
    }
    const completedAt = this.completed.get(id);
    if (completedAt !== undefined) {
      return `second ${this.names.completed} for ${this.names.what} ${JSON.stringify(id)} (first at line ${completedAt})`;
    }
    return `${this.names.completed} for ${this.names.what} ${JSON.stringify(id)}, which never started`;
  }

  /** One message per pair still open. */
  stillOpen(): string[] {
    return [...this.open].map(
      ([id, line]) =>
        `${this.names.what} ${JSON.stringify(id)} (started at line ${line}) has no ${this.names.completed} before run.finished`,
    );
  }
}
