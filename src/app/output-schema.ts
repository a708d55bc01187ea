// --output-schema FILE (library: outputSchema, an object or a path): the schema
// read and compiled before anything starts, and the instruction that gives it
// to a backend without a native means (docs/output-schema.md quotes it).
import { readFileSync } from "node:fs";
import { OptionError } from "../core/errors.js";
import { fileErrorReason } from "../core/file-errors.js";
import { compileAnswerSchema, type AnswerSchema } from "../schema/output-schema.js";

/** A schema the run's answer must match, and the file it came from (none for a library object). */
export interface OutputSchema extends AnswerSchema {
  file?: string;
}

/** Read (a path) and compile the schema; an OptionError naming outputSchema and the file when it cannot be used. */
export async function loadOutputSchema(given: object | string): Promise<OutputSchema> {
  if (typeof given !== "string") return await compiled(given, undefined);
  let text: string;
  try {
    text = readFileSync(given, "utf8");
  } catch (err) {
    throw refused(given, `cannot read it: ${fileErrorReason(err as NodeJS.ErrnoException)}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw refused(given, `not JSON: ${(err as Error).message}`);
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
