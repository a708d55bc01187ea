// NO_COLOR and FORCE_COLOR together: FORCE_COLOR wins, and Node's own warning about it stays off stderr.
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { STAND_IN, transcript } from "../../helpers/stand-in.js";

describe("colour variables", () => {
  it("with NO_COLOR and FORCE_COLOR both set, colours are on and Node's warning is not shown", async () => {
    const env = {
      ...process.env,
      NO_COLOR: "1",
      FORCE_COLOR: "1",
      STANDIN_TRANSCRIPT: transcript("evosci-success.jsonl"),
    };
    const run = await runCli(["run", "--backend", "evosci", "--bin", STAND_IN, "go"], { env });
    expect(run.stderr).not.toMatch(/Warning|NO_COLOR/);
    expect(run.stderr).toMatch(/\u001b\[3\dm/);
  });
});
