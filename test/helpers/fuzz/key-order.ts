import type { CanonicalEvent } from "../../../src/canonical/events.js";

const ENVELOPE_HEAD = ["v", "seq", "ts", "elapsed_ms", "run_id", "backend", "type"];
const ENVELOPE_OPTIONAL = ["session_id", "agent"];
const ENVELOPE_TAIL = ["native", "native_ts", "synthetic", "raw"];

/** The contract's key order: envelope, session_id and agent when present, payload, then native, native_ts, synthetic, raw. */
export function keyOrderProblem(event: CanonicalEvent): string | undefined {
  const keys = Object.keys(event);
  if (keys.slice(0, ENVELOPE_HEAD.length).join() !== ENVELOPE_HEAD.join())
    return `envelope keys ${keys.slice(0, 7).join(",")}`;
  const rest = keys.slice(ENVELOPE_HEAD.length);
  const optional = ENVELOPE_OPTIONAL.filter((k) => k in event);
  if (rest.slice(0, optional.length).join() !== optional.join())
    return `session_id/agent out of place: ${keys.join(",")}`;
  // backend.event's raw is its payload, not the --raw copy.
  const tail = ENVELOPE_TAIL.filter((k) => k in event && !(k === "raw" && event.type === "backend.event"));
  if (keys.slice(keys.length - tail.length).join() !== tail.join())
    return `native/native_ts/synthetic/raw out of place: ${keys.join(",")}`;
  return undefined;
}
