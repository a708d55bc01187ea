// Every refusal is worded for its side (issue 46 item 5): the library's run() and normalizeStream(),
// given a table of wrong options on every backend (natively and over ACP), throw messages and hints that
// name no flag of agentstream's CLI, only the library's options; the same cases through the built CLI
// exit 2 naming, as flags, every option the library named. What the run notes for the caller names no
// flag either. A backend that is not found ends in run.finished, the same for both sides: its message
// names no flag of either.
import { writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { cliNaming, libraryNaming, longFlag, RUN_OPTIONS } from "../../../src/app/options.js";
import { clisOf } from "../../../src/core/option-row.js";
import { withTransport } from "../../../src/backends/acp/over-acp.js";
import { BACKEND_NAMES, BACKENDS, backendNamed } from "../../../src/backends/registry.js";
import type { CanonicalEvent } from "../../../src/canonical/events.js";
import { UsageError, wordedWith, type Words } from "../../../src/core/errors.js";
import { normalizeStream, run, type NormalizeOptions, type RunOptions } from "../../../src/index.js";
import { runCli } from "../../helpers/cli.js";
import { Scratch } from "../../helpers/stand-in.js";

const scratch = new Scratch();
afterAll(() => scratch.remove());

function file(name: string, text: string): string {
  const path = scratch.path(name);
  writeFileSync(path, text);
  return path;
}

const line = (event: object): string => `${JSON.stringify(event)}\n`;
const MISSING = scratch.path("no-such-agent");
const CLAUDE_STREAM = file(
  "claude.jsonl",
  line({ type: "run.started", backend: "claude" }) + line({ type: "run.finished", resume: { session_id: "s1" } }),
);
const NO_SESSION = file("no-session.jsonl", line({ type: "run.started", backend: "claude" }));
const NOT_JSON = file("not-json.json", "{ nope");
const BAD_DRAFT = file("bad-draft.json", JSON.stringify({ $schema: "https://example.com/draft-99", type: "object" }));
const EMPTY = file("empty.jsonl", "");
const LONG_PROMPT = "x".repeat(200_000);
const LONG_PROMPT_FILE = file("long-prompt.txt", LONG_PROMPT);

/** agentstream's own flags, as messages name them. */
const OUR_FLAGS = [...new Set(RUN_OPTIONS.flatMap((row) => clisOf(row).map(longFlag)))];
/** What a message quotes ("--x", a backend's own ["--sandbox"]) is the caller's or the backend's, not a flag of ours. */
const unquoted = (text: string): string => text.replace(/"(?:[^"\\]|\\.)*"/g, '""');

/** The flags of agentstream's that TEXT names. */
function flagsNamed(text: string): string[] {
  const bare = unquoted(text);
  return OUR_FLAGS.filter((flag) => new RegExp(`(^|[^\\w-])${flag}(?![\\w-])`).test(bare));
}

/** The library's options that TEXT names ("option maxTurns", "option autoMode: false"). */
function optionsNamed(text: string): string[] {
  return [...unquoted(text).matchAll(/\boption ([a-zA-Z]+(?:\.[a-zA-Z]+)?)/g)].map((m) => m[1]!);
}

interface Case {
  name: string;
  /** The library's options, on top of { backend, transport, bin: MISSING, prompt: "hi" }. */
  lib: Partial<RunOptions>;
  /** The same as the CLI's arguments (after --backend, --transport and --bin), or none where the CLI cannot say it. */
  cli?: string[];
  /** The CLI's prompt arguments (default: -- hi). */
  cliPrompt?: string[];
  /** The CLI is given no --bin (nor is the library a bin). */
  noBin?: boolean;
}

const CASES: Case[] = [
  { name: "an empty bin", lib: { bin: "" }, cli: ["--bin="] },
  { name: "no bin where the backend has no executable of its own", lib: {}, cli: [], noBin: true },
  { name: "a tool name that is not portable", lib: { allowTools: ["delete"] }, cli: ["--allow-tool", "delete"] },
  { name: "web_search", lib: { allowTools: ["web_search"] }, cli: ["--allow-tool", "web_search"] },
  { name: "a rule with a pattern", lib: { allowTools: ["shell(git *)"] }, cli: ["--allow-tool", "shell(git *)"] },
  { name: "the old prefix form", lib: { denyTools: ["shell(git )"] }, cli: ["--deny-tool", "shell(git )"] },
  { name: "a deny rule", lib: { denyTools: ["shell"] }, cli: ["--deny-tool", "shell"] },
  {
    name: "a tool both allowed and denied",
    lib: { allowTools: ["shell"], denyTools: ["shell"] },
    cli: ["--allow-tool", "shell", "--deny-tool", "shell"],
  },
  { name: "a rule that looks like a flag", lib: { allowTools: ["-x"] }, cli: ["--allow-tool=-x"] },
  { name: "approvals never", lib: { approvals: "never" }, cli: ["--approvals", "never"] },
  { name: "approvals auto", lib: { approvals: "auto" }, cli: ["--approvals", "auto"] },
  { name: "no auto mode", lib: { autoMode: false }, cli: ["--no-auto-mode"] },
  {
    name: "no auto mode with approvals auto",
    lib: { autoMode: false, approvals: "auto" },
    cli: ["--no-auto-mode", "--approvals", "auto"],
  },
  { name: "resume", lib: { resume: "s1" }, cli: ["--resume", "s1"] },
  { name: "a session id that looks like a flag", lib: { resume: "-s" }, cli: ["--resume=-s"] },
  {
    name: "resume and continueFrom",
    lib: { resume: "s1", continueFrom: CLAUDE_STREAM },
    cli: ["--resume", "s1", "--continue-from", CLAUDE_STREAM],
  },
  { name: "a missing recording", lib: { continueFrom: MISSING }, cli: ["--continue-from", MISSING] },
  { name: "a recording with no session", lib: { continueFrom: NO_SESSION }, cli: ["--continue-from", NO_SESSION] },
  {
    name: "another backend's recording",
    lib: { continueFrom: CLAUDE_STREAM },
    cli: ["--continue-from", CLAUDE_STREAM],
  },
  { name: "a model", lib: { model: "m" }, cli: ["--model", "m"] },
  { name: "a provider", lib: { provider: "p" }, cli: ["--provider", "p"] },
  { name: "a workdir", lib: { workdir: scratch.dir }, cli: ["--workdir", scratch.dir] },
  {
    name: "a workdir with resume",
    lib: { workdir: scratch.dir, resume: "s1" },
    cli: ["--workdir", scratch.dir, "--resume", "s1"],
  },
  { name: "max turns", lib: { maxTurns: 2 }, cli: ["--max-turns", "2"] },
  { name: "max tokens", lib: { maxTokens: 100 }, cli: ["--max-tokens", "100"] },
  { name: "max cost", lib: { maxCostUsd: 1 }, cli: ["--max-cost-usd", "1"] },
  { name: "a cwd that is no directory", lib: { cwd: MISSING }, cli: ["--cwd", MISSING] },
  { name: "a prompt too long", lib: { prompt: LONG_PROMPT }, cli: [], cliPrompt: ["--prompt-file", LONG_PROMPT_FILE] },
  { name: "a backend argument too long", lib: { backendArgs: ["y".repeat(140_000)] } },
  { name: "a backend argument with a NUL byte", lib: { backendArgs: ["a\0b"] } },
  { name: "an output schema that is not JSON", lib: { outputSchema: NOT_JSON }, cli: ["--output-schema", NOT_JSON] },
  { name: "an output schema that is missing", lib: { outputSchema: MISSING }, cli: ["--output-schema", MISSING] },
  { name: "an output schema of no known draft", lib: { outputSchema: BAD_DRAFT }, cli: ["--output-schema", BAD_DRAFT] },
  { name: "onPermissionRequest", lib: { onPermissionRequest: () => undefined } },
  { name: "a timeout of 0", lib: { timeoutMs: 0 }, cli: ["--timeout", "0"] },
];

const TRANSPORTS = ["native", "acp"] as const;

interface Tried {
  where: string;
  threw?: { message: string; hint?: string };
  finished?: Extract<CanonicalEvent, { type: "run.finished" }>;
}

async function tryRun(options: RunOptions): Promise<Pick<Tried, "threw" | "finished">> {
  try {
    let finished: Tried["finished"];
    for await (const event of run(options)) if (event.type === "run.finished") finished = event;
    return { finished };
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return { threw: { message: err.message, ...(err.hint !== undefined ? { hint: err.hint } : {}) } };
  }
}

async function tryNormalize(options: NormalizeOptions): Promise<Pick<Tried, "threw" | "finished">> {
  try {
    for await (const _ of normalizeStream([], options));
    return {};
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return { threw: { message: err.message, ...(err.hint !== undefined ? { hint: err.hint } : {}) } };
  }
}

const said = ({ message, hint }: { message: string; hint?: string }): string => `${message}\nhint: ${hint ?? ""}`;

/** The CLI's refusal of the same: exit 2, and every option the library named is named as its flag. */
async function expectCliNames(args: string[], library: string): Promise<void> {
  const cli = await runCli(args);
  expect(cli.code, `${args.join(" ")}\n${cli.stderr}`).toBe(2);
  const named = flagsNamed(cli.stderr);
  expect(named.length, cli.stderr).toBeGreaterThan(0);
  for (const option of optionsNamed(library))
    expect(cli.stderr, `${library}\nagainst the CLI's\n${cli.stderr}`).toMatch(
      new RegExp(`(^|[^\\w-])${cliNaming(option)}(?![\\w-])`),
    );
}

describe("library refusal words", () => {
  it("run() over every backend and transport: no refusal names a flag, and the CLI names each as its flag", async () => {
    const refused = new Map<string, { args: string[]; library: string }>();
    const quiet: Tried[] = [];
    const flagged: string[] = [];
    const unrefused: string[] = [];
    // What the run notes for its caller (a limit that undercounts) is worded as the library's too.
    const notes = new Set<string>();
    for (const c of CASES) {
      let anyRefused = false;
      for (const backend of BACKEND_NAMES)
        for (const transport of TRANSPORTS) {
          const where = `${c.name}, ${backend} (${transport})`;
          const tried = await tryRun({
            backend,
            transport,
            prompt: "hi",
            env: { PATH: process.env.PATH },
            onNote: (text) => notes.add(text),
            ...(c.noBin ? {} : { bin: MISSING }),
            ...c.lib,
          });
          if (tried.finished) quiet.push({ where, ...tried });
          if (!tried.threw) continue;
          anyRefused = true;
          const text = said(tried.threw);
          if (flagsNamed(text).length > 0) flagged.push(`${where}: ${text}`);
          // One CLI run per distinct refusal (the backend's name aside).
          const key = text.replaceAll(backend, "B");
          if (c.cli && !refused.has(key))
            refused.set(key, {
              args: [
                "run",
                "--backend",
                backend,
                "--transport",
                transport,
                ...(c.noBin ? [] : ["--bin", MISSING]),
                ...c.cli,
                ...(c.cliPrompt ?? ["--", "hi"]),
              ],
              library: text,
            });
        }
      if (!anyRefused) unrefused.push(c.name);
    }
    expect(unrefused, "cases no backend refused").toEqual([]);
    expect([...new Set(flagged.map((f) => f.replace(/^[^:]*: /, "")))], "refusals that name a flag").toEqual([]);
    expect(notes.size).toBeGreaterThan(0);
    expect(
      [...notes].filter((note) => flagsNamed(note).length > 0),
      "notes that name a flag",
    ).toEqual([]);
    // A backend not found is said in run.finished, the same for both sides: by no flag or option name.
    const notFound = quiet.filter((t) => t.finished?.error?.code === "backend_not_found");
    expect(notFound.length).toBeGreaterThan(0);
    for (const t of notFound) {
      expect(flagsNamed(t.finished!.error!.message), t.where).toEqual([]);
      expect(optionsNamed(t.finished!.error!.message), t.where).toEqual([]);
    }
    expect(refused.size).toBeGreaterThan(20);
    for (const { args, library } of refused.values()) await expectCliNames(args, library);
  }, 240_000);

  const NORMALIZE: { name: string; lib: NormalizeOptions; cli?: string[] }[] = [
    { name: "an output schema that is not JSON", lib: { outputSchema: NOT_JSON }, cli: ["--output-schema", NOT_JSON] },
    { name: "an output schema that is missing", lib: { outputSchema: MISSING }, cli: ["--output-schema", MISSING] },
    {
      name: "an output schema of no known draft",
      lib: { outputSchema: BAD_DRAFT },
      cli: ["--output-schema", BAD_DRAFT],
    },
    { name: "an output schema that is no schema", lib: { outputSchema: { type: 5 } } },
    { name: "an unknown protocol", lib: { from: "nope" as never }, cli: ["--from", "nope"] },
    { name: "a line limit of 0", lib: { maxLineBytes: 0 }, cli: ["--max-line-bytes", "0"] },
  ];

  it.each(NORMALIZE.map((c) => [c.name, c] as const))(
    "normalizeStream(): %s names no flag, the CLI names it as its flag",
    async (_name, c) => {
      const tried = await tryNormalize(c.lib);
      expect(tried.threw).toBeDefined();
      const text = said(tried.threw!);
      expect(flagsNamed(text), text).toEqual([]);
      expect(optionsNamed(text).length, text).toBeGreaterThan(0);
      if (c.cli) await expectCliNames(["normalize", ...c.cli, EMPTY], text);
    },
  );
});

/** Every reason a backend gives for lacking an option (or for a tool no rule can name), natively and over ACP. */
function reasons(): { where: string; lacks: Words }[] {
  const acp = BACKENDS.filter((b) => b.acpMode !== undefined && b.protocol !== "acp").map((b) =>
    withTransport(b, "acp", BACKENDS),
  );
  return [...BACKENDS, ...acp].flatMap((backend) => {
    const where = `${backend.name} (${backend.transport ?? "native"})`;
    const entries: [string, object][] = Object.entries(backend.supports as Record<string, object>).flatMap(
      ([option, entry]): [string, object][] =>
        "reaches" in entry || "lacks" in entry
          ? [[option, entry]]
          : Object.entries(entry as Record<string, object>).map(([choice, e]) => [`${option} ${choice}`, e]),
    );
    const kinds: [string, object][] = Object.entries(backend.toolNames.ruleKinds ?? {}).map(([name, kind]) => [
      `rule ${name}`,
      kind,
    ]);
    return [...entries, ...kinds].flatMap(([what, entry]) =>
      "lacks" in entry ? [{ where: `${where} ${what}`, lacks: (entry as { lacks: Words }).lacks }] : [],
    );
  });
}

describe("a backend's reasons, worded for each side", () => {
  it("every reason in the library's words names no flag of ours, and the CLI's names each option the library's does", () => {
    const all = reasons();
    expect(all.length).toBeGreaterThan(30);
    const flagged = all.filter(({ lacks }) => flagsNamed(wordedWith(lacks, libraryNaming)).length > 0);
    expect(flagged.map((r) => `${r.where}: ${wordedWith(r.lacks, libraryNaming)}`)).toEqual([]);
    for (const { where, lacks } of all) {
      const cli = wordedWith(lacks, cliNaming);
      expect(optionsNamed(cli), where).toEqual([]);
      for (const option of optionsNamed(wordedWith(lacks, libraryNaming)))
        expect(cli, where).toMatch(new RegExp(`(^|[^\\w-])${cliNaming(option)}(?![\\w-])`));
    }
  });

  const reasonOf = (name: string, ...path: string[]): Words => {
    let entry: unknown = backendNamed(name).supports;
    for (const key of path) entry = (entry as Record<string, unknown>)[key];
    return (entry as { lacks: Words }).lacks;
  };

  it.each([
    ["claude workdir", reasonOf("claude", "workdir"), "use --cwd DIR to choose", "use option cwd DIR to choose"],
    [
      "atomic approvals never",
      reasonOf("atomic", "approvals", "never"),
      "(--approvals auto is all it has)",
      "(option approvals auto is all it has)",
    ],
    [
      "codex allowTools",
      reasonOf("codex", "allowTools"),
      "(--backend-arg=--sandbox --backend-arg=MODE)",
      '(option backendArgs ["--sandbox", "MODE"])',
    ],
    [
      "copilot autoMode",
      reasonOf("copilot", "autoMode"),
      // A backend's own flags stay as they are.
      "agentstream passes --allow-all-tools --no-ask-user); narrow what it may do with --backend-arg=--deny-tool=TOOL or --backend-arg=--available-tools=TOOLS",
      'agentstream passes --allow-all-tools --no-ask-user); narrow what it may do with option backendArgs ["--deny-tool=TOOL"] or option backendArgs ["--available-tools=TOOLS"]',
    ],
    [
      "acp model",
      reasonOf("acp", "model"),
      "give the agent's own flag with --backend-arg",
      "give the agent's own flag with option backendArgs",
    ],
    [
      "atomic allowTools",
      reasonOf("atomic", "allowTools"),
      "(--deny-tool keeps one from the model; --tools",
      "(option denyTools keeps one from the model; --tools",
    ],
  ])("%s", (_where, lacks, cli, library) => {
    expect(wordedWith(lacks, cliNaming)).toContain(cli);
    expect(wordedWith(lacks, libraryNaming)).toContain(library);
  });
});
