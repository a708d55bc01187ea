// Property-based tests of the rules' shell reading (src/policy/tool-rules.ts, shell-parts.ts): a command line
// built of simple commands joined by any operator, quoted any way, nested in substitutions or subshells, is
// split back into those commands; a deny pattern matching any of them denies the line; the line is allowed only
// when every command is. Replay a failure as test/helpers/fuzz/settings.ts says.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { shellParts, WILD } from "../../src/policy/shell-parts.js";
import { commandMatches, ruleDecision, type ToolRule } from "../../src/policy/tool-rules.js";
import { fuzzParameters, fuzzTimeoutMs } from "../helpers/fuzz/settings.js";

// Words a shell reads as its own constructs (a line naming one first is not split: not generated here).
const RESERVED = new Set(
  "case coproc do done elif else esac fi for function if in select then time until while".split(" "),
);
const word = fc.stringMatching(/^[a-z0-9._/-]{1,6}$/);
/** A word as a shell would be given it: bare, single- or double-quoted, or with a backslash inside. */
const written = (w: string) => fc.constantFrom(w, `'${w}'`, `"${w}"`, w.length > 1 ? `${w[0]}\\${w.slice(1)}` : w);

/** One simple command: its text and how it is written. */
const command = fc
  .array(word, { minLength: 1, maxLength: 4 })
  .filter((words) => /^[a-z]/.test(words[0]!) && !RESERVED.has(words[0]!))
  .chain((words) =>
    fc.tuple(...words.map(written)).map((shown) => ({ text: words.join(" "), shown: shown.join(" ") })),
  );

const SEPARATORS = ["; ", " && ", " || ", " | ", " |& ", "\n", " & ", ";"];

/** A line of commands, some nested in `$(...)`, backticks or a subshell: its commands' texts and the line. */
const line = fc
  .array(fc.tuple(command, fc.constantFrom("plain", "subst", "ticks", "subshell"), fc.constantFrom(...SEPARATORS)), {
    minLength: 1,
    maxLength: 5,
  })
  .map((items) => {
    const texts: string[] = [];
    const pieces = items.map(([cmd, how, separator], i) => {
      const last = i === items.length - 1;
      let shown = cmd.shown;
      texts.push(cmd.text);
      if (how === "subst") {
        shown = `echo "$(${cmd.shown})"`;
        texts.push(`echo $(${cmd.shown})`);
      } else if (how === "ticks") {
        // Backslashes mean another thing between backticks (not read): the words bare.
        shown = `echo \`${cmd.text}\``;
        texts.push(`echo \`${cmd.text}\``);
      } else if (how === "subshell") shown = `( ${cmd.shown} )`;
      return last ? shown : shown + separator;
    });
    return { texts, line: pieces.join("") };
  });

const rule = (given: string): ToolRule => {
  const pattern = /^shell\((.*)\)$/.exec(given)?.[1];
  return { given, tool: "shell", ...(pattern !== undefined ? { pattern } : {}) };
};

describe("shell rules, property-based", () => {
  it(
    "a line is split into the commands it was built of",
    () => {
      fc.assert(
        fc.property(line, ({ texts, line }) => {
          const parts = shellParts(line);
          expect(parts, line).toBeDefined();
          expect(parts!.map((p) => p.text).sort(), line).toEqual([...texts].sort());
        }),
        fuzzParameters(),
      );
    },
    fuzzTimeoutMs(),
  );

  it(
    "a deny pattern matching any command of a line denies it; allowing every command but one never allows it",
    () => {
      fc.assert(
        fc.property(line, fc.nat(), ({ line }, pick) => {
          const parts = shellParts(line)!;
          const target = parts[pick % parts.length]!;
          const name = target.text.split(" ")[0]!;
          expect(
            ruleDecision({ allow: [rule("shell")], deny: [rule(`shell(${name} *)`)] }, [line], undefined),
            line,
          ).toMatchObject({ effect: "deny" });
          // A substitution's text is known only when run: a `*` in the rule stands where it does.
          const every = parts.map((p) => rule(`shell(${p.shape.replaceAll(WILD, "*")})`));
          expect(ruleDecision({ allow: every, deny: [] }, [line], undefined)?.effect, line).toBe("allow");
          // The rules left once every one that matches the target is dropped: the target is not allowed.
          const others = every.filter((r) => !commandMatches(r.pattern!, target.shape));
          expect(ruleDecision({ allow: others, deny: [] }, [line], undefined), line).toBeUndefined();
        }),
        fuzzParameters(),
      );
    },
    fuzzTimeoutMs(),
  );

  it(
    "any text at all: read or refused, never a throw, and what cannot be read is never allowed by a pattern",
    () => {
      const text = fc.string({ unit: fc.constantFrom(..."ab \t\n;&|()$`'\"\\<>{}#*=!"), maxLength: 40 });
      fc.assert(
        fc.property(text, (command) => {
          const parts = shellParts(command);
          const decision = ruleDecision({ allow: [rule("shell(*)")], deny: [] }, [command], undefined);
          if (parts === undefined || parts.length === 0) expect(decision, command).toBeUndefined();
        }),
        fuzzParameters(),
      );
    },
    fuzzTimeoutMs(),
  );

  /** A simple command of bare words, its program named with no path. */
  const plain = fc
    .array(word, { minLength: 1, maxLength: 4 })
    .filter((words) => /^[a-z][a-z0-9._-]*$/.test(words[0]!) && !RESERVED.has(words[0]!));
  const denyOf = (words: string[], whole: boolean) => [
    rule(whole ? `shell(${words.join(" ")})` : `shell(${words[0]} *)`),
  ];
  const decide = (deny: ToolRule[], command: string) =>
    ruleDecision({ allow: [rule("shell")], deny }, [command], undefined);

  it(
    "another spelling never gets past a deny pattern: a redirection between the words, an expansion for an argument, a wrapper or a path",
    () => {
      const redirection = fc.constantFrom(
        ">/dev/null",
        "2>&1",
        "> out",
        ">>log",
        "2> err",
        "&>/dev/null",
        "< in",
        ">| x",
        "1>&2",
      );
      const expansion = fc.constantFrom("$X", '"$X"', "$(echo a)", "`echo a`", "{a,b}", `${"$"}{X}`);
      const wrapped = fc.constantFrom(
        (c: string) => `env ${c}`,
        (c: string) => `env -i A=1 ${c}`,
        (c: string) => `sudo -u root ${c}`,
        (c: string) => `timeout -s KILL 5 ${c}`,
        (c: string) => `nice -n 1 ${c}`,
        (c: string) => `nohup ${c}`,
        (c: string) => `command ${c}`,
        (c: string) => `exec ${c}`,
        (c: string) => `bash -c '${c}'`,
        (c: string) => `sh -lc "${c}"`,
        (c: string) => `eval ${c}`,
        (c: string) => `/usr/bin/${c}`,
        (c: string) => `xargs ${c}`,
        (c: string) => `env sudo timeout 1 bash -c 'nice ${c}'`,
      );
      fc.assert(
        fc.property(
          plain,
          fc.boolean(),
          redirection,
          expansion,
          wrapped,
          fc.nat(),
          (words, whole, redirect, expand, wrap, at) => {
            const deny = denyOf(words, whole);
            const redirected = [...words];
            redirected.splice(at % (words.length + 1), 0, redirect);
            expect(decide(deny, redirected.join(" ")), redirected.join(" ")).toMatchObject({ effect: "deny" });
            if (words.length > 1) {
              const expanded = [...words];
              expanded[1 + (at % (words.length - 1))] = expand;
              expect(decide(deny, expanded.join(" ")), expanded.join(" ")).toMatchObject({ effect: "deny" });
            }
            const command = wrap(words.join(" "));
            expect(decide(deny, command), command).toMatchObject({ effect: "deny" });
          },
        ),
        fuzzParameters(),
      );
    },
    fuzzTimeoutMs(),
  );

  it(
    "an allow pattern never allows a command that writes to a file",
    () => {
      const output = fc.constantFrom("> f", ">> f", ">| f", "&> f", "&>> f", "2> f", ">& f", "1>f", "<> f", "> $F");
      fc.assert(
        fc.property(plain, output, fc.nat(), (words, redirect, at) => {
          const command = [...words];
          command.splice(at % (words.length + 1), 0, redirect);
          const allow = [rule("shell(*)"), rule(`shell(${words.join(" ")})`), rule(`shell(${words[0]} *)`)];
          expect(ruleDecision({ allow, deny: [] }, [command.join(" ")], undefined), command.join(" ")).toBeUndefined();
        }),
        fuzzParameters(),
      );
    },
    fuzzTimeoutMs(),
  );
});
