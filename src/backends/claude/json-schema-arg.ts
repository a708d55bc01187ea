// Claude Code's --json-schema (2.1.336): it compiles the schema with its own ajv, draft-07 in strict mode, and
// refuses the run at start (exit 1, "--json-schema is not a valid JSON Schema") when that fails: a `$schema`
// naming draft 2020-12, a keyword draft-07 lacks (prefixItems) or one no draft has (x-custom). Formats it
// does not check. docs/protocols/claude.md "Structured output (--json-schema)".
import type { OutputSchemaValue } from "../request.js";

/** The schema as Claude Code is given it: without `$schema` (its validator's dialect is draft-07 whatever it says). */
export function claudeJsonSchema(schema: object): object {
  const { $schema: _dialect, ...rest } = schema as { $schema?: unknown };
  return rest;
}

/**
 * Whether Claude Code's validator compiles the schema (less its `$schema`, as claudeJsonSchema gives it):
 * otherwise it goes by the prompt, never refused at start. Found when the schema was compiled, in its bounds.
 */
export function claudeTakesSchema(schema: OutputSchemaValue): boolean {
  return schema.strictDraft07;
}
