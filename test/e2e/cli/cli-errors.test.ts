// How agentstream says it was called wrongly: one prefix, and a hint where one helps.
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";

describe("usage errors", () => {
  it.each([
    [["run", "--backend", "pi", "-x"]],
    [["normalize", "--from", "no-such-backend"]],
    [["bogus"]],
    [["normalize", "/no/such/file"]],
  ])("%j: exit 2, nothing on stdout, every line of the message prefixed agentstream:", async (args) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^agentstream: /);
    expect(run.stderr).not.toMatch(/^error:/m);
  });

  it("suggests -- for a prompt that starts with -", async () => {
    const run = await runCli(["run", "--backend", "pi", "-x"]);
    expect(run.stderr).toContain("agentstream: unknown option '-x'");
    expect(run.stderr).toContain(
      'hint: to pass "-x" as the prompt, put it after --: agentstream run --backend NAME -- -x',
    );
  });

  it.each([
    [["normalize", "--frm", "pi"], "--frm", "--from"],
    [["report", "--formt", "md", "x.jsonl"], "--formt", "--format"],
    [["verify", "--quite"], "--quite", undefined],
  ])(
    "%j: the unknown option named, a suggestion where one is close, no prompt hint (only run has a prompt)",
    async (args, given, suggested) => {
      const run = await runCli(args);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`agentstream: unknown option '${given}'`);
      if (suggested) expect(run.stderr).toContain(`(Did you mean ${suggested}?)`);
      expect(run.stderr).not.toMatch(/hint: .*prompt/);
    },
  );

  it("run --backnd evosci: names the unknown option and suggests --backend, not only that --backend is missing", async () => {
    const run = await runCli(["run", "--backnd", "evosci", "hi"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("agentstream: unknown option '--backnd'");
    expect(run.stderr).toContain("(Did you mean --backend?)");
    expect(run.stderr).not.toContain("required option");
  });

  it("run without --backend still says it is required", async () => {
    const run = await runCli(["run", "hi"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("agentstream: required option '--backend <name>' not specified");
    expect(run.stdout).toBe("");
  });
});

describe("--backend-exit", () => {
  it.each([["256"], ["999"], ["1e2"], ["TERM"]])(
    "%s is refused by its one parser, before any input is read: exit 2",
    async (value) => {
      const run = await runCli(["normalize", "--backend-exit", value, "/no/such/file"]);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain(
        `agentstream: option '--backend-exit <code|signal>' argument '${value}' is invalid. expected an exit code (0-255) or a signal name such as SIGTERM.`,
      );
    },
  );
});
