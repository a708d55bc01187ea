// A message that quotes a slice of an agent's text (a JSON parse error, a value
// that does not match a schema) never shows part of a secret: a secret cut in two
// is found by no redactor after, so the message shows a secret whole or not at all.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonProblem } from "../../../src/core/json-problem.js";
import { describeErrors } from "../../../src/schema/validator.js";

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

describe("a value that does not match a schema, cut to fit the message", () => {
  // What ajv says of {"a": "..."} against {"properties": {"a": {"type": "number"}}}: the message quotes the value.
  const notANumber = [
    {
      instancePath: "/a",
      schemaPath: "#/properties/a/type",
      keyword: "type",
      params: { type: "number" },
      message: "must be number",
    },
  ];

  it("property: shows a secret in the value whole or not at all, wherever the cut falls", () => {
    const secret = fc.stringMatching(/^Zq[a-y0-9]{8,30}$/);
    const words = fc.array(fc.stringMatching(/^[a-y]{1,8}$/), { maxLength: 12 }).map((w) => w.join(" "));
    fc.assert(
      fc.property(words, secret, words, (before, key, after) => {
        const message = describeErrors(notANumber, { a: `${before} ${key} ${after}` }, "the answer");
        expect(message).toContain("must be a number");
        if (!message.includes(key)) expect(message).not.toContain("Zq");
      }),
      { numRuns: 2000 },
    );
  });
});
