// `run --approve-with CMD` answering a question: the input.requested event on its stdin as for a permission
// request, its answer on stdout as one JSON object keyed by the form's field ids (the content sent). Exit 0
// with content that fits the form accepts; exit 1 declines; anything else (another status, a signal, no
// answer within --answer-timeout, content that is not JSON or does not fit) cancels, and says why.
import { otherExit, runAnswerCommand } from "./approve-command.js";
import { MAX_ANSWER_BYTES, type ContentCheck, type QuestionVerdict } from "./question-answer.js";
import type { QuestionContent } from "./permission-request.js";

export async function commandQuestion(
  command: string,
  line: string,
  options: { timeoutMs: number; stop: AbortSignal; check: ContentCheck },
): Promise<QuestionVerdict> {
  const end = await runAnswerCommand(command, line, { ...options, keepStdout: MAX_ANSWER_BYTES });
  if ("problem" in end) return { action: "cancel", problem: end.problem };
  if (end.code === 1) return { action: "decline" };
  if (end.code !== 0)
    return { action: "cancel", problem: otherExit(end.code, end.signal, end.stderr, "0 (answer) or 1 (decline)") };
  if (end.stdoutOverflow)
    return { action: "cancel", problem: `exited 0 but wrote more than ${MAX_ANSWER_BYTES} bytes: no answer is read` };
  let content: unknown;
  try {
    content = JSON.parse(end.stdout);
  } catch {
    return {
      action: "cancel",
      problem: `exited 0 but its stdout is not one JSON object keyed by the form's field ids${end.stdout.trim() === "" ? " (it wrote nothing)" : ""}`,
    };
  }
  const problem = await options.check(content, options.stop);
  if (problem !== undefined)
    return {
      action: "cancel",
      problem: `exited 0 with an answer that does not fit the form (${problem}): it is not sent`,
    };
  return { action: "accept", content: content as QuestionContent };
}
