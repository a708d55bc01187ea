// The library's onPermissionRequest answering a question (issue 56): it is given the question (kind
// "question", its fields whole) and returns the content, declines ("reject"; "allow" carries no answer and
// declines too), or leaves it to no one (undefined: the run ends needs_input with the question pending).
// The stand-in agent (test/fixtures/acp/question-agent.mjs) asks its one colour question.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  run as runAgentLibrary,
  type CanonicalEvent,
  type PermissionCallback,
  type ToolPermissionRequest,
} from "../../../src/index.js";

const AGENT = fileURLToPath(new URL("../../fixtures/acp/question-agent.mjs", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "agentstream-question-lib-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let runs = 0;

async function library(onPermissionRequest: PermissionCallback) {
  const answerFile = join(tmp, `answer-${++runs}.json`);
  const running = runAgentLibrary({
    backend: "acp",
    bin: process.execPath,
    backendArgs: [AGENT],
    prompt: "ask me",
    env: { ...process.env, QUESTION_ANSWER_FILE: answerFile },
    onNote: () => {},
    onPermissionRequest,
  });
  const events: CanonicalEvent[] = [];
  let next = await running.next();
  for (; !next.done; next = await running.next()) events.push(next.value);
  const sent = JSON.parse(readFileSync(answerFile, "utf8")) as unknown;
  return { events, outcome: next.value, sent, answered: events.filter((e) => e.type === "input.answered") };
}

describe("the library's onPermissionRequest answers a question", () => {
  it("is given the question and its content is sent", async () => {
    const seen: ToolPermissionRequest[] = [];
    const { sent, answered, outcome } = await library((request) => {
      seen.push(request);
      return { colour: "blue" };
    });
    expect(seen).toEqual([
      {
        requestId: "q1",
        toolCallId: "ask_1",
        kind: "question",
        title: "Which colour?",
        input: {},
        questions: [
          {
            id: "colour",
            type: "choice",
            question: "Colour",
            choices: [
              { value: "red", title: "Red" },
              { value: "blue", title: "Blue" },
            ],
            required: true,
          },
        ],
      },
    ]);
    expect(sent).toEqual({ action: "accept", content: { colour: "blue" } });
    expect(answered).toMatchObject([{ action: "accept", by: "callback", answers: { colour: "blue" } }]);
    expect(outcome).toMatchObject({ status: "succeeded", exitCode: 0 });
  });

  it('"reject" declines, and so does "allow" (it carries no answer): the run goes on', async () => {
    for (const said of ["reject", "allow"] as const) {
      const { sent, answered, outcome } = await library(() => said);
      expect(sent).toEqual({ action: "decline" });
      expect(answered).toMatchObject([{ action: "decline", by: "callback" }]);
      expect(outcome).toMatchObject({ status: "succeeded" });
    }
  });

  it("undefined leaves it to no one: cancelled, needs_input with the question pending", async () => {
    const { sent, answered, outcome } = await library(() => undefined);
    expect(sent).toEqual({ action: "cancel" });
    expect(answered).toMatchObject([{ action: "cancel", by: "default" }]);
    expect(outcome).toMatchObject({ status: "needs_input", exitCode: 3 });
  });

  it("content that does not fit, or a callback that throws: not sent, cancelled", async () => {
    for (const callback of [
      () => ({ colour: "green" }),
      () => ({ colour: "red", more: 1 }),
      () => {
        throw new Error("boom");
      },
    ]) {
      const { sent, answered, outcome } = await library(callback as PermissionCallback);
      expect(sent).toEqual({ action: "cancel" });
      expect(answered).toMatchObject([{ action: "cancel", by: "callback" }]);
      expect(outcome).toMatchObject({ status: "needs_input" });
    }
  });
});
