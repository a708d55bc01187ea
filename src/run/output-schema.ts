// --output-schema FILE (library: outputSchema, an object or a path): the schema
// read and compiled before anything starts, and the instruction that gives it
// to a backend without a native means (docs/output-schema.md quotes it).
import { OptionError, StoppedBeforeStart } from "../core/errors.js";
import { readWholeFile } from "./bounded-file.js";
import { NO_STOPS, type StopWatch } from "./stop-signals.js";
import { compileAnswerSchema, type AnswerSchema } from "../schema/output-schema.js";
import { jsonProblem } from "../core/json-problem.js";

/** The most of a schema file read: a schema is small, and no backend takes one this large. */
const MAX_SCHEMA_FILE_BYTES = 4 * 1024 * 1024;

/** A schema the run's answer must match, and the file it came from (none for a library object). */
export interface OutputSchema extends AnswerSchema {
  file?: string;
}

/**
 * Read (a path: at most MAX_SCHEMA_FILE_BYTES, a stop signal ends the wait for a FIFO) and compile the
 * schema; an OptionError naming outputSchema and the file when it cannot be used.
 */
export async function loadOutputSchema(given: object | string, stops: StopWatch = NO_STOPS): Promise<OutputSchema> {
  if (typeof given !== "string") return compiled(given, undefined);
  const read = await readWholeFile(given, { bound: MAX_SCHEMA_FILE_BYTES, stops });
  if ("stopped" in read)
    throw new StoppedBeforeStart(read.stopped, (name) => `reading ${name("outputSchema")} ${given}`);
  if ("refused" in read) throw refused(given, `cannot read it: ${read.refused.problem}`);
  return outputSchemaOf(read.text.toString("utf8"), given);
}

/** The schema a file's text holds, compiled; an OptionError naming outputSchema and the file when it cannot be used. */
async function outputSchemaOf(text: string, given: string): Promise<OutputSchema> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw refused(given, `not JSON: ${jsonProblem(err)}`);
  }
  return { ...(await compiled(parsed, given)), file: given };
}

async function compiled(schema: unknown, file: string | undefined): Promise<AnswerSchema> {
  try {
    return await compileAnswerSchema(schema);
  } catch (err) {
    throw refused(file, (err as Error).message);
  }
}

function refused(file: string | undefined, problem: string): OptionError {
  return new OptionError((name) => `${name("outputSchema")}${file === undefined ? "" : ` ${file}`}: ${problem}`);
}

/** run.started.output_schema: how the schema reached the backend ("none": a recording, only checked), and its file. */
export function outputSchemaShown(
  schema: OutputSchema,
  via: "native" | "prompt" | "none",
): { via: "native" | "prompt" | "none"; file?: string } {
  return { via, ...(schema.file !== undefined ? { file: schema.file } : {}) };
}
