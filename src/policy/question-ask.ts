// One question put to the run's answerer (src/policy/live-answerer.ts waits its turn): the form's check
// compiled first (a form whose schema does not compile is cancelled unasked, said), then the callback, the
// command or the person; what they did not answer well is said as a warning.
import type { AnsweredBy } from "../canonical/events.js";
import type { OptionNaming, Words } from "../core/errors.js";
import type { PermissionCallback } from "./permission-request.js";
import type { Form } from "./elicitation.js";
import { callerQuestion, formCheck, type QuestionVerdict } from "./question-answer.js";
import { commandQuestion } from "./question-command.js";
import type { QuestionAnswer } from "./question-events.js";
import { askPersonQuestion } from "./question-person.js";

/** Answers one question; undefined leaves it to no one (the default: cancelled, the run ends needs_input). */
export type QuestionAsker = (requestId: string, params: unknown, form: Form) => Promise<QuestionAnswer | undefined>;

export interface Asking {
  by: AnsweredBy;
  /** Who of the run answers (live-answerer.ts's AnswererOptions). */
  request: { onPermissionRequest?: PermissionCallback; approveWith?: string };
  /** The answerer's link to the run (live-answerer.ts's AnswererLink): its warnings, and its stop. */
  link: { warn(text: Words): void; redact(text: string): string; stop: AbortSignal };
  timeoutMs: number;
}

export async function askQuestion(
  { by, request, link, timeoutMs }: Asking,
  requestId: string,
  _params: unknown,
  form: Form,
  line: string,
): Promise<QuestionAnswer | undefined> {
  let check: Awaited<ReturnType<typeof formCheck>>;
  try {
    check = await formCheck(form);
  } catch (err) {
    link.warn(
      () => `question ${requestId}: its form cannot be checked (${(err as Error).message}): it is cancelled unasked`,
    );
    return { action: "cancel", by: "default" };
  }
  if (link.stop.aborted) return undefined;
  const { onPermissionRequest, approveWith } = request;
  const options = { timeoutMs, stop: link.stop, check };
  let verdict: QuestionVerdict | undefined;
  if (by === "callback" && onPermissionRequest !== undefined)
    verdict = await callerQuestion(onPermissionRequest, requestId, form, check, (text) => link.warn(text));
  else if (by === "command" && approveWith !== undefined) verdict = await commandQuestion(approveWith, line, options);
  else verdict = await askPersonQuestion(line, form, { ...options, redact: link.redact });
  // Stopped meanwhile: no one answered it.
  if (verdict === undefined || link.stop.aborted) return undefined;
  const { problem } = verdict as { problem?: string };
  if (problem !== undefined && by !== "callback")
    link.warn(
      (name) =>
        `${answererName(by, name)} ${problem}: question ${requestId} is ${verdict.action === "decline" ? "declined" : "cancelled"}`,
    );
  return verdict.action === "accept"
    ? { action: "accept", by, content: verdict.content }
    : { action: verdict.action, by };
}

/** The answerer as a warning names it, each side its way: "--approve-with", "--approvals ask". */
export function answererName(by: AnsweredBy, name: OptionNaming): string {
  return by === "command" ? name("approveWith") : `${name("approvals")} ask`;
}
