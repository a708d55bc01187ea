import type { CanonicalEvent } from "../canonical/events.js";

/**
 * Why an object read from a canonical stream is not a canonical event (it
 * lacks the envelope every line carries: `v: 1`, `seq`, `run_id`, `type`), or
 * undefined when it is one. A report reads events; the stream rules are
 * `agentstream verify`'s to check.
 */
export function envelopeProblem(event: CanonicalEvent): string | undefined {
  const e = event as unknown as Record<string, unknown>;
  const missing = [
    e.v === 1 ? undefined : '"v": 1',
    typeof e.seq === "number" ? undefined : "seq",
    typeof e.run_id === "string" ? undefined : "run_id",
    typeof e.type === "string" ? undefined : "type",
  ].filter((m) => m !== undefined);
  return missing.length === 0 ? undefined : `no ${missing.join(", ")}`;
}
