// The validator compiled at build time (one per event type, picked by `type`)
// must judge every event exactly as the published schema does.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { publishedValidator } from "./helpers/verify.js";

const GOLDEN = fileURLToPath(new URL("./fixtures/golden/", import.meta.url));
const BUILT = new URL("../dist/schema/canonical-validator.generated.js", import.meta.url).href;

function goldenEvents(): Record<string, unknown>[] {
  return readdirSync(GOLDEN).flatMap((protocol) =>
    readdirSync(join(GOLDEN, protocol))
      .filter((f) => f.endsWith(".canonical.jsonl"))
      .flatMap((f) => readFileSync(join(GOLDEN, protocol, f), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>)),
  );
}

/** Each event, then variants with one field removed or given a value of another type. */
function* variants(event: Record<string, unknown>): Generator<unknown> {
  yield event;
  for (const key of Object.keys(event)) {
    const { [key]: _, ...without } = event;
    yield without;
    for (const value of [null, "x", "", 0, -1, 1.5, true, [], {}, { code: null, signal: "SIGTERM" }]) yield { ...event, [key]: value };
  }
  yield { ...event, type: "something.new" };
  yield { ...event, extra_field: 1 };
}

describe("the built validator", () => {
  it("agrees with the published schema on every golden event and thousands of broken ones", async () => {
    const built = (await import(BUILT)) as { default: (event: unknown) => boolean };
    let checked = 0;
    let invalid = 0;
    for (const event of goldenEvents()) {
      for (const candidate of variants(event)) {
        const expected = publishedValidator(candidate);
        expect(built.default(candidate), JSON.stringify(candidate).slice(0, 300)).toBe(expected);
        checked++;
        if (!expected) invalid++;
      }
    }
    expect(checked).toBeGreaterThan(10_000);
    expect(invalid).toBeGreaterThan(5_000);
  });
});
