import { Ajv2020 } from "ajv/dist/2020.js";
import { loadSchema } from "../../src/schema/schema-files.js";
import type { VerifyProblem } from "../../src/verify/problem.js";
import { StreamVerifier } from "../../src/verify/stream-verifier.js";

// The same schema and ajv mode the build compiles; the built validator itself
// is exercised through the CLI.
export const publishedValidator = new Ajv2020({ strict: true }).compile(loadSchema());

/** What `agentstream verify` would report for these lines. */
export function verifyLines(lines: string[]): VerifyProblem[] {
  const verifier = new StreamVerifier(publishedValidator);
  const problems = lines.flatMap((text, i) => verifier.push(text, i + 1));
  return [...problems, ...verifier.finish()];
}

/** What `agentstream verify` would report for these events, one per line. */
export function verifyEvents(events: readonly object[]): VerifyProblem[] {
  return verifyLines(events.map((e) => JSON.stringify(e)));
}
