// What a live run's stream shows that its translator was not written for:
// native types outside the backend's catalog (a failure of that release) and,
// where the run kept the native objects (--raw), top-level fields it does not
// read (counted, for the person moving the pin).
import type { NativeCatalog } from "../../../src/backends/definition.js";
import { BACKENDS } from "../../../src/backends/registry.js";

// biome-ignore lint/suspicious/noExplicitAny: any field of any canonical event
export type CanonicalLine = Record<string, any>;

export interface Drift {
  /** False where the backend declares no catalog: nothing was checked. */
  catalog: boolean;
  /** Native types kept as backend.event that the catalog does not name. */
  unknownTypes: string[];
  /** By native type, the top-level fields present that the translator does not read. */
  unreadFields: Record<string, string[]>;
}

export function catalogOf(backend: string): NativeCatalog | undefined {
  return BACKENDS.find((b) => b.name === backend)?.nativeCatalog;
}

export function driftOf(events: CanonicalLine[], catalog: NativeCatalog | undefined): Drift {
  if (!catalog) return { catalog: false, unknownTypes: [], unreadFields: {} };
  const unknown = new Set<string>();
  const unread = new Map<string, Set<string>>();
  for (const event of events) {
    if (event.type === "backend.event" && !Object.hasOwn(catalog, event.native_type)) unknown.add(event.native_type);
    const raw = event.raw;
    if (typeof raw !== "object" || raw === null || Array.isArray(raw) || typeof raw.type !== "string") continue;
    const read = catalog[raw.type];
    // A type kept whole as backend.event loses nothing: only the fields of translated types count.
    if (!read || read.length === 0) continue;
    for (const field of Object.keys(raw)) {
      if (read.includes(field)) continue;
      if (!unread.has(raw.type)) unread.set(raw.type, new Set());
      unread.get(raw.type)!.add(field);
    }
  }
  const unreadFields = Object.fromEntries([...unread].map(([type, fields]) => [type, [...fields].sort()]).sort());
  return { catalog: true, unknownTypes: [...unknown].sort(), unreadFields };
}
