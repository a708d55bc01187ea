// Questions, live (issue 56): Claude Code through its ACP adapter (`run --backend claude --transport acp`) against
// the fake model server, whose model asks with AskUserQuestion where the tool is offered. The adapter offers it
// only where agentstream declares form elicitation: where the run has an answerer, or --questions pending. Answered
// by a command, by a person (a real terminal: tmux), left pending by no one, and not offered where no one can
// answer (today's behaviour: the model guesses). AGENTSTREAM_LIVE_CAPTURE=1 keeps each run's agent stdout as a
// golden of the default suite (support/acp-captures.ts).
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, parseJsonl } from "../helpers/cli.js";
import { HAS_TMUX, sh, Terminal } from "../helpers/terminal.js";
import { acpAgentsInstalled } from "./support/acp-agents.js";
import { CAPTURING, keepCapture, teed, writeManifest, type CaptureEntry } from "./support/acp-captures.js";
import { withScenarioHome } from "./support/backend-home.mjs";
import { eventsOfType, type AcpLaunch, type LiveRun, type LiveTarget, type ServerRecord } from "./support/live-run.js";
import { checkedRun } from "./support/live-suite.js";
import { ANSWERS, QUESTION, QUESTION_TOOL, SCENARIOS } from "./support/scenarios.mjs";

const claude = acpAgentsInstalled().filter(({ target }) => target.id.startsWith("claude-agent-acp-"));
if (claude.length === 0) describe.skip("questions live", () => it("selects no Claude adapter", () => {}));

/** The adapter's form of one AskUserQuestion question: the choice, and its free-text "Other" beside it. */
const ASKED = {
  kind: "question",
  message: QUESTION.question,
  questions: [
    { id: "question_0", question: "Colour", type: "choice", choices: ["Red", "Blue"], required: false },
    { id: "question_0_custom", type: "text", required: false, question: expect.stringContaining("Other: ") },
  ],
};

for (const { target, launch } of claude) {
  describe.sequential(`${target.id} live: questions (--transport acp)`, () => {
    const captured: CaptureEntry[] = [];
    afterAll(() => {
      if (captured.length > 0) writeManifest(captured);
    });
    const run = async (label: string, args: string[]): Promise<LiveRun> => {
      if (!CAPTURING) return checkedRun(target, "question", { args, acp: launch });
      const scratch = join(tmpdir(), `agentstream-question-capture-${process.pid}-${label}.jsonl`);
      const tee = teed(target, launch, scratch);
      const done = await checkedRun(tee.target, "question", { args, acp: tee.acp });
      captured.push(keepCapture(target, label, scratch, done, args));
      return done;
    };
    // Any request of the run may be the one that offers it: Claude Code may send a side request (no tools) first.
    const offered = (server: ServerRecord) =>
      server
        .requestsFor("question")
        .some((request) => (request.body.tools ?? []).some((t: { name: string }) => t.name === QUESTION_TOOL));

    it("no one can answer (no answerer, --questions answer): not offered, the model guesses, as before", async () => {
      const done = await run("question-unoffered", []);
      expect(done.finished, done.stderr).toMatchObject({ status: "succeeded", exit_code: 0 });
      expect(offered(done.server)).toBe(false);
      expect(done.finished.result.text).toMatch(new RegExp(`^${ANSWERS.questionGuess}`));
      expect(eventsOfType(done, "input.requested")).toEqual([]);
    });

    it("answered by --approve-with: the form on its stdin, its answer the tool's result", async () => {
      const answer = JSON.stringify({ question_0: "Blue" });
      const done = await run("question-command", ["--approve-with", `cat > /dev/null; echo '${answer}'`]);
      expect(done.finished, done.stderr).toMatchObject({ status: "succeeded", exit_code: 0 });
      expect(offered(done.server)).toBe(true);
      expect(eventsOfType(done, "input.requested")).toEqual([expect.objectContaining(ASKED)]);
      expect(eventsOfType(done, "input.answered")).toEqual([
        expect.objectContaining({ action: "accept", by: "command", answers: { question_0: "Blue" } }),
      ]);
      // The model was given the answer as the tool's result, and quotes it.
      expect(done.finished.result.text).toContain(ANSWERS.questionAnswered);
      expect(done.finished.result.text).toContain(`"${QUESTION.question}"="Blue"`);
    });

    it("--questions pending and no answerer: needs_input (exit 3), the question pending, a hint to answer", async () => {
      const done = await run("question-pending", ["--questions", "pending"]);
      expect(done.finished, done.stderr).toMatchObject({ status: "needs_input", exit_code: 3 });
      expect(done.finished.pending).toEqual([expect.objectContaining(ASKED)]);
      expect(done.finished.resume.hint).toContain("--continue-from FILE -- ANSWER");
      expect(eventsOfType(done, "input.answered")).toEqual([
        expect.objectContaining({ action: "cancel", by: "default" }),
      ]);
    });

    it.skipIf(!HAS_TMUX)(
      "answered by a person (--approvals ask) at a real terminal, the choice by its number",
      async () => {
        const done = await inTerminal(target, launch, captured);
        expect(done.finished, done.stderr).toMatchObject({ status: "succeeded", exit_code: 0 });
        expect(eventsOfType(done, "input.answered")).toEqual([
          expect.objectContaining({ action: "accept", by: "person", answers: { question_0: "Red" } }),
        ]);
        expect(done.finished.result.text).toContain(`"${QUESTION.question}"="Red"`);
      },
    );
  });
}

/** The question scenario with --approvals ask in a tmux pane: the first choice (1), the "Other" field skipped. */
async function inTerminal(target: LiveTarget, launch: AcpLaunch, captured: CaptureEntry[]) {
  const scratch = join(tmpdir(), `agentstream-question-capture-${process.pid}-person.jsonl`);
  const run = CAPTURING ? teed(target, launch, scratch) : { target, acp: launch };
  return withScenarioHome(
    launch.home,
    "question",
    async (home: { cwd: string; env: Record<string, string> }, server: ServerRecord) => {
      const dir = mkdtempSync(join(tmpdir(), "agentstream-question-term-"));
      const out = join(dir, "out.jsonl");
      const err = join(dir, "err.txt");
      const env = { ...home.env, ...run.acp.env, TERM: "xterm" };
      const args = [
        BIN,
        "run",
        "--backend",
        launch.transport!.backend,
        "--transport",
        "acp",
        "--bin",
        run.target.executable,
        ...launch.transport!.runArgs,
        "--cwd",
        home.cwd,
        "--timeout",
        "300",
        "--approvals",
        "ask",
        SCENARIOS.question.prompt,
      ];
      // Only the run's own environment (env -i), as the other live runs have: nothing of the suite's leaks in.
      const pairs = Object.entries(env).map(([name, value]) => sh(`${name}=${value}`));
      const script = `env -i ${pairs.join(" ")} ${sh(process.execPath)} ${args.map(sh).join(" ")} > ${sh(out)} 2> ${sh(err)}`;
      const terminal = new Terminal(dir, script, { width: 200 });
      const said = () => (existsSync(err) ? readFileSync(err, "utf8") : "");
      try {
        await terminal
          .waitForScreen((s) => s.includes("  2) Blue"), "the question on the terminal")
          .catch((e: Error) => {
            throw new Error(`${e.message}\nagentstream's stderr:\n${said()}`);
          });
        expect(terminal.screen()).toContain(`agentstream: the agent asks: ${QUESTION.question}`);
        terminal.keys("1", "Enter");
        await terminal.waitForScreen((s) => s.includes("[2/2]"), "the Other field");
        terminal.keys("Enter");
        const exitCode = await terminal.exited();
        const stdout = existsSync(out) ? readFileSync(out, "utf8") : "";
        const events = parseJsonl(stdout);
        const done = {
          events,
          finished: events.at(-1)!,
          exitCode,
          stdout,
          stderr: readFileSync(err, "utf8"),
          server,
          files: [],
        };
        if (CAPTURING)
          captured.push(keepCapture(target, "question-person", scratch, done as LiveRun, ["--approvals", "ask"]));
        return done as LiveRun;
      } finally {
        terminal.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
}
