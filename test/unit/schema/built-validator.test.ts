// The validator compiled at build time (one per event type, picked by `type`)
// must judge every event exactly as the published schema does.
import { describe, expect, it } from "vitest";
import { goldenEvents, variants } from "../../helpers/golden-events.js";
import { publishedValidator } from "../../helpers/verify.js";

const BUILT = new URL("../../../dist/schema/canonical-validator.generated.js", import.meta.url).href;

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
