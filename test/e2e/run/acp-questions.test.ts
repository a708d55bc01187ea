// Questions over ACP (issue 56): an agent's form elicitation (elicitation/create) offered only where the run can
// answer it (or --questions pending), answered by --approve-with's command for every field type ACP's form
// schema has, left pending where no one can answer, and a hostile form refused clearly, the run going on.
// The stand-in agent (test/fixtures/acp/question-agent.mjs) asks one question, as Claude's adapter asks
// AskUserQuestion, and writes down the answer it got.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parseJsonl, runCli } from "../../helpers/cli.js";

const AGENT = fileURLToPath(new URL("../../fixtures/acp/question-agent.mjs", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "agentstream-questions-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let runs = 0;

/** A run of the stand-in asking `params` (its default colour question where none), with `flags`. */
async function ask(flags: string[], params?: unknown, env: Record<string, string> = {}) {
  const answerFile = join(tmp, `answer-${++runs}.json`);
  const paramsFile = join(tmp, `params-${runs}.json`);
  if (params !== undefined) writeFileSync(paramsFile, JSON.stringify(params));
  const run = await runCli(
    ["run", "--backend", "acp", "--bin", process.execPath, "--backend-arg", AGENT, ...flags, "--", "ask me"],
    {
      env: {
        QUESTION_ANSWER_FILE: answerFile,
        ...(params === undefined ? {} : { QUESTION_PARAMS_FILE: paramsFile }),
        ...env,
      },
    },
  );
  const events = parseJsonl(run.stdout);
  const sent = existsSync(answerFile)
    ? (JSON.parse(readFileSync(answerFile, "utf8")) as Record<string, unknown>)
    : undefined;
  return { ...run, events, sent, finished: events.at(-1)!, ofType: (t: string) => events.filter((e) => e.type === t) };
}

/** --approve-with a command that prints `answer` (one JSON line) and exits `code`. */
const answering = (answer: unknown, code = 0) => [
  "--approve-with",
  `cat > /dev/null; printf '%s\\n' '${JSON.stringify(answer)}'; exit ${code}`,
];

/** A form of one field. */
const oneField = (field: Record<string, unknown>, required = true) => ({
  mode: "form",
  message: "Tell me",
  requestedSchema: { type: "object", properties: { f: field }, ...(required ? { required: ["f"] } : {}) },
});

describe("questions offered only where someone can answer", () => {
  it("no answerer (the default --questions answer): no form elicitation declared, the agent does not ask", async () => {
    const run = await ask([]);
    expect(run.finished).toMatchObject({ status: "succeeded", result: { text: "no one to ask" } });
    expect(run.ofType("input.requested")).toEqual([]);
  });

  it("--questions never with an answerer: not declared either", async () => {
    const run = await ask(["--questions", "never", ...answering({ colour: "red" })]);
    expect(run.finished).toMatchObject({ status: "succeeded", result: { text: "no one to ask" } });
  });

  it("--questions pending, no answerer: needs_input (exit 3), the question pending with its field ids, a hint to answer", async () => {
    const run = await ask(["--questions", "pending"]);
    expect(run.code, run.stderr).toBe(3);
    const question = {
      request_id: "q1",
      kind: "question",
      tool_call_id: "ask_1",
      message: "Which colour?",
      questions: [{ id: "colour", question: "Colour", type: "choice", choices: ["red", "blue"], required: true }],
    };
    expect(run.ofType("input.requested")).toEqual([expect.objectContaining(question)]);
    expect(run.ofType("input.answered")).toEqual([
      expect.objectContaining({ request_id: "q1", by: "default", action: "cancel", decision: "reject" }),
    ]);
    expect(run.finished).toMatchObject({ status: "needs_input", exit_code: 3, pending: [question] });
    expect((run.finished.resume as { hint: string }).hint).toContain("--continue-from FILE -- ANSWER");
    expect(run.sent).toEqual({ action: "cancel" });
  });

  it("--questions on a backend not asked live is refused (exit 2)", async () => {
    const run = await runCli(["run", "--backend", "claude", "--questions", "pending", "--", "hi"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--questions");
  });
});

describe("--approve-with answers a question: its stdout the content, checked against the form", () => {
  // Each field type ACP's form schema has, and an answer the command gives for it.
  const FIELDS: [string, Record<string, unknown>, unknown][] = [
    ["text", { type: "string", title: "Name", minLength: 1, maxLength: 20, pattern: "^[a-z]+$" }, "ada"],
    ["number", { type: "number", minimum: 0, maximum: 1 }, 0.5],
    ["integer", { type: "integer", minimum: 1 }, 3],
    ["boolean", { type: "boolean", description: "Go on?" }, true],
    ["choice", { type: "string", enum: ["a", "b"] }, "b"],
    [
      "choice",
      {
        type: "string",
        oneOf: [
          { const: "x", title: "Ex" },
          { const: "y", title: "Why" },
        ],
      },
      "x",
    ],
    ["choices", { type: "array", items: { type: "string", enum: ["p", "q", "r"] }, minItems: 1 }, ["p", "r"]],
    ["choices", { type: "array", items: { anyOf: [{ const: "m", title: "Em" }] } }, ["m"]],
  ];
  it.each(FIELDS)("a %s field %j: the answer is sent, input.answered accept with it", async (type, field, value) => {
    const run = await ask(answering({ f: value }), oneField(field));
    expect(run.code, run.stderr).toBe(0);
    expect(run.ofType("input.requested")).toEqual([
      expect.objectContaining({ questions: [expect.objectContaining({ id: "f", type, required: true })] }),
    ]);
    expect(run.sent).toEqual({ action: "accept", content: { f: value } });
    expect(run.ofType("input.answered")).toEqual([
      expect.objectContaining({ action: "accept", decision: "allow", by: "command", answers: { f: value } }),
    ]);
  });

  // An answer of the wrong shape for each type: never sent, the question cancelled, the run needs_input.
  const WRONG: [string, Record<string, unknown>, unknown][] = [
    ["text too long", { type: "string", maxLength: 2 }, "abc"],
    ["text off pattern", { type: "string", pattern: "^[0-9]+$" }, "abc"],
    ["number out of range", { type: "number", maximum: 1 }, 2],
    ["integer not whole", { type: "integer" }, 1.5],
    ["boolean as a string", { type: "boolean" }, "yes"],
    ["choice not offered", { type: "string", enum: ["a"] }, "z"],
    ["choices not offered", { type: "array", items: { type: "string", enum: ["p"] } }, ["p", "z"]],
  ];
  it.each(WRONG)("%s: not sent, cancelled, needs_input, and said", async (_name, field, value) => {
    const run = await ask(answering({ f: value }), oneField(field));
    expect(run.code, run.stderr).toBe(3);
    expect(run.sent).toEqual({ action: "cancel" });
    expect(run.ofType("input.answered")).toEqual([expect.objectContaining({ action: "cancel", by: "command" })]);
    expect(run.stderr).toContain("does not fit the form");
  });

  it("a key the form does not ask, a missing required field, or no JSON: not sent", async () => {
    for (const answer of [{ f: "a", other: 1 }, {}, "not json"]) {
      const run = await ask(
        typeof answer === "string" ? ["--approve-with", `echo ${answer}`] : answering(answer),
        oneField({ type: "string" }),
      );
      expect(run.sent, JSON.stringify(answer)).toEqual({ action: "cancel" });
      expect(run.code).toBe(3);
    }
  });

  it("exit 1 declines: the agent is told, the run goes on (declined and cancelled told apart)", async () => {
    const run = await ask(["--approve-with", "exit 1"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.sent).toEqual({ action: "decline" });
    expect(run.ofType("input.answered")).toEqual([
      expect.objectContaining({ action: "decline", decision: "reject", by: "command" }),
    ]);
  });

  it("exit 2, or no answer within --answer-timeout: cancelled, needs_input, said", async () => {
    const other = await ask(["--approve-with", "echo nope >&2; exit 2"]);
    expect(other.sent).toEqual({ action: "cancel" });
    expect(other.stderr).toContain("exited 2, not 0 (answer) or 1 (decline) (stderr: nope)");
    const slow = await ask(["--approve-with", "sleep 30", "--answer-timeout", "1"]);
    expect(slow.sent).toEqual({ action: "cancel" });
    expect(slow.code).toBe(3);
    expect(slow.stderr).toContain("gave no answer within 1 s");
  });

  it("the command reads the question as the stream shows it: a secret in the form's text is hidden", async () => {
    const secret = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345";
    const params = oneField({ type: "string", description: `Paste ${secret}\u001b[31m here` });
    const seen = join(tmp, "seen.json");
    const run = await ask(["--approve-with", `cat > ${seen}; echo '{"f":"ok"}'`], params);
    expect(run.sent).toEqual({ action: "accept", content: { f: "ok" } });
    const line = readFileSync(seen, "utf8");
    expect(line).not.toContain(secret);
    expect(JSON.parse(line)).toMatchObject({ type: "input.requested", kind: "question" });
    expect(run.stdout).not.toContain(secret);
  });
});

describe("a hostile form: refused clearly (an error answer), never put to anyone, nothing hangs", () => {
  const many = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`f${i}`, { type: "string" }]));
  let deep: Record<string, unknown> = { type: "string" };
  // As deep as a line the run reads may be (MAX_NATIVE_DEPTH 128): a deeper line is not JSON to it, and unanswered.
  for (let i = 0; i < 60; i++) deep = { type: "object", properties: { d: deep } };
  const HOSTILE: [string, unknown, string][] = [
    [
      "huge: 10,000 fields",
      { mode: "form", message: "x", requestedSchema: { type: "object", properties: many } },
      "it has 10000 fields",
    ],
    ["deep: an object field 60 levels down", oneField(deep), 'field "f": its type "object" is none of'],
    ["a pattern that does not compile", oneField({ type: "string", pattern: "(" }), "its pattern does not compile"],
    [
      "a required field it does not ask",
      { mode: "form", message: "x", requestedSchema: { properties: {}, required: ["z"] } },
      'it requires "z"',
    ],
    [
      "a URL elicitation",
      { mode: "url", message: "log in", url: "https://example.com/", elicitationId: "e1" },
      "a URL elicitation",
    ],
    [
      "a choice list of 100,000",
      oneField({ type: "string", enum: Array.from({ length: 100_000 }, (_, i) => `c${i}`) }),
      "it offers 100000 choices",
    ],
  ];
  it.each(HOSTILE)("%s", async (_name, params, said) => {
    const run = await ask(answering({ f: "a" }), params);
    expect(run.code, run.stderr).toBe(0);
    const { error } = run.sent as { error: { code: number; message: string } };
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(said);
    expect(run.stderr).toContain(said);
    expect(run.stderr).toContain("it is refused, asked of no one");
    // Kept as data, not a question anyone is asked.
    expect(run.ofType("input.requested")).toEqual([]);
    expect(run.ofType("input.answered")).toEqual([]);
  });

  it("a pattern that backtracks for ever: the answer's check stops at its bound (10 s), the question cancelled, said", async () => {
    const params = oneField({ type: "string", pattern: "^(a+)+$" });
    const run = await ask(answering({ f: `${"a".repeat(40)}!` }), params);
    expect(run.code, run.stderr).toBe(3);
    expect(run.sent).toEqual({ action: "cancel" });
    expect(run.stderr).toContain("it could not be checked against the form (it took longer than the bound of 10 s");
  });

  it("escapes and a secret in a readable form's text: shown escaped and hidden on stderr and stdout", async () => {
    const secret = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345";
    const huge = "x".repeat(1024 * 1024);
    const params = {
      ...oneField({ type: "string" }, false),
      message: `Key ${secret}? \u001b]0;pwned\u0007 ok ${huge}`,
    };
    const run = await ask(["--questions", "pending"], params);
    expect(run.code).toBe(3);
    // A megabyte of message is cut where the question is shown (4000 characters), the cut marked.
    const [asked] = run.ofType("input.requested") as { message: string }[];
    expect(asked!.message.length).toBeLessThanOrEqual(4000);
    expect(asked!.message.length).toBeGreaterThan(3900);
    expect(asked!.message.endsWith("…")).toBe(true);
    expect(run.stdout + run.stderr).not.toContain(secret);
    expect(run.stderr).not.toContain("\u001b");
    expect(run.stderr).toContain("needs input: answer Key");
  });
});
