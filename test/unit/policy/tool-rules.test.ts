// One rule, one meaning (issue 47 item 1): the conformance table (test/fixtures/rules/conformance.json), rules x
// calls x decisions, run against the live answerer (src/policy/permission-policy.ts, which decides by
// src/policy/tool-rules.ts) and against each backend's native mapping (src/backends/permissions.ts).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { acpPolicy, answerPermission } from "../../../src/policy/permission-policy.js";
import { nativeRules } from "../../../src/backends/permissions.js";
import { BACKENDS, backendNamed } from "../../../src/backends/registry.js";
import { WILD } from "../../../src/policy/shell-parts.js";
import { commandMatches, glob, globMeets, normalPath, normalUrl } from "../../../src/policy/tool-rules.js";

interface DecisionRow {
  allow: string[];
  deny: string[];
  tool: "shell" | "read" | "write" | "edit" | "web_fetch";
  /** The call's command, path or URL, in its rawInput; else its rawInput is `input` and its locations `locations`. */
  argument?: string;
  input?: Record<string, unknown>;
  locations?: string[];
  decision: "allow" | "deny" | "none";
}
interface Table {
  cwd: string;
  decisions: DecisionRow[];
  refused: { rule: string; because: string }[];
  native: ({ rule: string; deny?: Record<string, string | string[]> } & Record<string, string | string[]>)[];
}

const TABLE: Table = JSON.parse(
  readFileSync(new URL("../../fixtures/rules/conformance.json", import.meta.url), "utf8"),
) as Table;

const KIND = { shell: "execute", read: "read", write: "edit", edit: "edit", web_fetch: "fetch" } as const;
const INPUT = { shell: "command", read: "path", write: "path", edit: "path", web_fetch: "url" } as const;

/** A session/request_permission as an agent sends it, for one call of the row's tool. */
const requestFor = (row: DecisionRow) => ({
  sessionId: "s",
  toolCall: {
    toolCallId: "t",
    kind: KIND[row.tool],
    rawInput: row.argument !== undefined ? { [INPUT[row.tool]]: row.argument } : (row.input ?? {}),
    ...(row.locations ? { locations: row.locations.map((path) => ({ path })) } : {}),
  },
  options: ["allow_once", "reject_once"].map((kind) => ({ optionId: `id-${kind}`, kind, name: kind })),
});

describe("the conformance table against the live answerer (ACP)", () => {
  it.each(
    TABLE.decisions.map((row) => [
      `${JSON.stringify(row.argument ?? { input: row.input, locations: row.locations })} allow ${row.allow} deny ${row.deny}`,
      row,
    ]),
  )("%s", (_name, row) => {
    const answer = answerPermission(acpPolicy(row.allow, row.deny, "never", TABLE.cwd), requestFor(row));
    const decision = answer.by !== "rule" ? "none" : answer.decision === "allow" ? "allow" : "deny";
    expect(decision).toBe(row.decision);
  });

  it.each(TABLE.refused.map((row) => [row.rule, row.because]))("refuses %s (%s), exit 2", (rule) => {
    expect(() => acpPolicy([rule], [], "never", TABLE.cwd)).toThrow(expect.objectContaining({ exitCode: 2 }));
    expect(() => acpPolicy([], [rule], "never", TABLE.cwd)).toThrow(expect.objectContaining({ exitCode: 2 }));
  });

  it("the old prefix form is refused with the rule to write instead", () => {
    expect(() => acpPolicy(["shell(git )"], [])).toThrow(
      expect.objectContaining({ hint: expect.stringContaining("shell(git *)") }),
    );
  });

  it("reads a command given as an argv array as that command, each word quoted", () => {
    const request = (command: unknown) => ({
      ...requestFor({ tool: "shell", argument: "x" } as DecisionRow),
      toolCall: { toolCallId: "t", kind: "execute", rawInput: { command } },
    });
    const policy = acpPolicy(["shell(git status)"], ["shell(git push*)"]);
    expect(answerPermission(policy, request(["bash", "-lc", "git push"]))).toMatchObject({
      decision: "reject",
      by: "rule",
    });
    expect(answerPermission(policy, request(["git", "status"]))).toMatchObject({ decision: "allow", by: "rule" });
    expect(answerPermission(policy, request(["git", "status; rm -rf x"]))).toMatchObject({ by: "default" });
  });

  it("names the rules that allowed a compound command's parts", () => {
    const answer = answerPermission(
      acpPolicy(["shell(git *)", "shell(npm test)"], []),
      requestFor({ tool: "shell", argument: "git pull && npm test" } as DecisionRow),
    );
    expect(answer).toMatchObject({ decision: "allow", by: "rule", rule: "shell(git *), shell(npm test)" });
  });
});

describe("the conformance table against each backend's native mapping", () => {
  const cases = TABLE.native.flatMap(({ rule, deny, ...backends }) =>
    Object.entries(backends).map(([backend, expected]) => [backend, rule, expected, deny?.[backend]] as const),
  );
  it.each(cases)("%s: %s", (backend, rule, allowed, denied) => {
    for (const option of ["allowTools", "denyTools"] as const) {
      const expected = option === "denyTools" && denied !== undefined ? denied : allowed;
      const mapped = () => nativeRules(backendNamed(backend), { [option]: [rule] });
      if (expected === "refused") expect(mapped).toThrow(expect.objectContaining({ exitCode: 2 }));
      else expect(mapped()[option]).toEqual(expected);
    }
  });

  it("Claude Code's deny pattern is refused with the way to have it held: over ACP, or the whole tool", () => {
    expect(() => nativeRules(backendNamed("claude"), { denyTools: ["shell(git push*)"] })).toThrow(
      expect.objectContaining({ exitCode: 2, hint: expect.stringContaining("acp") }),
    );
  });

  it("every backend that takes portable patterns has its mapping in the table (or shares one that has)", () => {
    const inTable = (name: string) => TABLE.native.filter((row) => Array.isArray(row[name])).length >= 4;
    for (const backend of BACKENDS) {
      const patterns = backend.toolNames.patterns;
      if (patterns === undefined) continue;
      const shares = BACKENDS.some((other) => other.toolNames.patterns === patterns && inTable(other.name));
      expect(shares, backend.name).toBe(true);
    }
  });
});

describe("what a pattern matches", () => {
  // The class behind the table's rows: a pattern with no `*` is the command or it with more arguments,
  // never a longer first word.
  it.each(["git", "git status", "npm run build", "ls -la"])(
    "%s: itself and with arguments, not glued on",
    (pattern) => {
      expect(commandMatches(pattern, pattern)).toBe(true);
      expect(commandMatches(pattern, `${pattern} --more x`)).toBe(true);
      expect(commandMatches(pattern, `${pattern}x`)).toBe(false);
      expect(commandMatches(`${pattern} *`, pattern)).toBe(true);
      expect(commandMatches(`${pattern}*`, `${pattern}x`)).toBe(true);
    },
  );

  it("* is any characters, none included; nothing else is special", () => {
    const cases: [string, string, boolean][] = [
      ["a*c", "abbbc", true],
      ["a*c", "ac", true],
      ["a*c", "acx", false],
      ["*", "", true],
      ["a.c", "abc", false],
      ["a?c", "abc", false],
      ["a*b*c", "axxbyyc", true],
      ["a*b*c", "axxcyyb", false],
      ["[a]", "[a]", true],
    ];
    for (const [pattern, text, expected] of cases) expect(glob(pattern, text), `${pattern} ${text}`).toBe(expected);
    // Many stars against a long text from the agent: linear per star, never a regular expression's backtracking.
    expect(glob(`${"*a".repeat(30)}b`, "a".repeat(20_000))).toBe(false);
  });

  it("a WILD (text known only when run) meets a pattern where some text would match both", () => {
    const cases: [string, string, boolean][] = [
      ["git push*", `git ${WILD}`, true],
      ["git push*", `git pu${WILD}`, true],
      ["git push*", `git pull ${WILD}`, false],
      ["git push*", `${WILD} push`, true],
      ["git push*", `echo ${WILD}`, false],
      ["a*c", `${WILD}b${WILD}`, true],
      ["abc", `a${WILD}c`, true],
      ["abc", `a${WILD}d`, false],
      ["*", `${WILD}`, true],
      ["x", `${WILD}${WILD}y`, false],
    ];
    for (const [pattern, shape, expected] of cases)
      expect(globMeets(pattern, shape), `${pattern} ${JSON.stringify(shape)}`).toBe(expected);
    // A table too large to fill is a yes: the deny pattern denies.
    expect(globMeets("zz", `${"a".repeat(3_000_000)}${WILD}`)).toBe(true);
  });

  it.each([
    ["https://user:pw@Evil.Example.:443/a", "https://evil.example/a"],
    ["https://good.example/%61dmin?%7e=%2f", "https://good.example/admin?~=%2F"],
    ["https://good.example/docs/%2E%2E/%61dmin", "https://good.example/admin"],
    ["http://[::ffff:a9fe:a9fe]/x", "http://169.254.169.254/x"],
    ["http://0251.0376.0251.0376/", "http://169.254.169.254/"],
    ["https://exämple.com/", "https://xn--exmple-cua.com/"],
    ["https://good.example\\@evil.example/", undefined],
    ["https://a@b@evil.example/", undefined],
    ["https://evil.example../", undefined],
    ["https://good.example/a%2Fb", undefined],
    ["https://good.example/a%5cb", undefined],
    ["https://good.example/a b", undefined],
    ["https:evil.example/", undefined],
    ["ftp://evil.example/", undefined],
  ])("the URL %s is read as %s", (url, normal) => {
    expect(normalUrl(url)).toBe(normal);
  });

  it("a path is resolved before it is matched; a relative one only with a directory", () => {
    expect(normalPath("src/../../etc/shadow", "/srv/repo")).toBe("/srv/etc/shadow");
    expect(normalPath("/a/b/../../../c/", undefined)).toBe("/c");
    expect(normalPath("src/a", undefined)).toBeUndefined();
    expect(normalPath("~/.ssh/id_rsa", "/work")).toBeUndefined();
  });
});
