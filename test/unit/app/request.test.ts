// The CLI and the library make the same request from the same options (issue 46 item 1): commander's
// parsed flags through requestFromCli, the library's options through requestFromLibrary.
import { describe, expect, it } from "vitest";
import { RUN_OPTIONS } from "../../../src/app/options.js";
import { clisOf } from "../../../src/core/option-row.js";
import { requestFromCli, requestFromLibrary } from "../../../src/app/request.js";
import { buildProgram } from "../../../src/cli/main.js";
import { cliNaming, libraryNaming } from "../../../src/app/options.js";
import { OptionError } from "../../../src/core/errors.js";

function parsed(command: "run" | "normalize", argv: string[]): Record<string, unknown> {
  const program = buildProgram();
  const found = program.commands.find((c) => c.name() === command)!;
  found.parseOptions(argv);
  return found.opts();
}

/** The fields only one side has: the CLI's outputs and stderr, the library's callbacks and host. */
function shared(request: object): Record<string, unknown> {
  const cliOnly = new Set(RUN_OPTIONS.filter((row) => row.library === undefined).map((row) => row.key));
  return Object.fromEntries(Object.entries(request).filter(([key]) => !cliOnly.has(key)));
}

const RUN_CASES: [string[], Record<string, unknown>][] = [
  [["--backend", "evosci"], { backend: "evosci" }],
  [
    [
      "--backend",
      "claude",
      "--model",
      "m",
      "--allow-tool",
      "shell",
      "--allow-tool",
      "read",
      "--deny-tool",
      "web_fetch",
    ],
    { backend: "claude", model: "m", allowTools: ["shell", "read"], denyTools: ["web_fetch"] },
  ],
  [
    ["--backend", "codex", "--timeout", "1.5", "--linger", "0", "--grace", "2", "--max-turns", "3"],
    { backend: "codex", timeoutMs: 1500, lingerMs: 0, graceMs: 2000, maxTurns: 3 },
  ],
  [
    ["--backend", "gemini", "--transport", "acp", "--no-auto-mode", "--resume", "s1", "--cwd", "/tmp"],
    { backend: "gemini", transport: "acp", autoMode: false, resume: "s1", cwd: "/tmp" },
  ],
  [
    ["--continue-from", "f.jsonl", "--backend-arg", "-x", "--max-tokens", "10", "--max-cost-usd", "0.5"],
    { continueFrom: "f.jsonl", backendArgs: ["-x"], maxTokens: 10, maxCostUsd: 0.5 },
  ],
  [
    ["--backend", "pi", "--raw", "--no-deltas", "--max-line-bytes", "100", "--output-schema", "s.json"],
    { backend: "pi", raw: true, deltas: false, maxLineBytes: 100, outputSchema: "s.json" },
  ],
  [
    ["--backend", "pi", "--otlp", "http://127.0.0.1:4318", "--otlp-content", "--approvals", "never"],
    { backend: "pi", otlp: { endpoint: "http://127.0.0.1:4318", content: true }, approvals: "never" },
  ],
  [["--backend", "pi", "--otlp"], { backend: "pi", otlp: {} }],
  [
    ["--backend", "opencode", "--provider", "p", "--workdir", "w", "--bin", "b"],
    { backend: "opencode", provider: "p", workdir: "w", bin: "b" },
  ],
];

describe("one request from either side", () => {
  it.each(RUN_CASES)("run %j is the library's %j", (argv, options) => {
    const cli = requestFromCli("run", parsed("run", argv)).request;
    const library = requestFromLibrary("run", { prompt: "p", ...options }).request;
    expect(shared(cli)).toEqual(shared({ ...library, prompt: undefined }));
    expect(library).toMatchObject(options);
  });

  it("normalize: the same request from --from, --backend-exit, --model and the translation's flags", () => {
    const cli = requestFromCli(
      "normalize",
      parsed("normalize", ["--from", "codex", "--backend-exit", "SIGTERM", "--model", "gpt-5", "--raw", "--no-deltas"]),
    ).request;
    const library = requestFromLibrary("normalize", {
      from: "codex",
      end: { backendExit: { code: null, signal: "SIGTERM" } },
      model: "gpt-5",
      raw: true,
      deltas: false,
    }).request;
    expect(shared(cli)).toEqual(shared(library));
  });

  it("fills in every default of the table, the same on both sides", () => {
    const cli = requestFromCli("run", parsed("run", [])).request;
    const library = requestFromLibrary("run", {}).request;
    const defaults = Object.fromEntries(
      RUN_OPTIONS.filter(
        (row) =>
          row.default !== undefined &&
          (row.library?.includes("run") || clisOf(row).some((cli) => cli.commands.includes("run"))),
      ).map((row) => [row.key, row.default]),
    );
    expect(library).toEqual(defaults);
    expect(cli).toEqual(defaults);
    expect(defaults).toMatchObject({
      transport: "native",
      autoMode: true,
      graceMs: 5000,
      allowTools: [],
      deltas: true,
    });
  });

  it("checks the table's relations on both sides, each worded for its side", () => {
    const cases: [string[], object, string, string][] = [
      [
        ["--no-auto-mode", "--approvals", "auto"],
        { autoMode: false, approvals: "auto" },
        "--no-auto-mode and --approvals auto exclude each other",
        "option autoMode: false and option approvals auto exclude each other",
      ],
      [
        ["--resume", "s", "--continue-from", "f"],
        { resume: "s", continueFrom: "f" },
        "--resume and --continue-from exclude each other",
        "option resume and option continueFrom exclude each other",
      ],
    ];
    for (const [argv, options, cliSaid, librarySaid] of cases) {
      const fromCli = refusal(() => requestFromCli("run", parsed("run", argv)));
      const fromLibrary = refusal(() => requestFromLibrary("run", options));
      expect(fromCli.wordedAs(cliNaming).message).toBe(cliSaid);
      expect(fromLibrary.wordedAs(libraryNaming).message).toBe(librarySaid);
    }
    expect(refusal(() => requestFromCli("run", parsed("run", ["-q", "-v"]))).wordedAs(cliNaming).message).toBe(
      "--quiet and --verbose exclude each other",
    );
    // What only excludes a value: --no-auto-mode with --approvals never is a request.
    expect(requestFromLibrary("run", { autoMode: false, approvals: "never" }).request).toMatchObject({
      autoMode: false,
      approvals: "never",
    });
  });

  it("says an option that does nothing without another, and leaves it out of the request", () => {
    const made = requestFromCli("run", parsed("run", ["--otlp-content"]));
    expect(made.request).not.toHaveProperty("otlp");
    expect(made.notes.map((note) => note(cliNaming))).toEqual(["--otlp-content does nothing without --otlp"]);
  });
});

function refusal(make: () => unknown): OptionError {
  try {
    make();
  } catch (err) {
    expect(err).toBeInstanceOf(OptionError);
    return err as OptionError;
  }
  throw new Error("no refusal");
}
