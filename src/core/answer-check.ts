// --output-schema's verdict on a succeeded run's answer: the backend's native
// structured result where it gave one, else the final answer's text when it is
// one JSON document or holds exactly one fenced json block; valid, or the run
// fails with output_schema. Every step is bounded: the text read, the value's
// nesting, and the schema's check (a worker with its own time and memory bounds,
// stopped by `stop` whose reason is the Interruption that stopped the run).
import { MAX_LINE_DEPTH } from "../canonical/strict-json.js";
import { nestingDepth } from "../schema/json-depth.js";
import type { ErrorInfo } from "../canonical/events.js";
import type { AnswerSchema } from "../schema/output-schema.js";
import { jsonProblem } from "./json-problem.js";
import type { AnswerVerdict, Interruption } from "./outcome.js";

/** The longest answer text the check reads (UTF-16 code units: its characters, nearly). */
export const MAX_ANSWER_CHARS = 4 * 1024 * 1024;
/** The deepest an answer's value may nest: run.finished.result.json sits two levels down in a line. */
export const MAX_ANSWER_DEPTH = MAX_LINE_DEPTH - 2;

// The lines of a fence: ```json (any case, spaces allowed) opens, ``` alone closes. Each is tried on one line
// only (no backtracking across lines: the scan of an answer is linear in its length).
const FENCE_OPENS = /^[ \t]*```[ \t]*json[ \t]*\r?$/i;
const FENCE_CLOSES = /^[ \t]*```[ \t]*\r?$/;

export async function checkAnswer(
  schema: AnswerSchema,
  text: string | null,
  structured: { value: unknown } | undefined,
  stop?: AbortSignal,
): Promise<AnswerVerdict> {
  const found = structured ? structuredJson(structured.value) : answerValue(text);
  if ("problem" in found) return failed(found.problem);
  if (nestingDepth(found.value, MAX_ANSWER_DEPTH) > MAX_ANSWER_DEPTH) return failed(TOO_DEEP);
  const verdict = await schema.check(found.value, found.json, stop);
  if ("stopped" in verdict) return { stopped: verdict.stopped as Interruption };
  if ("cannot" in verdict)
    return failed(`the answer could not be checked against the output schema: ${verdict.cannot}`);
  if ("problems" in verdict) return failed(`the answer does not match the output schema: ${verdict.problems}`);
  return { json: { value: found.value } };
}

const TOO_DEEP = `the answer nests deeper than ${MAX_ANSWER_DEPTH} levels, the most the output schema check reads`;

function failed(message: string): { error: ErrorInfo } {
  return { error: { code: "output_schema", message, retryable: false } };
}

type Found = { value: unknown; json: string } | { problem: string };

/** The native structured result, as JSON text for the check (its nesting is bounded before it is written). */
function structuredJson(value: unknown): Found {
  if (nestingDepth(value, MAX_ANSWER_DEPTH) > MAX_ANSWER_DEPTH) return { problem: TOO_DEEP };
  const json = JSON.stringify(value) ?? "null";
  return json.length > MAX_ANSWER_CHARS ? { problem: tooLong(json.length) } : { value, json };
}

/** The answer's JSON value: all of it, else its one fenced json block. */
function answerValue(text: string | null): Found {
  if (text === null || text.trim() === "")
    return { problem: "the run gave no final answer to check against the output schema" };
  if (text.length > MAX_ANSWER_CHARS) return { problem: tooLong(text.length) };
  const whole = parsed(text);
  if ("value" in whole) return whole;
  const blocks = fencedJsonBlocks(text);
  if (blocks.length === 0)
    return { problem: "the answer is not JSON: neither one JSON document nor one fenced ```json block" };
  if (blocks.length > 1)
    return { problem: `the answer holds ${blocks.length} fenced \`\`\`json blocks: expected exactly one` };
  const block = parsed(blocks[0]!);
  return "value" in block ? block : { problem: `the answer's fenced \`\`\`json block is not JSON: ${block.problem}` };
}

function tooLong(chars: number): string {
  return `the answer is ${chars} characters long: the output schema check reads at most ${MAX_ANSWER_CHARS}`;
}

/** The content of each fenced json block closed on a later line, in one pass over the lines. */
export function fencedJsonBlocks(text: string): string[] {
  const blocks: string[] = [];
  let opened: number | undefined;
  for (let start = 0; start <= text.length; ) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(start, end);
    if (opened === undefined) {
      if (FENCE_OPENS.test(line)) opened = end + 1;
    } else if (FENCE_CLOSES.test(line)) {
      blocks.push(text.slice(opened, start));
      opened = undefined;
    }
    start = end + 1;
  }
  return blocks;
}

function parsed(text: string): { value: unknown; json: string } | { problem: string } {
  try {
    return { value: JSON.parse(text) as unknown, json: text };
  } catch (err) {
    return { problem: jsonProblem(err) };
  }
}
