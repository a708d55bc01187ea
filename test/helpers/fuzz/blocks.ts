import fc from "fast-check";
import type { NativeEvent } from "../../../src/core/translator.js";
import { anyText } from "./text.js";
import { anyJson } from "./wild.js";

/** Give each block its own ids: "#" in a top-level string field becomes the block's number. */
export function numberBlocks(blocks: NativeEvent[][]): NativeEvent[] {
  return blocks.flatMap((block, n) =>
    block.map((event) => {
      const out: NativeEvent = { ...event };
      for (const [key, value] of Object.entries(out))
        if (typeof value === "string" && value.includes("#")) out[key] = value.replaceAll("#", String(n));
      return out;
    }),
  );
}

// Neither protocol knows these; a random type string almost never collides with a known one.
const unknownType = fc.oneof(
  fc.constantFrom("memory_flush", "future_event", "Text", "done_v2", "__proto__", "constructor", "toString"),
  anyText.filter((t) => t !== ""),
);

/** A type the translator has never heard of, with any fields. */
export const unknownEvent: fc.Arbitrary<NativeEvent> = fc
  .tuple(unknownType, fc.dictionary(fc.string({ maxLength: 6 }), anyJson, { maxKeys: 3 }))
  .map(([type, fields]) => ({ ...fields, type }));
