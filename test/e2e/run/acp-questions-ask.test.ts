// run --approvals ask answering a question in a real terminal (tmux): each field of the stand-in agent's form
// (test/fixtures/acp/question-agent.mjs) asked in turn on /dev/tty, its choices numbered by their titles (secrets
// hidden), the values sent; ! declines; the end of the terminal's input, or no answer in time, cancels (the run
// ends needs_input with the question pending).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, parseJsonl } from "../../helpers/cli.js";
import { HAS_TMUX, sh, Terminal } from "../../helpers/terminal.js";

const AGENT = fileURLToPath(new URL("../../fixtures/acp/question-agent.mjs", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "agentstream-question-ask-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let runs = 0;
/** In the agent's environment, so hidden wherever the run shows it: the agent quotes it in a choice's title. */
const SECRET = "sk-live-0123456789abcdefSECRET";

/** Every field type ACP's form schema has, in one form. */
const FORM = {
  mode: "form",
  message: "Set up the project",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", title: "Name", minLength: 1 },
      ratio: { type: "number", description: "Ratio", maximum: 1 },
      count: { type: "integer", description: "How many" },
      go: { type: "boolean", description: "Go on?" },
      colour: {
        type: "string",
        description: "Colour",
        oneOf: [
          { const: "red", title: "Red" },
          { const: "navy", title: "Deep blue" },
          { const: "green", title: `Green as \u001b[32m${SECRET}` },
        ],
      },
      tags: {
        type: "array",
        description: "Tags",
        items: {
          anyOf: [
            { const: "a", title: "Alpha" },
            { const: "b", title: "B" },
            { const: "c", title: "Gamma" },
          ],
        },
      },
      note: { type: "string", description: "A note" },
    },
    required: ["name", "colour"],
  },
};

function askInTerminal(more: string[] = []) {
  const out = join(tmp, `out-${++runs}.jsonl`);
  const answer = join(tmp, `answer-${runs}.json`);
  const params = join(tmp, `params-${runs}.json`);
  writeFileSync(params, JSON.stringify(FORM));
  const args = ["run", "--backend", "acp", "--bin", process.execPath, "--backend-arg", AGENT, "--approvals", "ask"];
  const line = [
    `export QUESTION_PARAMS_FILE=${sh(params)} QUESTION_ANSWER_FILE=${sh(answer)} QUESTION_TOKEN=${sh(SECRET)}`,
    `${sh(process.execPath)} ${sh(BIN)} ${[...args, ...more, "--", "ask me"].map(sh).join(" ")} > ${sh(out)}`,
  ].join("\n");
  const terminal = new Terminal(tmp, line, { width: 200 });
  return {
    terminal,
    events: () => (existsSync(out) ? parseJsonl(readFileSync(out, "utf8")) : []),
    sent: () => JSON.parse(readFileSync(answer, "utf8")) as unknown,
    stdout: () => readFileSync(out, "utf8"),
  };
}

describe.skipIf(!HAS_TMUX).concurrent("run --approvals ask answering a question (a person at a real terminal)", () => {
  it("each field asked in turn, choices numbered by title; a wrong answer asked again; the values sent, never on stdout", async () => {
    const { terminal, events, sent, stdout } = askInTerminal();
    try {
      const step = async (shown: string, ...typed: string[]) => {
        await terminal.waitForScreen((s) => s.includes(shown), shown);
        terminal.keys(...typed, "Enter");
      };
      await step("agentstream: the agent asks: Set up the project");
      await step("[1/7] Name", "ada");
      await step("[2/7] Ratio (a number, or Enter to skip)", "lots");
      await step("(not a number)", "0.25");
      await step("[3/7] How many (a whole number, or Enter to skip)", "3");
      await step("[4/7] Go on? (y or n, or Enter to skip)", "y");
      await terminal.waitForScreen((s) => s.includes("  3) Green"), "the choices numbered");
      // Each choice by its title, its value beside it where the title does not say it; the secret hidden, escapes shown.
      expect(terminal.screen()).toContain(
        "[5/7] Colour (a number)\n  1) Red\n  2) Deep blue (navy)\n  3) Green as ␛[32m[redacted] (green)\n",
      );
      terminal.keys("2", "Enter");
      await step("  3) Gamma (c)", "1, 3");
      expect(terminal.screen()).toContain(
        "[6/7] Tags (numbers, separated by commas or blanks, or Enter to skip)\n  1) Alpha (a)\n  2) B\n  3) Gamma (c)\n",
      );
      await step("[7/7] A note (Enter to skip)", "");
      expect(await terminal.exited()).toBe(0);
      // The values are sent, never the titles.
      const content = { name: "ada", ratio: 0.25, count: 3, go: true, colour: "navy", tags: ["a", "c"] };
      expect(sent()).toEqual({ action: "accept", content });
      expect(events().filter((e) => e.type === "input.answered")).toMatchObject([
        { action: "accept", by: "person", answers: content },
      ]);
      expect(stdout()).not.toContain("[1/7]");
      expect(stdout()).not.toContain(SECRET);
      expect(terminal.screen()).not.toContain(SECRET);
      expect(terminal.screen()).toContain("answered Set up the project (by person)");
    } finally {
      terminal.close();
    }
  });

  it("! declines the question: the agent is told, the run goes on", async () => {
    const { terminal, events, sent } = askInTerminal();
    try {
      await terminal.waitForScreen((s) => s.includes("[1/7] Name"), "the first field");
      terminal.keys("!", "Enter");
      expect(await terminal.exited()).toBe(0);
      expect(sent()).toEqual({ action: "decline" });
      expect(events().filter((e) => e.type === "input.answered")).toMatchObject([{ action: "decline", by: "person" }]);
    } finally {
      terminal.close();
    }
  });

  it("Ctrl-D (the terminal's input ended) cancels: needs_input, exit 3, the question pending", async () => {
    const { terminal, events, sent } = askInTerminal();
    try {
      await terminal.waitForScreen((s) => s.includes("[1/7] Name"), "the first field");
      terminal.keys("C-d");
      expect(await terminal.exited()).toBe(3);
      expect(sent()).toEqual({ action: "cancel" });
      expect(events().at(-1)).toMatchObject({ status: "needs_input", pending: [{ kind: "question" }] });
    } finally {
      terminal.close();
    }
  });

  it("no answer within --answer-timeout cancels, and says so", async () => {
    const { terminal, sent } = askInTerminal(["--answer-timeout", "1"]);
    try {
      expect(await terminal.exited()).toBe(3);
      expect(sent()).toEqual({ action: "cancel" });
      expect(terminal.screen()).toContain("(no answer within 1 s: the question is cancelled)");
    } finally {
      terminal.close();
    }
  });
});
