// --allow-tool, --deny-tool, --approvals, --resume: what each backend's argv
// gets for each rule, and the rules each one refuses before start.
import { describe, expect, it } from "vitest";
import type { BackendDefinition } from "../../../src/backends/definition.js";
import type { PortableRequest } from "../../../src/backends/request.js";
import { reaches, type Lacks } from "../../../src/backends/support.js";
import { argvOf, envOf, filesOf, fitted, type ArgvRequest } from "../../helpers/backend-argv.js";
import { BACKENDS, backendNamed } from "../../../src/backends/registry.js";
import { cliNaming } from "../../../src/app/options.js";
import { OptionError, wordedWith } from "../../../src/core/errors.js";

/** The permission options as the user gives them: tool names portable or native. */
type PermissionOptions = Pick<PortableRequest, "allowTools" | "denyTools" | "approvals" | "resume">;

const BASE: ArgvRequest = { prompt: "go on", backendArgs: [], promptTerminator: true };

/** The argv a backend gets for these options, the options checked as run checks them. */
function argvFor(name: string, options: PermissionOptions, request: Partial<ArgvRequest> = {}): string[] {
  const backend = backendNamed(name);
  return argvOf(backend, fitted(backend, { ...BASE, ...request, ...options }));
}

/** The refusal of these options, as the CLI says it. */
function refusal(name: string | BackendDefinition, options: PermissionOptions): string {
  try {
    fitted(typeof name === "string" ? backendNamed(name) : name, options);
  } catch (err) {
    expect(err).toBeInstanceOf(OptionError);
    return (err as OptionError).wordedAs(cliNaming).message;
  }
  throw new Error(`${typeof name === "string" ? name : name.name} took ${JSON.stringify(options)}`);
}

/** The argv with and without the options: what the options added, in order. */
function added(name: string, options: PermissionOptions): string[] {
  const without = argvFor(name, {});
  return argvFor(name, options).filter((arg) => !without.includes(arg));
}

describe("the argv each backend gets for each rule", () => {
  it.each([
    ["claude", { allowTools: ["shell"] }, ["--allowedTools", "Bash"]],
    [
      "claude",
      { allowTools: ["shell(git *)", "WebFetch"] },
      // Claude Code's `git *` is also `git` alone where it is the one `*`: agentstream's always (docs/permissions.md, Rules).
      ["--allowedTools", "Bash(git *)", "--allowedTools", "Bash(git)", "--allowedTools", "WebFetch"],
    ],
    ["claude", { denyTools: ["edit", "web_search"] }, ["--disallowedTools", "Edit", "--disallowedTools", "WebSearch"]],
    ["claude", { approvals: "never" }, ["--permission-prompts", "none"]],
    ["claude", { approvals: "auto" }, ["--permission-mode", "auto"]],
    ["claude", { resume: "5f1c" }, ["--resume", "5f1c"]],
    ["codex", { denyTools: ["shell"] }, ["--disable", "shell_tool", "--disable", "unified_exec"]],
    ["codex", { denyTools: ["web_search"] }, ["-c", 'web_search="disabled"']],
    ["codex", { resume: "019a" }, ["resume", "019a"]],
    [
      "gemini",
      { allowTools: ["shell", "read"] },
      ["--allowed-tools", "run_shell_command", "--allowed-tools", "read_file"],
    ],
    ["gemini", { approvals: "auto" }, ["--approval-mode", "yolo"]],
    ["gemini", { resume: "c0ffee" }, ["--resume", "c0ffee"]],
    ["pi", { denyTools: ["shell", "write"] }, ["--exclude-tools", "bash,write"]],
    ["pi", { resume: "0199" }, ["--session", "0199"]],
    ["atomic", { denyTools: ["edit"] }, ["--exclude-tools", "edit"]],
    ["atomic", { resume: "0199" }, ["--session", "0199"]],
    ["opencode", { resume: "ses_1" }, ["--session", "ses_1"]],
    // A rule in its own names is passed as written, read its own way (`bash` is its kind `shell`).
    ["copilot", { denyTools: ["bash(rm:*)"] }, ["--deny-tool=shell(rm:*)"]],
    ["copilot", { resume: "abc" }, ["--resume=abc"]],
    // Its rules take kinds: a tool.started name becomes the kind that governs the tool.
    ["copilot", { denyTools: ["bash"] }, ["--deny-tool=shell"]],
    ["copilot", { denyTools: ["bash(git push)"] }, ["--deny-tool=shell(git push)"]],
    ["copilot", { denyTools: ["create", "web_fetch"] }, ["--deny-tool=write", "--deny-tool=url"]],
    ["copilot", { allowTools: ["apply_patch"] }, ["--allow-tool=write"]],
    // Any other name is an MCP server's to it, a key of Object.prototype too.
    [
      "copilot",
      { denyTools: ["MyMCP(my_tool)", "constructor"] },
      ["--deny-tool=MyMCP(my_tool)", "--deny-tool=constructor"],
    ],
    ["evosci", { approvals: "never" }, ["--no-auto-mode"]],
    ["evosci", { resume: "thread-1" }, ["--resume", "thread-1"]],
  ] as const)("%s %j: %j", (name, options, expected) => {
    expect(added(name, options as PermissionOptions)).toEqual(expected);
  });

  it("approvals and auto mode that the backend has by default add nothing", () => {
    expect(added("evosci", { approvals: "auto" })).toEqual([]);
    expect(added("pi", { approvals: "auto" })).toEqual([]);
    expect(added("copilot", { approvals: "auto" })).toEqual([]);
  });

  it("Copilot CLI: an allow list replaces --allow-all-tools; a deny rule keeps it (denial wins over it)", () => {
    const allow = argvFor("copilot", { allowTools: ["bash(git:*)", "write"] });
    expect(allow).not.toContain("--allow-all-tools");
    expect(allow).toEqual(expect.arrayContaining(["--allow-tool=shell(git:*)", "--allow-tool=write"]));
    expect(argvFor("copilot", { denyTools: ["shell"] })).toContain("--allow-all-tools");
    expect(argvFor("copilot", { allowTools: ["write"], approvals: "auto" })).toContain("--allow-all-tools");
  });

  it("Gemini CLI: a denied tool is a deny rule of a policy file run writes, passed as --policy FILE", () => {
    const gemini = backendNamed("gemini");
    const asked = fitted(gemini, { ...BASE, denyTools: ["shell", "web_fetch"] });
    expect(filesOf(gemini, asked)).toEqual([
      expect.objectContaining({
        name: "rules.toml",
        text:
          '[[rule]]\ntoolName = "run_shell_command"\ndecision = "deny"\npriority = 999\n\n' +
          '[[rule]]\ntoolName = "web_fetch"\ndecision = "deny"\npriority = 999\n',
      }),
    ]);
    expect(filesOf(gemini, fitted(gemini, { ...BASE, allowTools: ["shell"] }))).toEqual([]);
    const argv = argvOf(gemini, asked, "/tmp/p.toml");
    expect(argv).toEqual(expect.arrayContaining(["--policy", "/tmp/p.toml"]));
  });

  it("OpenCode: the rules go in OPENCODE_PERMISSION (over its configs), merged over what the caller's variable says", () => {
    const opencode = backendNamed("opencode");
    const optionEnv = (options: PermissionOptions, env: NodeJS.ProcessEnv = {}) =>
      envOf(opencode, fitted(opencode, { ...BASE, ...options }), env);
    expect(optionEnv({ allowTools: ["shell"], denyTools: ["web_fetch"] })).toEqual({
      OPENCODE_PERMISSION: JSON.stringify({ bash: "allow", webfetch: "deny" }),
    });
    expect(optionEnv({ denyTools: ["bash"] }, { OPENCODE_PERMISSION: '{"edit":"deny","bash":"allow"}' })).toEqual({
      OPENCODE_PERMISSION: JSON.stringify({ edit: "deny", bash: "deny" }),
    });
    expect(optionEnv({ denyTools: ["bash"] }, { OPENCODE_PERMISSION: "not json" })).toEqual({
      OPENCODE_PERMISSION: JSON.stringify({ bash: "deny" }),
    });
    expect(optionEnv({ resume: "ses_1" })).toEqual({});
  });

  it("Codex resumes as `exec resume [flags] -- SESSION PROMPT`, the prompt still last", () => {
    const argv = argvFor("codex", { resume: "019a", denyTools: ["web_search"] }, { model: "m" });
    expect(argv.slice(0, 2)).toEqual(["exec", "resume"]);
    expect(argv.slice(-3)).toEqual(["--", "019a", "go on"]);
  });

  it("Codex refuses --workdir with --resume (exec resume has no --cd)", () => {
    expect(() => argvFor("codex", { resume: "019a" }, { workdir: "/w" })).toThrow(/codex exec resume has no --cd/);
  });

  it("every backend keeps the prompt one argument and passes the session it resumes", () => {
    // An ACP agent's prompt and session go over the protocol (session/prompt), not its argv (acp, qwen).
    for (const backend of BACKENDS.filter((b) => b.driver === undefined)) {
      const argv = argvOf(backend, {
        ...BASE,
        prompt: "PROMPT-X",
        resume: "S-1",
      });
      expect(
        argv.filter((arg) => arg.endsWith("PROMPT-X")),
        backend.name,
      ).toHaveLength(1);
      expect(
        argv.some((arg) => arg === "S-1" || arg.endsWith("=S-1")),
        backend.name,
      ).toBe(true);
    }
  });
});

describe("rules a backend cannot enforce are refused, naming it and what it lacks", () => {
  it.each([
    ["codex", { allowTools: ["shell"] }, "--allow-tool: Codex has no per-tool allow list"],
    [
      "codex",
      { denyTools: ["apply_patch"] },
      "--deny-tool apply_patch: Codex can turn off only command_execution and web_search",
    ],
    ["codex", { denyTools: ["read"] }, "--deny-tool read: Codex has no read tool agentstream can name"],
    ["codex", { approvals: "never" }, "--approvals never: Codex never stops for approvals in codex exec"],
    ["codex", { denyTools: ["shell(rm *)"] }, "--deny-tool shell(rm *): Codex cannot limit a tool by its arguments"],
    [
      "gemini",
      { denyTools: ["shell(rm *)"] },
      "--deny-tool shell(rm *): Gemini CLI cannot limit a tool by its arguments",
    ],
    [
      "gemini",
      { approvals: "never" },
      "--approvals never: Gemini CLI refuses a call that needs approval in headless mode",
    ],
    ["pi", { allowTools: ["shell"] }, "--allow-tool: pi asks for no approvals"],
    ["pi", { denyTools: ["web_search"] }, "--deny-tool web_search: pi has no web_search tool"],
    ["pi", { approvals: "never" }, "--approvals never: pi asks for no approvals"],
    ["atomic", { allowTools: ["read"] }, "--allow-tool: Atomic asks for no approvals"],
    [
      "opencode",
      { allowTools: ["bash(git *)"] },
      "--allow-tool bash(git *): OpenCode cannot limit a tool by its arguments",
    ],
    ["opencode", { allowTools: ["write"], denyTools: ["edit"] }, "--allow-tool and --deny-tool both name edit"],
    ["opencode", { approvals: "auto" }, "--approvals auto: OpenCode never stops for approvals in opencode run"],
    ["copilot", { approvals: "never" }, "--approvals never: Copilot CLI cannot stop for input in -p mode"],
    ["copilot", { allowTools: ["read"] }, "--allow-tool read: Copilot CLI has no read tool agentstream can name"],
    ["evosci", { allowTools: ["shell"] }, "--allow-tool: EvoScientist has no per-tool permissions"],
    ["evosci", { denyTools: ["execute"] }, "--deny-tool: EvoScientist has no per-tool permissions"],
    ["claude", { allowTools: ["Bash"], denyTools: ["shell"] }, "--allow-tool and --deny-tool both name Bash"],
    ["claude", { resume: "-x" }, '--resume "-x": starts with "-", so the backend would read it as a flag'],
    ["copilot", { denyTools: ["view"] }, "--deny-tool view: Copilot CLI asks no permission to read or search files"],
    // A portable pattern reaches a backend only as native rules that decide the same (docs/permissions.md, Rules).
    [
      "copilot",
      { denyTools: ["shell(rm *)"] },
      "--deny-tool shell(rm *): Copilot CLI cannot limit a tool by its arguments as agentstream reads a pattern",
    ],
    [
      "claude",
      { allowTools: ["read(src/)"] },
      "--allow-tool read(src/): Claude Code cannot limit a tool by its arguments",
    ],
    [
      "claude",
      { denyTools: ["shell(npm:*)"] },
      "--deny-tool shell(npm:*): `:*` is another tool's prefix form, not agentstream's",
    ],
    ["pi", { denyTools: ["a,b"] }, '--deny-tool "a,b": a tool name holds no comma'],
    ["gemini", { allowTools: ["shell,read"] }, '--allow-tool "shell,read": a tool name holds no comma'],
    ["copilot", { allowTools: ["grep"] }, "--allow-tool grep: Copilot CLI asks no permission to read or search files"],
  ] as const)("%s %j", (name, options, message) => {
    expect(refusal(name, options as PermissionOptions)).toContain(message);
  });

  it("--resume on a backend without resume is refused, naming it and what it lacks", () => {
    const without: BackendDefinition = {
      ...backendNamed("claude"),
      displayName: "No-Resume",
      supports: { ...backendNamed("claude").supports, resume: { lacks: "keeps no sessions" } },
    };
    expect(refusal(without, { resume: "abc" })).toBe("--resume: No-Resume keeps no sessions");
  });

  it("every backend declares what it lacks in words, and maps portable names only to its own tool names", () => {
    for (const backend of BACKENDS)
      for (const entry of Object.values(backend.supports))
        for (const support of "reaches" in entry || "lacks" in entry ? [entry] : Object.values(entry))
          expect(
            (reaches(support) ? support.via : wordedWith((support as Lacks).lacks, cliNaming)).length,
            backend.name,
          ).toBeGreaterThan(0);
  });
});

describe("a name given for a rule or a session is never an argument the backend could read as a flag", () => {
  const FLAGS = ["--yolo", "-y", "--allowed-tools=x", "-"];

  it.each(BACKENDS.map((backend) => backend.name))(
    "%s refuses such a tool name for --allow-tool and --deny-tool, and such a --resume",
    (name) => {
      for (const flag of FLAGS) {
        const flagProblem = `${JSON.stringify(flag)}: starts with "-", so the backend would read it as a flag`;
        expect(refusal(name, { allowTools: [flag] })).toBe(`--allow-tool ${flagProblem}`);
        expect(refusal(name, { denyTools: ["shell", flag] })).toBe(`--deny-tool ${flagProblem}`);
        expect(refusal(name, { resume: flag })).toBe(`--resume ${flagProblem}`);
      }
    },
  );

  // Quoted escaped: DEL and C1 controls too, which JSON leaves raw (a terminal acts on some).
  it.each([
    ["run_shell_command\u007f", '"run_shell_command\\u007f"', "holds a control character"],
    ["a\u0000--yolo", '"a\\u0000--yolo"', "holds a NUL byte, which no program can be given as an argument"],
    ["shell\n--yolo", '"shell\\n--yolo"', "holds a control character"],
    ["\u009b31mshell", '"\\u009b31mshell"', "holds a control character"],
    ["shell\ud800", '"shell\\ud800"', "is not well-formed Unicode (half a surrogate pair)"],
    ["", '""', "is empty"],
  ])("refuses %j on every backend, quoted as %s: %s", (rule, shown, problem) => {
    for (const backend of BACKENDS) {
      expect(refusal(backend.name, { denyTools: [rule] }), backend.name).toBe(`--deny-tool ${shown}: ${problem}`);
      expect(refusal(backend.name, { resume: rule }), backend.name).toBe(`--resume ${shown}: ${problem}`);
    }
  });

  it("quotes a long refused name cut short", () => {
    const message = refusal("claude", { denyTools: [`-${"x".repeat(100_000)}`] });
    expect(message.length).toBeLessThan(200);
  });
});
