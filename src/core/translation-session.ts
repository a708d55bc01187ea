import type { CanonicalEvent, Detection, EventPayloads } from "../canonical/events.js";
import {
  passThrough,
  type BackendDetector,
  type Draft,
  type NativeEvent,
  type StreamEndFacts,
  type Translator,
  type TranslatorCatalog,
  type Verdict,
} from "./translator.js";
import { CanonicalStream } from "./canonical-stream.js";
import type { Clock } from "./clock.js";
import { LineSplitter, type Line } from "./line-splitter.js";
import { clip } from "./clip.js";
import { capLine, parseNativeLine, type ParsedLine } from "./native-line.js";
import { resolveOutcome, withAnswerVerdict, type Interruption, type OwnFailure, type RunOutcome } from "./outcome.js";
import type { AnswerSchema } from "../schema/output-schema.js";
import { checkAnswer } from "./answer-check.js";
import { MAX_PROMPT_EVENT_CHARS, shortenedPrompt } from "./prompt-text.js";
import { RefusedRunWatch } from "./refused-runs.js";

// A translator's failures said on stderr: the first few, each cut (a native type or message may be huge).
const MAX_BUG_REPORTS = 10;
const MAX_SHOWN_TYPE = 120;
const MAX_SHOWN_REASON = 500;

export interface TranslationSessionOptions {
  /** A backend's name, or "auto" to detect it from the stream. */
  from: string;
  /** Where translators come from (the backend registry). */
  translators: TranslatorCatalog;
  runId: string;
  clock: Clock;
  started: Omit<EventPayloads["run.started"], "agentstream_version" | "detection">;
  agentstreamVersion: string;
  includeRaw?: boolean;
  deltas?: boolean;
  liveDurations?: boolean;
  /** The model of usage that names none (CanonicalStreamOptions.model). */
  model?: (sessionId: string | undefined) => string | undefined;
  maxLineBytes?: number;
  /** Receives each canonical event, in order, as soon as it exists. */
  sink: (event: CanonicalEvent) => void;
  /** Sees each parsed native event before it is translated (a live run watches for the terminal one). */
  onNativeEvent?: (event: NativeEvent) => void;
  /**
   * A driven run's driver reads each parsed native event here, before it is translated, so that it answers
   * what the stream shows (Driver.read): one it refuses is kept as data (backend.event), never translated.
   */
  admit?: (event: NativeEvent) => boolean;
  /**
   * A line longer than maxLineBytes, by its start (what is kept of it): a driven run's driver answers a request
   * it cannot read (Driver.overlong). The line is kept as backend.unparsed all the same.
   */
  overlong?: (preview: string) => void;
  /**
   * A translator threw on a native event: a bug in agentstream. The event is
   * kept as backend.event and the run goes on; this hears of it. The host says
   * where it goes (the CLI's stderr, the library's caller or a process warning):
   * the core prints nothing itself.
   */
  onTranslatorBug: (message: string) => void;
  /**
   * Hides secrets in what a bug report quotes (an event's type, a translator's error), before it is
   * cut: a secret cut in two would be found by no redactor after (default: nothing hidden).
   */
  redact?: (text: string) => string;
  /** With from "auto": the content could not tell the backend, run.started names the best guess. */
  onGuess?: (verdict: Verdict) => void;
  /** --output-schema: the schema a succeeded run's answer must match. */
  outputSchema?: AnswerSchema;
  /**
   * The prompt agentstream gave the backend (a run): written as prompt.submitted right after run.started,
   * and the native stream's echo of a user message is then not written again.
   */
  prompt?: string;
  /** False: no prompt.submitted at all (a user who must not record prompts). Default true. */
  promptInStream?: boolean;
}

// With --from auto, lines are held until their content shows the backend (see
// BackendDetector: for pi or Atomic that can take until the first agent_settled);
// a stream that never shows it gets the best guess. What is held is bounded in
// bytes, not lines: a line that would pass the bound makes the guess instead of
// being held, so memory stays flat.
export const MAX_HELD_BYTES = 1024 * 1024;
// What a held line costs besides its text (the object and the array slot), roughly.
const HELD_LINE_OVERHEAD = 64;

/**
 * Native bytes in, canonical events out: framing, parsing, the backend's
 * translator and the shared CanonicalStream, wired together. One per run.
 */
export class TranslationSession {
  private readonly splitter: LineSplitter;
  private translator: Translator | undefined;
  private stream: CanonicalStream | undefined;
  private held: Line[] | undefined;
  /** Watches the content until it decides: to detect (from auto), or to hint when --from looks wrong. */
  private readonly detector: BackendDetector;
  private how: Detection | undefined;
  private heldBytes = 0;
  private sawEvents = false;
  private sawGarbage = false;
  private done = false;
  private bugsReported = 0;
  /** Refused calls the agent ran, as the events written show them: the outcome reads them. */
  private readonly refused = new RefusedRunWatch();

  constructor(private readonly options: TranslationSessionOptions) {
    this.detector = options.translators.detector();
    this.splitter = new LineSplitter((line) => this.onLine(line), { maxLineBytes: options.maxLineBytes });
    if (options.from === "auto") this.held = [];
    else this.begin({ backend: options.from, detection: "given" });
  }

  /** The backend, once known. */
  get backend(): string | undefined {
    return this.stream?.backend;
  }

  /** How the backend was known (run.started.detection), once it is. */
  get detection(): Detection | undefined {
    return this.how;
  }

  /** What the content showed so far, whatever --from said. */
  get content(): BackendDetector {
    return this.detector;
  }

  write(chunk: Buffer): void {
    this.splitter.push(chunk);
  }

  /** The input ended, though the session goes on (a driven backend's stdout closed): its last line, one with no newline, is read now. */
  flush(): void {
    if (!this.done) this.splitter.end();
  }

  /**
   * What the client side said, which the backend's stdout does not hold (a driver's answer to a
   * permission request): translated between the backend's lines, by the same translator.
   */
  note(event: NativeEvent): void {
    if (this.done || !this.stream) return;
    const raw = this.options.includeRaw ? event : undefined;
    for (const d of this.translate(event)) this.emit(d, raw);
  }

  /**
   * The native stream ended: close everything and write run.finished. A
   * launch failure means the backend never ran (run.finished says backend_not_found).
   * A session given an output schema ends with endChecked().
   */
  end(end: StreamEndFacts, interruption?: Interruption, ownFailure?: OwnFailure): RunOutcome {
    if (this.options.outputSchema)
      throw new Error("TranslationSession: a session with an output schema ends with endChecked");
    return this.finish(this.close(end, interruption, ownFailure).outcome);
  }

  /**
   * As end(), and with an output schema a succeeded run's answer is checked first (`check.started` hears
   * when): aborting `check.stop` (its reason the Interruption) stops that check, and the run ends as that
   * interruption says.
   */
  async endChecked(
    end: StreamEndFacts,
    interruption?: Interruption,
    ownFailure?: OwnFailure,
    check: { stop?: AbortSignal; started?(): void } = {},
  ): Promise<RunOutcome> {
    const { outcome, structured } = this.close(end, interruption, ownFailure);
    const schema = this.options.outputSchema;
    // Only a succeeded run's answer is checked: one that failed for another reason keeps its own error.
    if (!schema || outcome.status !== "succeeded") return this.finish(outcome);
    check.started?.();
    const verdict = await checkAnswer(schema, outcome.resultText, structured, check.stop);
    return this.finish(withAnswerVerdict(outcome, verdict));
  }

  /** The translator's last drafts written, and the outcome decided: all of run.finished but the answer's check. */
  private close(
    end: StreamEndFacts,
    interruption: Interruption | undefined,
    ownFailure: OwnFailure | undefined,
  ): { outcome: RunOutcome; structured?: { value: unknown } } {
    if (this.done) throw new Error("TranslationSession: end called twice");
    this.splitter.end();
    if (!this.stream) this.guess(true);
    this.done = true;
    const translator = this.translator!;
    const ending = translator.finish(end);
    for (const d of ending.drafts) this.emit(d);
    const outcome = resolveOutcome({
      terminal: ending.outcome,
      resume: ending.resume,
      end,
      interruption,
      ownFailure,
      sawEvents: this.sawEvents,
      sawGarbage: this.sawGarbage,
      started: translator.started,
      usageComplete: translator.usageComplete,
      usageUntold: translator.usageUntold === true,
      refusedRuns: this.refused.facts,
    });
    return { outcome, ...(ending.outcome?.structured ? { structured: ending.outcome.structured } : {}) };
  }

  private finish(outcome: RunOutcome): RunOutcome {
    for (const event of this.stream!.finish(outcome)) this.options.sink(event);
    return outcome;
  }

  private guess(ended: boolean): void {
    const verdict = this.detector.guess(ended);
    this.begin(verdict);
    this.options.onGuess?.(verdict);
  }

  private begin({ backend, detection }: Verdict): void {
    this.how = detection;
    this.translator = this.options.translators.create(backend);
    this.stream = new CanonicalStream({
      backend,
      runId: this.options.runId,
      clock: this.options.clock,
      includeRaw: this.options.includeRaw,
      deltas: this.options.deltas,
      liveDurations: this.options.liveDurations,
      model: this.options.model,
    });
    this.options.sink(
      this.stream.start({ agentstream_version: this.options.agentstreamVersion, ...this.options.started, detection }),
    );
    if (this.options.prompt !== undefined && this.options.promptInStream !== false)
      this.push(this.bounded({ type: "prompt.submitted", payload: { text: this.options.prompt } }));
    const held = this.held;
    this.held = undefined;
    if (held) for (const line of held) this.onLine(line, true);
  }

  private onLine(line: Line, replayed = false): void {
    const parsed: ParsedLine = "overlong" in line ? { ok: false, reason: "line_too_long" } : parseNativeLine(line.text);
    // A held line replayed once the backend is known was seen already.
    const verdict = parsed.ok && !replayed && !this.detector.decided ? this.detector.see(parsed.event) : undefined;
    if (this.held) {
      // Until the content shows which backend wrote the stream, lines wait.
      if (verdict) this.begin(verdict);
      else if (this.hold(line)) return;
      else this.guess(false);
    }
    if (!parsed.ok) {
      this.sawGarbage = true;
      if ("overlong" in line && !replayed) this.options.overlong?.(line.preview);
      return this.unparsed("overlong" in line ? line.preview : line.text, parsed.reason);
    }
    this.sawEvents = true;
    if (parsed.deep) this.stream!.capNesting();
    this.options.onNativeEvent?.(parsed.event);
    const raw = this.options.includeRaw ? parsed.event : undefined;
    const admitted = this.options.admit?.(parsed.event) ?? true;
    for (const d of admitted ? this.translate(parsed.event) : [passThrough(parsed.event)]) this.emit(d, raw);
  }

  /** Holds a line for detection, unless that would pass MAX_HELD_BYTES. */
  private hold(line: Line): boolean {
    const bytes = ("overlong" in line ? line.preview.length : line.text.length) + HELD_LINE_OVERHEAD;
    if (this.heldBytes + bytes > MAX_HELD_BYTES) return false;
    this.heldBytes += bytes;
    this.held!.push(line);
    return true;
  }

  private translate(event: NativeEvent): Draft[] {
    const translator = this.translator!;
    try {
      const drafts = translator.translate(event);
      const at = translator.nativeTime?.(event);
      if (at !== undefined) for (const d of drafts) d.nativeTs = at;
      return drafts;
    } catch (err) {
      this.reportBug(event, err);
      return [passThrough(event)];
    }
  }

  /** A translator's failure, said for the first few events only and cut: a stream may trip it on every line. */
  private reportBug(event: NativeEvent, err: unknown): void {
    const report = this.options.onTranslatorBug;
    const redact = this.options.redact ?? ((text: string) => text);
    if (this.bugsReported > MAX_BUG_REPORTS) return;
    if (this.bugsReported++ === MAX_BUG_REPORTS) {
      report(`bug: more events failed to translate; they are kept as backend.event, not reported one by one`);
      return;
    }
    const type = JSON.stringify(clip(redact(event.type), MAX_SHOWN_TYPE));
    const reason = clip(redact((err as Error)?.message ?? String(err)), MAX_SHOWN_REASON);
    report(`bug: translating a ${type} event failed (${reason}); it is kept as backend.event`);
  }

  private unparsed(text: string, reason: EventPayloads["backend.unparsed"]["reason"]): void {
    this.emit({ type: "backend.unparsed", payload: { line: capLine(text), reason } });
  }

  /**
   * A translator's draft: a user message it read is the prompt only where agentstream did not give one
   * (normalize); none, nor the user's words in another shape, where prompts are left out.
   */
  private emit(d: Draft, raw?: unknown): void {
    // The user's words the agent tells back (a loaded session's prompts) go where the prompt goes.
    if (d.userWords && this.options.promptInStream === false) return;
    if (d.type !== "prompt.submitted") return this.push(d, raw);
    if (this.options.promptInStream !== false && this.options.prompt === undefined) this.push(this.bounded(d), raw);
  }

  private push(d: Draft, raw?: unknown): void {
    for (const event of this.stream!.push(d, raw)) {
      this.refused.see(event);
      this.options.sink(event);
    }
  }

  /**
   * A prompt as the stream carries it: its secrets hidden before it is cut (a secret cut in two would be found
   * by no redactor after), then bounded; `bytes` is the prompt's own size, not the redacted text's.
   */
  private bounded(d: Draft<"prompt.submitted">): Draft<"prompt.submitted"> {
    const redact = this.options.redact ?? ((text: string) => text);
    return { ...d, payload: shortenedPrompt(redact(d.payload.text), MAX_PROMPT_EVENT_CHARS, d.payload.text) };
  }
}
