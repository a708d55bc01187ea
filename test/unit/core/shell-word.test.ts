// Every hint that holds a value quotes it for the shell: a hint parsed back by a
// real shell (sh -c, started with execFile: no shell from node) gives exactly the
// words meant, the hostile value among them as one word, or the placeholder where
// the value cannot be pasted as shown. Nothing in a value is ever run.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { pastable, pastedValue, shellWord } from "../../../src/core/shell-word.js";
import { translate } from "../../helpers/translate.js";

const CWD = mkdtempSync(join(tmpdir(), "agentstream-shell-word-"));
afterAll(() => rmSync(CWD, { recursive: true, force: true }));

// Every word the shell makes of SCRIPT's words, NUL-separated so that a newline inside one stays in it.
function shellWords(shell: string, words: string): string[] {
  const out = execFileSync(shell, ["-c", `printf '%s\\0' ${words}`], { cwd: CWD, encoding: "utf8" });
  return out.split("\0").slice(0, -1);
}

const SHELLS = ["sh", ...(existsSync("/usr/bin/bash") || existsSync("/bin/bash") ? ["bash"] : [])];

// What the shell would run if a value escaped its quotes: a file in CWD says so.
const RUNS = "$(touch ran-dollar)";

/** Hostile values: whether a hint must carry them as they are (true) or refuse them for its placeholder. */
const HOSTILE: Array<[string, boolean]> = [
  ["plain-id_1.2", true],
  ["with space", true],
  ["it's", true],
  ['say "hi"', true],
  [RUNS, true],
  ["`touch ran-backtick`", true],
  ["a; touch ran-semicolon", true],
  ["a && touch ran-and | cat > ran-pipe", true],
  ["'; touch ran-quote; '", true],
  ['"; touch ran-dquote; "', true],
  ["shell(rm -rf /)", true],
  ["*", true],
  ["~root", true],
  ["=cmd", true],
  ["!!", true],
  ["#comment", true],
  ["back\\slash", true],
  ["{a,b}", true],
  ["x=y", true],
  ["ünïcødé 会话", true],
  // Names an object literal has from its prototype: a table lookup must not find them.
  ["constructor", true],
  ["__proto__", true],
  ["toString", true],
  ["a\nb; touch ran-newline", false],
  ["\u001b]0;title\u0007", false],
  ["\u001b[2J", false],
  ["c1\u009bcontrol", false],
  ["tab\there", false],
  ["-rf", false],
  ["--allow-all", false],
  ["", false],
  ["bidi\u202eevil", false],
  ["isolate\u2066x\u2069", false],
];

// Half a surrogate pair cannot reach a program's argv (it becomes U+FFFD): no value of a hint holds one.
const wellFormed = (text: string): boolean =>
  !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

describe("shellWord: any text as one word a POSIX shell reads back", () => {
  it.each(SHELLS)("%s reads back every hostile value, and runs nothing in it", (shell) => {
    const values = HOSTILE.map(([value]) => value);
    expect(shellWords(shell, values.map(shellWord).join(" "))).toEqual(values);
    expect(readdirSync(CWD)).toEqual([]);
  });

  it("property: any text without NUL or half a surrogate pair reads back as itself", () => {
    const piece = fc.oneof(
      fc.string({ unit: "binary", maxLength: 8 }),
      fc.constantFrom("'", '"', "$", "`", "\\", "!", ";", "\n", "-", " ", "$(", ")", "\u001b", "\u009b", "\u202e"),
    );
    const text = fc
      .array(piece, { maxLength: 6 })
      .map((parts) => parts.join(""))
      .filter((t) => !t.includes("\0") && wellFormed(t));
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 40 }), (texts) => {
        expect(shellWords("sh", texts.map(shellWord).join(" "))).toEqual(texts);
      }),
      { numRuns: 40 },
    );
    expect(readdirSync(CWD)).toEqual([]);
  });

  it("keeps the plain forms: bare where nothing is special, double quotes where nothing is special in them", () => {
    expect(shellWord("0f78d7d1-d7b3-40b6")).toBe("0f78d7d1-d7b3-40b6");
    expect(shellWord("hi there")).toBe('"hi there"');
    expect(shellWord("-x")).toBe("-x");
    expect(shellWord("=cmd")).toBe('"=cmd"');
    expect(shellWord('{"bash":"allow"}')).toBe(`'{"bash":"allow"}'`);
    expect(shellWord("it's $HOME")).toBe(`'it'\\''s $HOME'`);
  });

  it("pastedValue: the value as a word, or the placeholder where a pasted hint could not carry it", () => {
    for (const [value, carried] of HOSTILE) {
      expect(pastable(value), JSON.stringify(value)).toBe(carried);
      expect(pastedValue(value, "SESSION")).toBe(carried ? shellWord(value) : "SESSION");
    }
  });
});

// ---- Every backend's resume hint, from its golden with the session id and the refused tool's name made hostile ----

const golden = (path: string): string =>
  readFileSync(new URL(`../../fixtures/golden/${path}`, import.meta.url), "utf8");
const inJson = (value: string): string => JSON.stringify(value).slice(1, -1);

interface HintCase {
  /** The golden (under test/fixtures/golden/) whose run ends with a resume hint. */
  golden: string;
  session: string;
  /** The refused tool's name and the JSON members that give it in the native stream, if the hint names it. */
  tool?: { name: string; members: string[] };
  /** The words the hint must give, for the session and tool as the hint should carry them. */
  words(session: string, tool: string): string[];
}

const CASES: Record<string, HintCase> = {
  claude: {
    golden: "claude/denied",
    session: "0f78d7d1-d7b3-40b6-99d5-a11145fb6799",
    tool: { name: "Bash", members: ["name", "tool_name"] },
    words: (s, t) => ["claude", "-p", "--resume", s, "--allowedTools", t, "--", "PROMPT"],
  },
  gemini: {
    golden: "gemini/denied",
    session: "481633aa-121b-4a1f-b593-f76768b02502",
    tool: { name: "run_shell_command", members: ["tool_name"] },
    words: (s, t) => ["gemini", "--resume", s, "--allowed-tools", t, "-p", "PROMPT"],
  },
  copilot: {
    golden: "copilot/denied",
    session: "12776cbe-b290-4952-960c-934fa3ad5055",
    tool: { name: "bash", members: ["name", "toolName"] },
    words: (s, t) => ["copilot", `--resume=${s}`, `--allow-tool=${t}`, "-p", "PROMPT"],
  },
  opencode: {
    golden: "opencode/denied",
    session: "ses_dbe56ae1bffemtLU4P3TdreWNF",
    tool: { name: "bash", members: ["tool"] },
    words: (s, t) => [
      `OPENCODE_PERMISSION=${JSON.stringify({ [t]: "allow" })}`,
      "opencode",
      "run",
      "--session",
      s,
      "--",
      "PROMPT",
    ],
  },
  acp: {
    golden: "acp/opencode-norule",
    session: "ses_dbc2e69e6ffex7Lne6S9Pmb6ZX",
    words: (s) => [
      "agentstream",
      "run",
      "--backend",
      "acp",
      "--bin",
      "AGENT",
      "--resume",
      s,
      "--allow-tool",
      "NAME",
      "--",
      "PROMPT",
    ],
  },
  evosci: {
    golden: "evosci/ask-user",
    session: "f58e2c30",
    words: (s) => ["EvoSci", "--resume", s],
  },
};

/** The run.finished.resume of the case's golden with SESSION and TOOL put in for its own. */
function hostileHint(c: HintCase, session: string, tool: string): { session_id: string; hint: string } | undefined {
  const options = JSON.parse(golden(`${c.golden}.options.json`)) as {
    from: string;
    end: { stderrTail: string[]; backendExit: unknown; usageFile?: string };
  };
  let native = golden(`${c.golden}.native.jsonl`).replaceAll(c.session, inJson(session));
  for (const member of c.tool?.members ?? []) {
    const changed = native.replaceAll(`"${member}":"${c.tool!.name}"`, `"${member}":${JSON.stringify(tool)}`);
    expect(changed).not.toBe(native);
    native = changed;
  }
  const end = { ...options.end, stderrTail: options.end.stderrTail.map((line) => line.replaceAll(c.session, session)) };
  const { events } = translate(native, { from: options.from as never, end: end as never });
  const finished = events.at(-1) as unknown as { resume?: { session_id: string; hint: string } };
  return finished.resume;
}

/** The hint's command, its closing words in parentheses (prose, not shell) left out. */
const command = (hint: string): string => hint.replace(/ \((allow|go on)[^()]*\)$/, "");

describe("every backend's resume hint quotes the session id and the tool names in it", () => {
  // EvoScientist's id comes from its stderr's "EvoSci --resume ID": one word with no spaces.
  const hostileFor = (backend: string) =>
    HOSTILE.filter(([value]) => value !== "" && (backend !== "evosci" || !/\s/.test(value)));

  it.each(Object.keys(CASES))(
    "%s: parsed back by sh, the hint gives the session and tool, or their placeholders",
    (backend) => {
      const c = CASES[backend]!;
      const hints: string[] = [];
      const expected: string[][] = [];
      for (const [value, carried] of hostileFor(backend)) {
        const resume = hostileHint(c, value, value);
        expect(resume?.session_id, JSON.stringify(value)).toBe(value);
        hints.push(command(resume!.hint));
        const shown = (placeholder: string) => (carried ? value : placeholder);
        // OpenCode's rule map names the tool as a JSON key: the placeholder stands for the key.
        expected.push(c.words(shown("SESSION"), shown("NAME")));
      }
      for (const [i, hint] of hints.entries()) expect(shellWords("sh", hint), hint).toEqual(expected[i]);
      expect(readdirSync(CWD)).toEqual([]);
    },
  );

  it("property: for any session id and tool name, sh gives back exactly the words meant", () => {
    const value = fc
      .oneof(
        fc.string({ unit: "binary", minLength: 1, maxLength: 10 }),
        fc
          .array(
            fc.constantFrom("a", "'", '"', "$(", ")", "`", ";", " ", "\n", "-", "\u001b", "\\", "!", "*", "\u202e"),
            {
              minLength: 1,
              maxLength: 8,
            },
          )
          .map((p) => p.join("")),
      )
      .filter((v) => !v.includes("\0") && wellFormed(v) && v.trim() !== "");
    fc.assert(
      fc.property(
        fc.constantFrom("claude", "gemini", "copilot", "opencode", "acp"),
        value,
        value,
        (backend, session, tool) => {
          const c = CASES[backend]!;
          const resume = hostileHint(c, session, tool);
          expect(resume?.session_id).toBe(session);
          expect(shellWords("sh", command(resume!.hint))).toEqual(
            c.words(pastable(session) ? session : "SESSION", pastable(tool) ? tool : "NAME"),
          );
        },
      ),
      { numRuns: 60 },
    );
    expect(readdirSync(CWD)).toEqual([]);
  });
});
