import type { CanonicalEvent } from "../canonical/events.js";
import type { Redactor } from "../core/redactor.js";
import { TranslationSession, type TranslationSessionOptions } from "../core/translation-session.js";
import type { Sink } from "./sink.js";

/**
 * The one composition of every output: native lines → translation
 * (TranslationSession) → redaction of each canonical event object, once,
 * before anything serializes or escapes it → fan-out to the sinks. A sink
 * that fails is said once on stderr, by name, and dropped: stdout, the other
 * sinks and the run's exit code are not affected.
 */
export class OutputPipeline {
  private readonly live: Sink[];
  private session: TranslationSession | undefined;

  constructor(
    private readonly redactor: Redactor,
    sinks: readonly (Sink | undefined)[],
    private readonly warn: (line: string) => void,
  ) {
    this.live = sinks.filter((sink): sink is Sink => sink !== undefined);
  }

  /**
   * The run's translation, feeding this pipeline. One per pipeline. `observe`
   * sees each event after the sinks (the run's limits watch it), unredacted.
   */
  translate(
    options: Omit<TranslationSessionOptions, "sink"> & { observe?: (event: CanonicalEvent) => void },
  ): TranslationSession {
    if (this.session) throw new Error("OutputPipeline: translate called twice");
    const { observe, ...session } = options;
    this.session = new TranslationSession({
      ...session,
      sink: (event) => {
        this.event(event);
        observe?.(event);
      },
    });
    return this.session;
  }

  /** One canonical event, redacted, to every sink still working. */
  event(event: CanonicalEvent): void {
    const hidden = this.redactor.value(event);
    for (const sink of [...this.live]) this.guard(sink, () => sink.event(hidden));
  }

  /** The run is over: each sink writes what it keeps; never rejects. */
  async end(): Promise<void> {
    for (const sink of [...this.live]) {
      try {
        await sink.end();
      } catch (err) {
        this.fail(sink, err);
      }
    }
    this.live.length = 0;
  }

  /** The run was refused: every sink leaves its file as it was. */
  close(): void {
    for (const sink of this.live) this.guard(sink, () => sink.close?.());
    this.live.length = 0;
  }

  private guard(sink: Sink, work: () => void): void {
    try {
      work();
    } catch (err) {
      this.fail(sink, err);
    }
  }

  private fail(sink: Sink, err: unknown): void {
    const index = this.live.indexOf(sink);
    if (index >= 0) this.live.splice(index, 1);
    sink.close?.();
    const reason = err instanceof Error ? err.message : String(err);
    this.warn(`agentstream: ${sink.name} failed: ${reason}; the run itself is not affected\n`);
  }
}
