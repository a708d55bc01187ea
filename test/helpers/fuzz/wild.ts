import fc from "fast-check";
import type { NativeEvent } from "../../../src/core/translator.js";

const extraKey = fc.oneof(
  fc.constantFrom("extra", "__proto__", "constructor", "native", "seq", "raw", "v", "id", "content", "message"),
  fc.string({ maxLength: 6 }),
);

/** Any JSON value, with numbers at the edges (huge, negative, fractional) more often than by chance. */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(1e308, -1, 0.5, Number.MAX_SAFE_INTEGER, 2 ** 63, -0, 1e-320),
);

type Json = Record<string, unknown> | unknown[];
const isContainer = (v: unknown): v is Json => typeof v === "object" && v !== null;

/** Set an own property, even one named __proto__ (as JSON.parse does). */
function setOwn(o: Json, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Replace the value found by following `steps` (each picks a key, modulo the count) down from the top. */
function replaceDeep(top: Record<string, unknown>, steps: number[], value: unknown): void {
  let node: Json = top;
  for (const [depth, step] of steps.entries()) {
    const keys = Object.keys(node).filter((k) => !(node === top && k === "type"));
    if (keys.length === 0) return;
    const key = keys[step % keys.length]!;
    const child: unknown = (node as Record<string, unknown>)[key];
    if (depth === steps.length - 1 || !isContainer(child)) return setOwn(node, key, value);
    node = child;
  }
}

/** The event with unknown fields added and some values, at any depth, replaced by any JSON; `type` is kept. */
export function wildVariant(event: fc.Arbitrary<NativeEvent>): fc.Arbitrary<NativeEvent> {
  const replacements = fc.array(fc.tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), anyJson), {
    maxLength: 3,
  });
  const extras = fc.array(fc.tuple(extraKey, anyJson), { maxLength: 3 });
  return fc.tuple(event, replacements, extras).map(([e, replaced, added]) => {
    // A deep copy as JSON.parse would make it (own __proto__ keys stay own keys).
    const out = JSON.parse(JSON.stringify(e)) as NativeEvent;
    for (const [steps, value] of replaced) replaceDeep(out, steps, value);
    for (const [key, value] of added) if (key !== "type") setOwn(out, key, value);
    return out;
  });
}
