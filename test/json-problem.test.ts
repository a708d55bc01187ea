// A JSON parse error said without the slice of the input V8 quotes: cut short, a
// secret in that slice would be shown in part, where no redactor can find it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonProblem } from "../src/core/json-problem.js";

function problemOf(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (err) {
    return jsonProblem(err);
  }
}

describe("jsonProblem", () => {
  it("property: quotes no part of a secret in the text, wherever it stands", () => {
    const secret = fc.stringMatching(/^Zq[a-y0-9]{8,20}$/);
    const around = fc.string({ maxLength: 30 }).filter((s) => !s.includes("Z"));
    fc.assert(
      fc.property(around, secret, around, (before, key, after) => {
        const problem = problemOf(`${before}${key}${after}`);
        if (problem !== undefined) expect(problem).not.toContain("Zq");
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps what is said of the place and the character", () => {
    expect(problemOf('{"a": Qm4plain-value}')).toBe("Unexpected token 'Q': not valid JSON");
    expect(problemOf("'x")).toBe("Unexpected token ''': not valid JSON");
    expect(problemOf("{")).toBe("Expected property name or '}' in JSON at position 1");
    expect(problemOf("")).toBe("Unexpected end of JSON input");
  });
});
