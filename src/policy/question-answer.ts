// A question (an ACP form) answered by the run's one answerer: the library's callback, the --approve-with command
// or a person at the terminal (src/policy/live-answerer.ts picks it). Whatever answers, the content is
// checked against the form before it is sent: content that does not fit is never sent (the question is then
// cancelled, and the run ends needs_input with it pending). The form's schema is the agent's: compiled and run
// in a bounded worker (src/schema/output-schema.ts), so a pattern that backtracks for ever stops at its bound.
import { clip } from "../core/clip.js";
import { isObject } from "../core/fields.js";
import { compileAnswerSchema } from "../schema/output-schema.js";
import type { PermissionCallback, QuestionContent, ToolPermissionRequest } from "./permission-request.js";
import type { Form } from "./elicitation.js";
import { kindOf } from "./permission-answer.js";

/** What an answerer made of a question; a problem is said as a warning (why it was cancelled or declined). */
export type QuestionVerdict =
  | { action: "accept"; content: QuestionContent }
  | { action: "decline"; problem?: string }
  | { action: "cancel"; problem?: string };

/** Whether content fits the form: undefined where it does, else what it breaks, said. */
export type ContentCheck = (content: unknown, stop?: AbortSignal) => Promise<string | undefined>;

/** The most JSON text an answer may be (an answering command's stdout, a callback's content). */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/** The form's check, compiled once (bounded); rejects with an Error saying why it does not compile. */
export async function formCheck(form: Form): Promise<ContentCheck> {
  const schema = await compileAnswerSchema(form.schema);
  return async (content, stop) => {
    if (!isObject(content)) return `it is ${kindOf(content)}, not an object keyed by the form's field ids`;
    const json = JSON.stringify(content);
    if (json.length > MAX_ANSWER_BYTES)
      return `it is ${json.length} characters of JSON: at most ${MAX_ANSWER_BYTES} are sent`;
    const verdict = await schema.check(content, json, stop);
    if ("valid" in verdict) return undefined;
    if ("problems" in verdict) return verdict.problems.replace(/^the answer/, "it");
    if ("cannot" in verdict) return `it could not be checked against the form (${verdict.cannot})`;
    return "the run was stopped";
  };
}

/** The question as the library's callback is given it: kind "question", its message as the title, its fields whole. */
export function questionRequest(requestId: string, form: Form): ToolPermissionRequest {
  return {
    requestId,
    ...(form.toolCallId !== undefined ? { toolCallId: form.toolCallId } : {}),
    kind: "question",
    ...(form.message !== "" ? { title: form.message } : {}),
    input: {},
    questions: form.fields.map((f) => ({
      id: f.id,
      type: f.type,
      question: f.question,
      ...(f.title !== undefined ? { title: f.title } : {}),
      ...(f.choices ? { choices: f.choices.map((c) => ({ ...c })) } : {}),
      required: f.required,
    })),
  };
}

/**
 * The library's callback's answer to a question: content (an object) accepts where it fits; "reject" declines,
 * and so does "allow" (it carries no answer); undefined leaves it to no one (undefined here). A callback that
 * throws, or answers content that does not fit or anything else, cancels it, `onProblem` saying why (what it
 * answered named by its kind only: it may hold secrets).
 */
export async function callerQuestion(
  callback: PermissionCallback,
  requestId: string,
  form: Form,
  check: ContentCheck,
  onProblem: (text: string) => void,
): Promise<QuestionVerdict | undefined> {
  let said: unknown;
  try {
    said = await callback(questionRequest(requestId, form));
  } catch (err) {
    const message = err instanceof Error ? err.message : kindOf(err);
    onProblem(`onPermissionRequest threw (${clip(message, 200)}) on question ${requestId}: it is cancelled`);
    return { action: "cancel" };
  }
  if (said === undefined) return undefined;
  if (said === "reject") return { action: "decline" };
  if (said === "allow") {
    onProblem(`onPermissionRequest answered "allow" to question ${requestId}, which carries no answer: it is declined`);
    return { action: "decline" };
  }
  const problem = await check(said);
  if (problem === undefined) return { action: "accept", content: said as QuestionContent };
  onProblem(
    `onPermissionRequest's answer to question ${requestId} does not fit its form (${problem}): it is not sent, the question is cancelled`,
  );
  return { action: "cancel" };
}
