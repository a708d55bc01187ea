// Gemini CLI's policy file, read back with a real TOML parser: whatever names
// --deny-tool is given, the file run writes either parses to exactly those deny
// rules or the names are refused before start. (Gemini drops every rule of a
// file it cannot parse: one bad name would lose them all.)
import fc from "fast-check";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { denyPolicy } from "../../../../src/backends/gemini/policy.js";
import { backendNamed } from "../../../../src/backends/registry.js";
import { UsageError } from "../../../../src/core/errors.js";
import { tomlString } from "../../../../src/core/toml-string.js";
import { filesOf, fitted } from "../../../helpers/backend-argv.js";

const gemini = backendNamed("gemini");

/** The deny rules the policy file holds, as a TOML parser reads them. */
function denied(text: string): unknown[] {
  const parsed = parse(text) as { rule?: Array<Record<string, unknown>> };
  return (parsed.rule ?? []).map((rule) => {
    expect(rule).toMatchObject({ decision: "deny", priority: 999 });
    return rule.toolName;
  });
}

/** Names with what TOML escapes and what it forbids raw: quotes, backslashes, every C0 control, DEL, C1, astral. */
const hostileName = fc.oneof(
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.string({
    unit: fc.constantFrom(
      '"',
      "\\",
      "'",
      "\u007f",
      "\u0000",
      "\t",
      "\n",
      "\r",
      "\u001b",
      "\u0085",
      "é",
      "🛠",
      "a",
      "-",
      "(",
      ")",
    ),
    maxLength: 12,
  }),
);

/** No half surrogate pair: TOML has no escape for one (run refuses such a name before it is written). */
const wellFormed = (text: string): boolean =>
  !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

describe("Gemini CLI's policy file", () => {
  it("a name holding DEL, quotes or backslashes is written by TOML's rules: the file parses back to it", () => {
    const names = ["run\u007fshell", 'say "hi"', "back\\slash", "tab\there", "\u0000nul", "'single'", "🛠"];
    expect(denied(denyPolicy(names))).toEqual(names);
    expect(tomlString("a\u007f")).toBe('"a\\u007F"');
  });

  it("any well-formed string as a TOML basic string parses back to itself", () => {
    fc.assert(
      fc.property(hostileName.filter(wellFormed), (text) => {
        expect((parse(`v = ${tomlString(text)}`) as { v: unknown }).v).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it("--deny-tool NAME...: each name is refused before start, or the file run writes parses to exactly those rules", () => {
    fc.assert(
      fc.property(fc.array(hostileName, { minLength: 1, maxLength: 4 }), (names) => {
        let asked: { denyTools: readonly string[] };
        try {
          asked = fitted(gemini, { denyTools: names });
        } catch (err) {
          expect(err).toBeInstanceOf(UsageError);
          return;
        }
        const [file] = filesOf(gemini, asked);
        expect(denied(file!.text)).toEqual(asked.denyTools);
      }),
      { numRuns: 2000 },
    );
  });
});
