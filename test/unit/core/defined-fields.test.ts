// defined() is the one helper that leaves out the fields nothing was said of, for translators,
// the report and the ATIF export alike (issue 54: three helpers of that name did it two ways).
import { describe, expect, it } from "vitest";
import { defined } from "../../../src/core/fields.js";

describe("defined", () => {
  it("deletes the undefined fields of the object it is given and keeps every other value, in order", () => {
    const given = { a: 1, b: undefined, c: null, d: 0, e: false, f: "", g: undefined, h: [] };
    const kept = defined(given);
    expect(kept).toBe(given);
    expect(Object.keys(kept)).toEqual(["a", "c", "d", "e", "f", "h"]);
    expect(JSON.stringify(kept)).toBe('{"a":1,"c":null,"d":0,"e":false,"f":"","h":[]}');
  });

  it("does not reach into nested objects: each level says its own", () => {
    expect(defined({ outer: { inner: undefined } })).toEqual({ outer: { inner: undefined } });
  });
});
