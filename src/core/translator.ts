import type {
  AgentRef,
  BackendExit,
  ErrorInfo,
  EventPayloads,
  EventType,
  RunStatus,
  Detection,
} from "../canonical/events.js";

/** A parsed native line: a JSON object with a string `type`. */
export interface NativeEvent {
  type: string;
  [field: string]: unknown;
}

/** One event type's draft: its payload is that type's. */
interface DraftOf<T extends EventType> {
  type: T;
  payload: EventPayloads[T];
  /** The native type it came from; absent for events agentstream made up. */
  native?: string;
  synthetic?: true;
  agent?: AgentRef;
  /** The time the native event itself states (native_ts), where it states one. */
  nativeTs?: string;
  /** On session.started: the backend began another session of the same run; its outcome and usage are the last session's. */
  newSession?: true;
  /** It holds the user's own words (an ACP agent's user_message_chunk): left out, as prompts are, under promptInStream false. */
  userWords?: true;
}

/**
 * A canonical event before the shared envelope (seq, ts, run_id, ...) is stamped on:
 * a union over the event types, so `switch (draft.type)` narrows the payload.
 */
export type Draft<T extends EventType = EventType> = { [K in T]: DraftOf<K> }[T];

/** Build a draft with its payload type-checked against its event type. */
export function draft<T extends EventType>(
  type: T,
  payload: EventPayloads[T],
  meta: { native?: string; synthetic?: true; agent?: AgentRef; nativeTs?: string; newSession?: true } = {},
): Draft<T> {
  return { type, payload, ...meta };
}

/** A native event kept whole, as data: backend.event. */
export function passThrough(e: NativeEvent): Draft<"backend.event"> {
  return draft("backend.event", { native_type: e.type, raw: e }, { native: e.type });
}

/** What is known of how the native stream ended, handed to a translator's finish: the process's exit, its stderr tail, its usage file. */
export interface StreamEndFacts {
  /** How the backend process ended; null when unknown (a recording without --backend-exit). */
  backendExit: BackendExit | null;
  /** The last lines of the backend's stderr, oldest first. */
  stderrTail: string[];
  /** The text of the usage file the backend wrote beside its stream, where it writes one and it was there. */
  usageFile?: string;
}

/** What a translator concluded from a terminal native event. */
export interface Outcome {
  status: RunStatus;
  error?: ErrorInfo;
  resultText: string | null;
  /**
   * The backend's native structured result (Claude Code's `structured_output`), where its terminal event gives
   * one: with --output-schema it is the answer validated, before the text. Wrapped: null is a value.
   */
  structured?: { value: unknown };
}

export interface ResumeHint {
  session_id: string;
  hint: string;
}

/** What a translator's finish concludes: the closing drafts, the outcome its terminal event gave, how to resume. */
export interface TranslatorConclusion {
  /** Closing events the protocol needs (text chunks still to assemble, ...). */
  drafts: Draft[];
  /** The outcome, or undefined when the stream had no terminal event. */
  outcome: Outcome | undefined;
  /** How to resume the backend's session, where it told us. */
  resume?: ResumeHint;
}

/**
 * One backend protocol as a small state machine: `translate` takes one native
 * event and returns its canonical drafts; `finish` closes what the protocol left
 * open. The envelope, counts and closing of tool calls live in CanonicalStream.
 */
export interface Translator {
  /** The protocol it reads (backends that share one share a translator). */
  readonly protocol: string;
  /** False where the backend is known to leave model calls out of its usage reports. */
  readonly usageComplete: boolean;
  /** True where the backend told usage only as something else than tokens (context fill): totals unknown. */
  readonly usageUntold?: boolean;
  /** True once the backend produced an event beyond its start-up header. */
  readonly started: boolean;
  translate(event: NativeEvent): Draft[];
  /**
   * The time a native event states, as native_ts (see nativeTime in fields.ts), where the
   * protocol states one: the session stamps it on every draft translated from that event.
   */
  nativeTime?(event: NativeEvent): string | undefined;
  finish(end: StreamEndFacts): TranslatorConclusion;
}

/** Which backend wrote a stream, and how sure that is (run.started.detection). */
export interface Verdict {
  backend: string;
  detection: Detection;
}

/** Tells the backend from what a stream carries, one event at a time. */
export interface BackendDetector {
  /** Look at one event; the verdict once the content decided it. */
  see(event: NativeEvent): Verdict | undefined;
  /** The best guess when the content did not decide (the stream ended, or what may be held is spent). */
  guess(ended: boolean): Verdict;
  readonly decided: Verdict | undefined;
  /** Whether any event had a native type of a backend we know. */
  readonly showedNative: boolean;
  /** The protocol the content showed, if any, before it told which of its backends wrote it. */
  readonly protocolFamily: string | undefined;
  /** Events with the canonical envelope seen before the backend showed: agentstream's own output. */
  readonly canonicalEvents: number;
  /** The first few native types seen before the content decided (what a guess was made from). */
  readonly typesSeen: readonly string[];
}

/** How a translation session finds translators and detectors: the registry of backends, handed down by the layer that knows it. */
export interface TranslatorCatalog {
  create(backend: string): Translator;
  /** A fresh detector for one stream. */
  detector(): BackendDetector;
}

/** @deprecated use StreamEndFacts */
export type StreamEnd = StreamEndFacts;
/** @deprecated use TranslatorConclusion */
export type Ending = TranslatorConclusion;
