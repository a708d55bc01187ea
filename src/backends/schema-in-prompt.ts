// --output-schema for a backend without a native means: the schema reaches it in words, an
// instruction added to the prompt. The answer is checked by agentstream either way.
import type { OutputSchemaValue } from "./request.js";
import type { NativeInput } from "./support.js";

/**
 * --output-schema for a backend without a native means: an instruction with the schema added to the prompt
 * (docs/output-schema.md quotes it; test/unit/app/output-schema.test.ts holds the two together).
 */
export const SCHEMA_IN_PROMPT = {
  via: "an instruction with the schema added to the prompt",
  reaches: (schema: OutputSchemaValue): NativeInput => ({ prompt: (prompt) => promptWithSchema(prompt, schema) }),
} as const;

export function promptWithSchema(prompt: string, schema: OutputSchemaValue): string {
  return `${prompt}\n\n${SCHEMA_INSTRUCTION}\n${schema.text}`;
}

export const SCHEMA_INSTRUCTION =
  "When you have finished, end your final answer with one JSON document that matches the JSON Schema below, in a fenced ```json block, and no other fenced json block. The JSON Schema:";
