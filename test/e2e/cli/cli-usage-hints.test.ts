// A newcomer's first mistakes get a hint that says what to type instead (issue 41): a prompt typed as
// several unquoted words, and a flag of one command given to another that has a counterpart for it.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";

// Where a hint's command is parsed back by sh: a file appearing here means a value ran.
const scratch = mkdtempSync(join(tmpdir(), "agentstream-usage-hints-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("a prompt typed as several words", () => {
  it("run --backend evosci Summarize data/results.csv into notes.md: exit 2, shows the quoted form and --", async () => {
    const run = await runCli(["run", "--backend", "evosci", "Summarize", "data/results.csv", "into", "notes.md"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("agentstream: too many arguments for 'run'. Expected 1 argument but got 4.");
    expect(run.stderr).toContain(
      'hint: the prompt is one argument: quote it, as in agentstream run --backend evosci "Summarize data/results.csv into notes.md"\n',
    );
    expect(run.stderr).toContain(
      'hint: a prompt that starts with - goes after --: agentstream run --backend evosci -- "-..."\n',
    );
  });

  it("words after -- that start with -: the quoted form keeps the --", async () => {
    const run = await runCli(["run", "--backend", "pi", "--", "-v", "is", "verbose"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'hint: the prompt is one argument: quote it, as in agentstream run --backend pi -- "-v is verbose"\n',
    );
  });

  it("a prompt with a double quote or a $ in it is shown in single quotes, as the shell takes it", async () => {
    const run = await runCli(["run", "--backend", "pi", "it's", "$HOME"]);
    expect(run.stderr).toContain(`as in agentstream run --backend pi 'it'\\''s $HOME'\n`);
  });

  it("without --backend yet: the hint says NAME", async () => {
    const run = await runCli(["run", "hi", "there"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('quote it, as in agentstream run --backend NAME "hi there"');
  });
});

describe("a flag of another command, with a counterpart here", () => {
  it.each([
    [
      ["normalize", "--backend", "pi", "FILE"],
      "--backend",
      "hint: normalize takes --from instead: --from pi (--backend is run's",
    ],
    [["normalize", "--backend=pi", "FILE"], "--backend=pi", "hint: normalize takes --from instead: --from pi ("],
    [["normalize", "--backend"], "--backend", "hint: normalize takes --from instead: --from NAME ("],
    [
      ["run", "--from", "pi", "x.jsonl"],
      "--from",
      "hint: run takes --backend instead: --backend pi (--from is normalize's",
    ],
    [
      ["normalize", "--endpoint", "http://127.0.0.1:4318", "f"],
      "--endpoint",
      "hint: normalize takes --otlp instead: --otlp http://127.0.0.1:4318 (",
    ],
    [
      ["run", "--endpoint", "http://127.0.0.1:4318", "hi"],
      "--endpoint",
      "hint: run takes --otlp instead: --otlp http://127.0.0.1:4318 (",
    ],
    [
      ["export", "otlp", "--otlp", "http://127.0.0.1:4318", "f"],
      "--otlp",
      "hint: export otlp takes --endpoint instead: --endpoint http://127.0.0.1:4318 (",
    ],
  ])("%j: exit 2, the unknown option named, its counterpart shown, no other guess", async (args, given, hint) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`agentstream: unknown option '${given}'\n`);
    expect(run.stderr).toContain(hint);
    // Neither commander's nearest spelling (`--otlp` → --help) nor run's "a prompt after --" hint.
    expect(run.stderr).not.toContain("Did you mean");
    expect(run.stderr).not.toMatch(/hint: to pass .* as the prompt/);
  });

  it("an option with no counterpart keeps commander's suggestion alone", async () => {
    const run = await runCli(["normalize", "--frm", "pi"]);
    expect(run.stderr).toContain("(Did you mean --from?)");
    expect(run.stderr).not.toContain("hint:");
  });
});

describe("the user's words in a hint's command are quoted for the shell", () => {
  // A value that would run something if the hint were pasted unquoted: the shell must give it back as one word.
  const HOSTILE = "$(touch ran) `touch ran`; it's";

  it.each([
    // [arguments, the command the hint shows starts after, the word it must hold]
    [["run", "--backend", "pi", `-${HOSTILE}`], "put it after --: ", `-${HOSTILE}`],
    [["run", "--from", HOSTILE, "x.jsonl"], "instead: ", HOSTILE],
    [["run", `--from=${HOSTILE}`, "x.jsonl"], "instead: ", HOSTILE],
    [["run", "--backend", "pi", "two", HOSTILE], "quote it, as in ", `two ${HOSTILE}`],
  ])("%j: sh reads the hint's command back with the value as one word", async (args, before, word) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    const line = run.stderr.split("\n").find((l) => l.includes(before));
    expect(line, run.stderr).toBeDefined();
    // The command ends at its closing words in parentheses (prose), if it has them.
    const shown = line!.slice(line!.indexOf(before) + before.length);
    const command = shown.endsWith(")") ? shown.slice(0, shown.lastIndexOf(" (")) : shown;
    const cwd = mkdtempSync(join(scratch, "case-"));
    const words = execFileSync("sh", ["-c", `printf '%s\\0' ${command}`], { cwd, encoding: "utf8" });
    expect(words.split("\0")).toContain(word);
    expect(readdirSync(cwd)).toEqual([]);
  });
});
