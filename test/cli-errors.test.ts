// How agentstream says it was called wrongly: one prefix, and a hint where one helps.
import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";

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
      'hint: to pass "-x" as the prompt, put it after --: agentstream run --backend NAME -- "-x"',
    );
  });
});
