import type { Backend, CanonicalEvent, EventPayloads } from "../canonical/events.js";
import { passThrough, type Draft, type NativeEvent, type StreamEnd, type Translator, type TranslatorCatalog } from "./translator.js";
import { CanonicalStream } from "./canonical-stream.js";
import type { Clock } from "./clock.js";
import { LineSplitter, type Line } from "./line-splitter.js";
import { capLine, parseNativeLine, type ParsedLine } from "./native-line.js";
import { resolveOutcome, type Interruption, type OwnFailure, type ResolvedOutcome } from "./outcome.js";

export interface TranslationSessionOptions {
  /** A backend's name, or "auto" to detect it from the stream. */
  from: string;
  /** Where translators come from (the backend registry). */
  translators: TranslatorCatalog;
  runId: string;
  clock: Clock;
  started: Omit<EventPayloads["run.started"], "agentstream_version">;
  agentstreamVersion: string;
  includeRaw?: boolean;
  deltas?: boolean;
  liveDurations?: boolean;
  maxLineBytes?: number;
  /** Receives each canonical event, in order, as soon as it exists. */
  sink: (event: CanonicalEvent) => void;
  /** Sees each parsed native event before it is translated (a live run watches for the terminal one). */
  onNativeEvent?: (event: NativeEvent) => void;
  /**
   * A translator threw on a native event: a bug in agentstream. The event is
   * kept as backend.event and the run goes on; this hears of it (default: a
   * process warning).
   */
  onTranslatorBug?: (message: string) => void;
}

// With --from auto, lines that are not JSON events are held until one is (then
// the backend is known); a stream that never shows one is read as the fallback. What
// is held is bounded in bytes, not lines: a line that would pass the bound
// decides (the fallback) instead of being held, so memory stays flat on garbage.
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
  private heldBytes = 0;
  private sawEvents = false;
  private sawGarbage = false;
  private done = false;

  constructor(private readonly options: TranslationSessionOptions) {
    this.splitter = new LineSplitter((line) => this.onLine(line), { maxLineBytes: options.maxLineBytes });
    if (options.from === "auto") this.held = [];
    else this.begin(options.from);
  }

  /** The backend, once known. */
  get backend(): Backend | undefined {
    return this.stream?.backend;
  }

  write(chunk: Buffer): void {
    this.splitter.push(chunk);
  }

  /**
   * The native stream ended: close everything and write run.finished. A
   * launch failure means the backend never ran (run.finished says backend_not_found).
   */
  end(end: StreamEnd, interruption?: Interruption, ownFailure?: OwnFailure): ResolvedOutcome {
    if (this.done) throw new Error("TranslationSession: end called twice");
    this.splitter.end();
    if (!this.stream) this.begin(this.options.translators.fallback);
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
    });
    for (const event of this.stream!.finish(outcome)) this.options.sink(event);
    return outcome;
  }

  private begin(backend: Backend): void {
    this.translator = this.options.translators.create(backend);
    this.stream = new CanonicalStream({
      backend,
      runId: this.options.runId,
      clock: this.options.clock,
      includeRaw: this.options.includeRaw,
      deltas: this.options.deltas,
      liveDurations: this.options.liveDurations,
    });
    this.options.sink(this.stream.start({ agentstream_version: this.options.agentstreamVersion, ...this.options.started }));
    const held = this.held;
    this.held = undefined;
    if (held) for (const line of held) this.onLine(line);
  }

  private onLine(line: Line): void {
    const parsed: ParsedLine = "overlong" in line ? { ok: false, reason: "line_too_long" } : parseNativeLine(line.text);
    if (this.held) {
      // Until a JSON event shows which backend wrote the stream, other lines wait.
      if (parsed.ok) this.begin(this.options.translators.detect(parsed.event));
      else if (this.hold(line)) return;
      else this.begin(this.options.translators.fallback);
    }
    if (!parsed.ok) {
      this.sawGarbage = true;
      return this.unparsed("overlong" in line ? line.preview : line.text, parsed.reason);
    }
    this.sawEvents = true;
    if (parsed.deep) this.stream!.capNesting();
    this.options.onNativeEvent?.(parsed.event);
    const raw = this.options.includeRaw ? parsed.event : undefined;
    for (const d of this.translate(parsed.event)) this.emit(d, raw);
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
    try {
      return this.translator!.translate(event);
    } catch (err) {
      const message = `bug: translating a ${JSON.stringify(event.type)} event failed (${(err as Error)?.message ?? String(err)}); it is kept as backend.event`;
      const report = this.options.onTranslatorBug ?? ((text: string) => process.emitWarning(text, "AgentstreamWarning"));
      report(message);
      return [passThrough(event)];
    }
  }

  private unparsed(text: string, reason: EventPayloads["backend.unparsed"]["reason"]): void {
    this.emit({ type: "backend.unparsed", payload: { line: capLine(text), reason } });
  }

  private emit(d: Draft, raw?: unknown): void {
    for (const event of this.stream!.push(d, raw)) this.options.sink(event);
  }
}
