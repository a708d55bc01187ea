// --verbose shows the command line that was tried: with --bin (or the backend's variable) naming a
// missing file, that path, not the backend's default executable name.
import { describe, expect, it } from "vitest";
import { parseJsonl, runCli } from "../../helpers/cli.js";

describe("--verbose with a --bin that does not exist", () => {
  it.each([
    ["evosci", "EvoSci"],
    ["pi", "pi"],
  ])("%s: names the given path (in --verbose and in run.started.command), exit 69", async (backend, defaultName) => {
    const bin = `/nonexistent/dir/${defaultName}-given`;
    const run = await runCli(["run", "--backend", backend, "--bin", bin, "--verbose", "hi"]);
    expect(run.code).toBe(69);
    expect(run.stderr).toMatch(new RegExp(`running ${bin} `));
    expect(run.stderr).not.toMatch(new RegExp(`running ${defaultName} `));
    const started = parseJsonl(run.stdout)[0]!;
    expect(started.type).toBe("run.started");
    expect((started.command as string[])[0]).toBe(bin);
  });

  it("the same for the backend's variable (AGENTSTREAM_EVOSCI_BIN)", async () => {
    const bin = "/nonexistent/dir/from-variable";
    const run = await runCli(["run", "--backend", "evosci", "--verbose", "hi"], {
      env: { AGENTSTREAM_EVOSCI_BIN: bin },
    });
    expect(run.code).toBe(69);
    expect(run.stderr).toContain(`running ${bin} -p hi`);
  });
});
