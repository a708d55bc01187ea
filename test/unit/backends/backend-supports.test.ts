// Each backend's `supports`: what --help and the docs tables show of an option (its `via`) is what the
// backend gets for it, and an option it lacks is refused before start, never dropped.
import { describe, expect, it } from "vitest";
import type { BackendDefinition } from "../../../src/backends/definition.js";
import { reachBackend } from "../../../src/backends/native-input.js";
import { refuseLacking } from "../../../src/backends/portable-options.js";
import { BACKENDS, backendNamed } from "../../../src/backends/registry.js";
import { PORTABLE_OPTION_NAMES, type ApprovalsMode, type PortableOption } from "../../../src/backends/request.js";
import { reaches, type Support } from "../../../src/backends/support.js";
import { OptionError, wordedWith } from "../../../src/core/errors.js";
import { cliNaming } from "../../../src/app/options.js";
import type { ArgvRequest } from "../../helpers/backend-argv.js";

const BASE: ArgvRequest = { prompt: "the prompt", backendArgs: [], promptTerminator: true };
const FILE = "/run/file";

/** One entry of a backend's supports: a choice option's, one per choice. */
interface Entry {
  option: PortableOption;
  choice?: ApprovalsMode;
  support: Support<PortableOption>;
}

function entriesOf(backend: BackendDefinition): Entry[] {
  return (Object.entries(backend.supports) as [PortableOption, object][]).flatMap(([option, entry]) =>
    "reaches" in entry || "lacks" in entry
      ? [{ option, support: entry as Support<PortableOption> }]
      : (Object.entries(entry) as [ApprovalsMode, Support<PortableOption>][]).map(([choice, support]) => ({
          option,
          choice,
          support,
        })),
  );
}

const named = ({ option, choice }: Entry): string => (choice === undefined ? option : `${option} ${choice}`);

/** A request asking only this option (this choice of it), with a value it can be told by. */
function asking(backend: BackendDefinition, option: PortableOption, choice?: ApprovalsMode): ArgvRequest {
  const tool = backend.toolNames.deniable?.[0] ?? Object.values(backend.toolNames.tools)[0] ?? "some_tool";
  switch (option) {
    case "model":
      return { ...BASE, model: "model-1" };
    case "provider":
      return { ...BASE, provider: "provider-1" };
    case "workdir":
      return { ...BASE, workdir: "/workdir-1" };
    case "autoMode":
      return { ...BASE, autoMode: false };
    case "allowTools":
      return { ...BASE, allowTools: [tool] };
    case "denyTools":
      return { ...BASE, denyTools: [tool] };
    case "approvals":
      return { ...BASE, approvals: choice };
    case "approveWith":
      return { ...BASE, approveWith: "./approve.sh" };
    case "questions":
      return { ...BASE, questions: "pending" };
    case "resume":
      return { ...BASE, resume: "session-1" };
    case "maxTurns":
      return { ...BASE, maxTurns: 7 };
    case "maxTokens":
      return { ...BASE, maxTokens: 700 };
    case "maxCostUsd":
      return { ...BASE, maxCostUsd: 0.7 };
    case "usageFile":
      return { ...BASE, usageFile: "/run/usage.json" };
    case "outputSchema":
      return {
        ...BASE,
        outputSchema: {
          schema: { type: "object" },
          text: '{"type":"object"}',
          strictDraft07: true,
          check: async () => ({ valid: true }),
        },
      };
    case "onPermissionRequest":
      return { ...BASE, onPermissionRequest: () => "allow" };
  }
}

/** What the backend gets for a request: its argv, then each variable the options set as NAME=VALUE. */
function input(backend: BackendDefinition, request: ArgvRequest): string[] {
  const reached = reachBackend(backend, request, {}, () => FILE);
  return [...reached.argv(request), ...Object.entries(reached.env).map(([name, value]) => `${name}=${value}`)];
}

/** The words a placeholder of a `via` stands for: any. */
const PLACEHOLDER = /\b(?:NAME|SESSION|FILE|USD|MODEL|PROVIDER|DIR|JSON)\b(?:,\.\.\.)?/g;
const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const pattern = (word: string): RegExp => new RegExp(`^${word.split(PLACEHOLDER).map(escaped).join(".*")}$`);

/** Words of `spelling` found in `words` in its order (each may stand apart). */
function inOrder(spelling: string[], words: string[]): boolean {
  let at = 0;
  for (const word of spelling) {
    const re = pattern(word);
    while (at < words.length && !re.test(words[at]!)) at++;
    if (at === words.length) return false;
    at++;
  }
  return true;
}

/** Where `via` and what the backend gets disagree, for each option the backend has. */
function drift(backend: BackendDefinition): string[] {
  const problems: string[] = [];
  const without = input(backend, BASE);
  for (const entry of entriesOf(backend)) {
    const { option, choice, support } = entry;
    if (!reaches(support)) continue;
    const got = input(backend, asking(backend, option, choice));
    const added = got.filter((word) => !without.includes(word));
    // Its spelling: before a note in parentheses or after a comma.
    const spelling = support.via.split(/ \(|, /)[0]!.split(" ");
    const spelled = spelling[0]!.startsWith("-") || /^[A-Z_]+=/.test(spelling[0]!) || got.includes(spelling[0]!);
    const where = `${backend.name} ${named(entry)} (via ${JSON.stringify(support.via)})`;
    if (spelled && !inOrder(spelling, got)) problems.push(`${where}: ${JSON.stringify(got)} lacks its spelling`);
    if (!spelled && added.length > 0) problems.push(`${where}: says no flag, yet adds ${JSON.stringify(added)}`);
    // Every flag or variable it adds is named in its via.
    for (const word of added) {
      const name = /^(-[^=]+|[A-Z_]+)=/.exec(word)?.[1] ?? (word.startsWith("-") ? word : undefined);
      if (name !== undefined && !support.via.includes(name))
        problems.push(`${where}: adds ${JSON.stringify(word)}, which its via does not name`);
    }
  }
  return problems;
}

describe("every backend's supports: the spelling --help and the docs show is the argv it gets", () => {
  it.each(BACKENDS.map((backend) => backend.name))("%s", (name) => {
    expect(drift(backendNamed(name))).toEqual([]);
  });

  it("an entry whose via names another flag than the one it passes is caught", () => {
    const claude = backendNamed("claude");
    const drifted: BackendDefinition = {
      ...claude,
      supports: {
        ...claude.supports,
        model: { via: "--model", reaches: (model) => ({ args: ["--llm", model] }) },
        resume: { via: "--resume SESSION", reaches: (session) => ({ args: ["--resume", session, "--fork-session"] }) },
        approvals: {
          ...claude.supports.approvals,
          auto: { via: "its default", reaches: () => ({ args: ["--permission-mode", "auto"] }) },
        },
      },
    };
    expect(drift(drifted)).toEqual([
      expect.stringMatching(/^claude model .*lacks its spelling$/),
      expect.stringMatching(/^claude model .*adds "--llm", which its via does not name$/),
      expect.stringMatching(/^claude resume .*adds "--fork-session", which its via does not name$/),
      expect.stringMatching(/^claude approvals auto .*says no flag, yet adds/),
      expect.stringMatching(/^claude approvals auto .*adds "--permission-mode", which its via does not name$/),
    ]);
  });

  it("a layout that leaves an option's arguments out is a bug said at once, never a dropped option", () => {
    const claude = backendNamed("claude");
    const dropping: BackendDefinition = {
      ...claude,
      layout: (frame, placed) => [...placed.flags("model"), frame.prompt],
    };
    expect(() => input(dropping, { ...BASE, model: "m" })).not.toThrow();
    expect(() => input(dropping, asking(claude, "resume"))).toThrow("claude's argv layout leaves out resume");
  });
});

describe("an option a backend takes in words", () => {
  it("changes the prompt it gets, in supports order, and no argument", () => {
    const gemini = backendNamed("gemini");
    const worded: BackendDefinition = {
      ...gemini,
      supports: {
        ...gemini.supports,
        model: {
          via: "named in the prompt",
          reaches: (model) => ({ prompt: (text) => `${text}\n\nAnswer as ${model}.` }),
        },
        maxTurns: {
          via: "asked in the prompt",
          reaches: (turns) => ({ prompt: (text) => `${text} In ${turns} turns.` }),
        },
      },
    };
    const reached = reachBackend(worded, { ...BASE, model: "m-1", maxTurns: 2 }, {});
    expect(reached.prompt("go")).toBe("go\n\nAnswer as m-1. In 2 turns.");
    expect(reached.argv(BASE)).toEqual(reachBackend(gemini, BASE, {}).argv(BASE));
    expect(reachBackend(worded, BASE, {}).prompt("go")).toBe("go");
    expect(drift(worded)).toEqual([]);
  });
});

describe("every option a backend lacks is refused before start, saying why", () => {
  const lacking = BACKENDS.flatMap((backend) =>
    entriesOf(backend).flatMap((entry) =>
      "lacks" in entry.support
        ? [[backend.name, named(entry), entry, wordedWith(entry.support.lacks, cliNaming)] as const]
        : [],
    ),
  );

  it.each(lacking)("%s %s", (name, _named, { option, choice }, lacks) => {
    const backend = backendNamed(name);
    const asked = { [option]: choice ?? sample(option) };
    let refusal: Error | undefined;
    try {
      refuseLacking(backend, asked);
    } catch (err) {
      expect(err).toBeInstanceOf(OptionError);
      refusal = (err as OptionError).wordedAs(cliNaming);
    }
    expect(refusal, "refused").toBeDefined();
    expect(`${refusal!.message}\n${(refusal as { hint?: string }).hint ?? ""}`).toContain(lacks);
    expect(refusal!.message).toContain(backend.displayName);
  });

  it("an option a backend lacks is refused in planning; reaching it unrefused is a bug said at once, never a dropped option", () => {
    const codex = backendNamed("codex");
    expect(() => refuseLacking(codex, { ...BASE, autoMode: false })).toThrow(OptionError);
    expect(() => refuseLacking(codex, { ...BASE, autoMode: false })).toThrow("Codex has no autoMode flag");
    expect(() => reachBackend(codex, { ...BASE, autoMode: false }, {})).toThrow("codex lacks autoMode");
  });

  it("every backend has every portable option or says why not (a live one only where it is asked live)", () => {
    // The library's callback has no entry: the driver takes it whole.
    const options = PORTABLE_OPTION_NAMES.filter((o) => o !== "onPermissionRequest").sort();
    const live = ["approveWith", "questions"];
    for (const backend of BACKENDS)
      expect(Object.keys(backend.supports).sort(), backend.name).toEqual(
        backend.driver ? options : options.filter((o) => !live.includes(o)),
      );
  });

  it("a backend not asked live is refused --approve-with and --approvals ask, the hint naming --transport acp where it has it", () => {
    for (const backend of BACKENDS.filter((b) => b.driver === undefined))
      for (const asked of [{ approveWith: "./approve.sh" }, { approvals: "ask" as const }]) {
        let error: unknown;
        try {
          refuseLacking(backend, { ...BASE, ...asked });
        } catch (err) {
          error = err;
        }
        expect(error, `${backend.name} ${JSON.stringify(asked)}`).toBeInstanceOf(OptionError);
        const { message, hint } = (error as OptionError).wordedAs(cliNaming);
        expect(message).toContain(`${backend.displayName} is not asked live`);
        expect(hint).toContain(
          backend.acpMode ? "--transport acp drives" : "only an agent driven over ACP is asked live",
        );
      }
  });
});

function sample(option: PortableOption): unknown {
  if (option === "allowTools" || option === "denyTools") return ["some_tool"];
  if (option.startsWith("max")) return 1;
  if (option === "autoMode") return false;
  return "value-1";
}
