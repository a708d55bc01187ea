import type { CanonicalEvent } from "../../../src/canonical/events.js";
import { toJsonl } from "../translate.js";

/** A broken property: fast-check catches the throw, shrinks the case and prints it. */
export function fail(message: string): never {
  throw new Error(message);
}

/** The events, as JSONL, must be exactly `expected`; else say where they first differ. */
export function sameOutput(expected: string, events: CanonicalEvent[], how: string): void {
  const actual = toJsonl(events);
  if (actual === expected) return;
  const a = actual.split("\n");
  const e = expected.split("\n");
  const at = e.findIndex((line, i) => line !== a[i]);
  fail(
    `output differs when ${how}, first at line ${at + 1}:\n  expected ${e[at]?.slice(0, 400)}\n  actual   ${a[at]?.slice(0, 400)}`,
  );
}
