// --output-schema's verdict on a succeeded run's answer: the backend's native
// structured result where it gave one, else the final answer's text when it is
// one JSON document or holds exactly one fenced json block; valid, or the run
// fails with output_schema.
import type { ErrorInfo } from "../canonical/events.js";
import type { AnswerSchema } from "../schema/output-schema.js";
import { jsonProblem } from "./json-problem.js";

export type AnswerVerdict = { json: { value: unknown } } | { error: ErrorInfo };

// A fence of its own lines: ```json (any case, spaces allowed), its content, then ``` alone.
const JSON_FENCE = /^[ \t]*```[ \t]*json[ \t]*\r?\n([\s\S]*?)^[ \t]*```[ \t]*$/gim;

export function checkAnswer(
  schema: AnswerSchema,
  text: string | null,
  structured: { value: unknown } | undefined,
): AnswerVerdict {
  const found = structured ?? answerValue(text);
  if ("problem" in found) return failed(found.problem);
  const problems = schema.problems(found.value);
  if (problems !== undefined) return failed(`the answer does not match the output schema: ${problems}`);
  return { json: { value: found.value } };
}

function failed(message: string): { error: ErrorInfo } {
  return { error: { code: "output_schema", message, retryable: false } };
}

/** The answer's JSON value: all of it, else its one fenced json block. */
function answerValue(text: string | null): { value: unknown } | { problem: string } {
  if (text === null || text.trim() === "")
    return { problem: "the run gave no final answer to check against the output schema" };
  const whole = parsed(text);
  if ("value" in whole) return whole;
  const blocks = [...text.matchAll(JSON_FENCE)].map((m) => m[1]!);
  if (blocks.length === 0)
    return { problem: "the answer is not JSON: neither one JSON document nor one fenced ```json block" };
  if (blocks.length > 1)
    return { problem: `the answer holds ${blocks.length} fenced \`\`\`json blocks: expected exactly one` };
  const block = parsed(blocks[0]!);
  return "value" in block ? block : { problem: `the answer's fenced \`\`\`json block is not JSON: ${block.problem}` };
}

function parsed(text: string): { value: unknown } | { problem: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (err) {
    return { problem: jsonProblem(err) };
  }
}
