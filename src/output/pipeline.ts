import type { CanonicalEvent } from "../canonical/events.js";
import { serializeEvent } from "../canonical/serialize.js";
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
  /** Replaced, never changed in place, when a sink fails: a loop over it is not disturbed. */
  private live: readonly Sink[];
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
      redact: (text) => this.redactor.text(text),
      ...session,
      sink: (event) => {
        this.event(event);
        observe?.(event);
      },
    });
    return this.session;
  }

  /**
   * One canonical event, redacted, to every sink still working. It is
   * serialized once, here: the redactor scans that text (an event that holds
   * nothing to hide is not walked), and stdout writes it.
   */
  event(event: CanonicalEvent): void {
    const line = serialized(event);
    const hidden = line !== undefined && !this.redactor.mayHide(line) ? event : this.redactor.value(event);
    // A redacted copy is serialized again by the sink that needs its text.
    const text = hidden === event ? line : undefined;
    // fail() replaces the list: this loop goes over the one it started with.
    for (const sink of this.live) {
      try {
        sink.event(hidden, text);
      } catch (err) {
        this.fail(sink, err);
      }
    }
  }

  /** The run is over: each sink writes what it keeps; never rejects. */
  async end(): Promise<void> {
    for (const sink of this.live) {
      try {
        await sink.end();
      } catch (err) {
        this.fail(sink, err);
      }
    }
    this.live = [];
  }

  /** The run was refused: every sink leaves its file as it was. */
  close(): void {
    for (const sink of this.live) {
      try {
        sink.close?.();
      } catch (err) {
        this.fail(sink, err);
      }
    }
    this.live = [];
  }

  private fail(sink: Sink, err: unknown): void {
    this.live = this.live.filter((other) => other !== sink);
    sink.close?.();
    const reason = err instanceof Error ? err.message : String(err);
    this.warn(`agentstream: ${sink.name} failed: ${reason}; the run itself is not affected\n`);
  }
}

/** The event's line, or undefined when it cannot be serialized (each sink then finds out for itself). */
function serialized(event: CanonicalEvent): string | undefined {
  try {
    return serializeEvent(event);
  } catch {
    return undefined;
  }
}
