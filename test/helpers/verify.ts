import { Ajv2020 } from "ajv/dist/2020.js";
import type { CanonicalEvent } from "../../src/canonical/events.js";
import { loadSchema } from "../../src/schema/schema-files.js";
import type { VerifyProblem } from "../../src/verify/problem.js";
import { StreamVerifier } from "../../src/verify/stream-verifier.js";

// The same schema and ajv mode the build compiles; the built validator itself
// is exercised through the CLI.
export const publishedValidator = new Ajv2020({ strict: true }).compile(loadSchema());

/** What `agentstream verify` would report for these events. */
export function verifyEvents(events: CanonicalEvent[]): VerifyProblem[] {
  const verifier = new StreamVerifier(publishedValidator);
  const problems = events.flatMap((event, i) => verifier.push(JSON.stringify(event), i + 1));
  return [...problems, ...verifier.finish()];
}
