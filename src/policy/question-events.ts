// A question an ACP agent asks (elicitation/create, a form) as the canonical stream shows it, and agentstream's
// answer to it as the driver tells the translation: input.requested of kind question, input.answered with the
// action (accept, decline, cancel) and, accepted, what was answered.
import { ANSWERED_BY, QUESTION_ACTIONS, type AnsweredBy, type QuestionAction } from "../canonical/events.js";
import { clip } from "../core/clip.js";
import { asText, defined, isObject, nonEmpty, objectOrEmpty } from "../core/fields.js";
import { draft, type Draft, type NativeEvent } from "../core/translator.js";
import { MAX_SHOWN_TEXT, readForm, shownQuestions } from "./elicitation.js";
import { QUESTION_ANSWERED, requestIdOf, toldEvent } from "./permission-answer.js";

/** A question's answer, as the driver sends it (CreateElicitationResponse) and tells it. */
export interface QuestionAnswer {
  action: QuestionAction;
  /** Who answered: the callback, the command, a person, or no one (default). */
  by: AnsweredBy;
  /** Accepted: the content sent, checked against the form. */
  content?: Record<string, string | number | boolean | string[]>;
}

/** The request's question as input.requested, or undefined where its form is not one agentstream reads. */
export function questionRequested(e: NativeEvent): Draft<"input.requested"> | undefined {
  const reading = readForm(e.params);
  if ("refused" in reading) return undefined;
  const { form } = reading;
  const payload = defined({
    request_id: requestIdOf(e.id) ?? "question",
    kind: "question" as const,
    tool_call_id: form.toolCallId,
    questions: shownQuestions(form),
    message: form.message === "" ? undefined : clip(form.message, MAX_SHOWN_TEXT),
  });
  return draft("input.requested", payload, { native: e.type });
}

/** The answer as the event the driver tells the translation (read back by questionAnswered). */
export function questionAnsweredEvent(requestId: string, params: unknown, answer: QuestionAnswer): NativeEvent {
  return toldEvent({
    type: QUESTION_ANSWERED,
    request_id: requestId,
    tool_call_id: nonEmpty(objectOrEmpty(params).toolCallId),
    action: answer.action,
    by: answer.by,
    ...(answer.content !== undefined ? { content: answer.content } : {}),
  });
}

/** The driver's answer to a question as input.answered: allow where accepted, else reject; the action tells which. */
export function questionAnswered(e: NativeEvent): Draft<"input.answered"> {
  const action: QuestionAction = (QUESTION_ACTIONS as readonly unknown[]).includes(e.action)
    ? (e.action as QuestionAction)
    : "cancel";
  const by: AnsweredBy = (ANSWERED_BY as readonly unknown[]).includes(e.by) ? (e.by as AnsweredBy) : "default";
  const payload = defined({
    request_id: asText(e.request_id) || "question",
    tool_call_id: nonEmpty(e.tool_call_id),
    decision: action === "accept" ? ("allow" as const) : ("reject" as const),
    by,
    action,
    answers: action === "accept" && isObject(e.content) ? { ...e.content } : undefined,
  });
  return draft("input.answered", payload, { native: e.type });
}
