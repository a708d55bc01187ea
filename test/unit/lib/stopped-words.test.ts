// A stop signal while a file option is read (issue 54 item 5): the words name the option as each side
// spells it, the CLI its flag and the library its option, never a flag of the CLI in the library's words.
import { describe, expect, it } from "vitest";
import { loadOutputSchema } from "../../../src/run/output-schema.js";
import { cliNaming } from "../../../src/app/options.js";
import { StoppedBeforeStart } from "../../../src/core/errors.js";
import { asLibraryError } from "../../../src/lib/options.js";
import { readContinuation } from "../../../src/run/continue-from.js";
import type { StopWatch } from "../../../src/run/stop-signals.js";

// A stop signal that came before the reading began.
const STOPPED: StopWatch = { signal: "SIGINT", listen: () => () => false };
const FILE = "/nowhere/answer.json";

async function stopped(reading: Promise<unknown>): Promise<StoppedBeforeStart> {
  const err = await reading.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StoppedBeforeStart);
  return err as StoppedBeforeStart;
}

describe.each([
  { option: "outputSchema", flag: "--output-schema", read: () => loadOutputSchema(FILE, STOPPED) },
  { option: "continueFrom", flag: "--continue-from", read: () => readContinuation(FILE, STOPPED) },
])("a stop while $option is read", ({ option, flag, read }) => {
  it("the CLI names its flag, as before", async () => {
    const err = (await stopped(read())).wordedAs(cliNaming);
    expect(err.message).toBe(`SIGINT while reading ${flag} ${FILE}: nothing was started`);
    expect(err.exitCode).toBe(130);
  });

  it("the library names its option and no flag", async () => {
    const err = asLibraryError(await stopped(read())) as StoppedBeforeStart;
    expect(err.message).toBe(`SIGINT while reading option ${option} ${FILE}: nothing was started`);
    expect(err.exitCode).toBe(130);
  });
});
