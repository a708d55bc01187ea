import type { Envelope } from "./events.js";

type EnvelopeKey = keyof Envelope;

/** "required" where every line carries the key, "optional" where it may be absent: as Envelope says. */
type Presence = { [K in EnvelopeKey]-?: object extends Pick<Envelope, K> ? "optional" : "required" };

// Every key of Envelope, in the order CanonicalStream writes them, and whether a line must carry it.
// Typed by Envelope: a key added to it (or made optional, or renamed) and not here does not compile.
const PRESENCE: Presence = {
  v: "required",
  seq: "required",
  ts: "required",
  elapsed_ms: "required",
  run_id: "required",
  backend: "required",
  type: "required",
  session_id: "optional",
  agent: "optional",
  native: "optional",
  native_ts: "optional",
  synthetic: "optional",
  raw: "optional",
};

/** The envelope's keys, in the order CanonicalStream writes them. */
export const ENVELOPE_KEYS: readonly EnvelopeKey[] = Object.keys(PRESENCE) as EnvelopeKey[];

/** The keys every line carries, first and in this order. */
export const REQUIRED_ENVELOPE_KEYS: readonly EnvelopeKey[] = ENVELOPE_KEYS.filter((k) => PRESENCE[k] === "required");

export type { EnvelopeKey };
