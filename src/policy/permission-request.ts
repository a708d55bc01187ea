// A permission request as a caller answers it (the library's onPermissionRequest), and what answers one no
// rule and no answerer decided (--approvals): the request's terms, which the backends' request carries.

/**
 * never: a request that needs a human ends the run needs_input; auto: the backend's own auto-approval; ask: a
 * person at the terminal answers each request no rule decides (a backend asked live only).
 */
export const APPROVALS_MODES = ["never", "auto", "ask"] as const;
export type ApprovalsMode = (typeof APPROVALS_MODES)[number];

/**
 * Whether a run offers an agent questions (ACP form elicitation): answer (the default) where the run has an
 * answerer; pending also where it has none (a question then ends the run needs_input with it pending); never.
 */
export const QUESTIONS_MODES = ["answer", "pending", "never"] as const;

/**
 * A permission request an agent asks while it runs (ACP), as the library's onPermissionRequest is given it; or
 * a question it asks (an ACP form: kind "question", with `questions` and `message`).
 */
export interface ToolPermissionRequest {
  /** The request's id, as input.requested and input.answered name it. */
  requestId: string;
  toolCallId?: string;
  /** The call's ACP kind: execute, read, edit, fetch, delete, move, search, think, other; "question" for a question. */
  kind: string;
  /** What the agent calls it (its title); a question's message. */
  title?: string;
  /** The command, path or URL NAME(PATTERN) rules match, where the call names one. */
  target?: string;
  /** The call's input, as the agent sent it (empty where it sent none, and for a question). */
  input: Record<string, unknown>;
  /** A question's fields (kind "question"), each answered under its `id`. */
  questions?: QuestionField[];
}

/** One field of a question, as the library's callback is given it (input.requested's questions, uncut). */
export interface QuestionField {
  id: string;
  /** text, number, integer, boolean, choice (one of `choices`), choices (several of them). */
  type: "text" | "number" | "integer" | "boolean" | "choice" | "choices";
  question: string;
  title?: string;
  choices?: { value: string; title: string }[];
  required: boolean;
}

/** A question's answer: each field's value by its id (a choice's value, several as a list). */
export type QuestionContent = Record<string, string | number | boolean | string[]>;

/**
 * Answers a request live: "allow" or "reject", or undefined to leave it to the rules. A question (kind
 * "question") is answered with its content (an object), declined with "reject", or left unanswered with
 * undefined (the run ends needs_input with it pending); "allow" carries no answer: it declines.
 */
export type PermissionCallback = (
  request: ToolPermissionRequest,
) => "allow" | "reject" | undefined | QuestionContent | Promise<"allow" | "reject" | undefined | QuestionContent>;
