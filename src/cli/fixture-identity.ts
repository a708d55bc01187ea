import { randomUUID } from "node:crypto";
import { steppingClock, systemClock, type Clock } from "../core/clock.js";
import { VERSION } from "../version.js";

/**
 * The run id, clock and version a normalize writes with. With
 * AGENTSTREAM_TEST_FIXTURE=1 (a switch for tests, not a public option) they are
 * the ones the golden files and examples/ were written with, so those files
 * can be reproduced byte for byte from the command line (README, Set-up).
 */
export function runIdentity(env: NodeJS.ProcessEnv = process.env): {
  runId: string;
  clock: Clock;
  agentstreamVersion: string;
} {
  if (env.AGENTSTREAM_TEST_FIXTURE === "1")
    return { runId: FIXTURE_RUN_ID, clock: steppingClock(), agentstreamVersion: FIXTURE_VERSION };
  return { runId: randomUUID(), clock: systemClock, agentstreamVersion: VERSION };
}

export const FIXTURE_RUN_ID = "run-test";
export const FIXTURE_VERSION = "0.0.0-test";
