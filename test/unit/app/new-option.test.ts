// A new option is one row (docs/adding-an-option.md; issue 46 item 8): this test adds a portable option
// to the table and an entry for it to one backend's `supports`, at run time, with no file under src/
// changed, and sees its value reach that backend from the CLI and from the library, its flag in --help,
// and a backend without the entry refuse it (never pass it over).
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { cliNaming, libraryNaming, RUN_OPTIONS, type OptionRow } from "../../../src/app/options.js";
import { checkOf } from "../../../src/app/option-values.js";
import { prepareRun } from "../../../src/app/agent-run.js";
import { requestFromCli, requestFromLibrary } from "../../../src/app/request.js";
import { BACKENDS } from "../../../src/backends/registry.js";
import { buildProgram } from "../../../src/cli/main.js";
import { OptionError, UsageError } from "../../../src/core/errors.js";
import { run, type RunOptions } from "../../../src/index.js";

const REPLAY = fileURLToPath(new URL("../../../examples/replay-backend.mjs", import.meta.url));

const temperature: OptionRow = {
  key: "temperature",
  lifetime: "agent",
  portable: true,
  cli: {
    flags: "--temperature <t>",
    help: "how freely the model samples (a test's option)",
    commands: ["run"],
    parse: (text) => Number(text),
  },
  library: ["run"],
  check: checkOf<number>((v) => (typeof v === "number" && v >= 0 ? undefined : "expected a number from 0")),
};

const rows = RUN_OPTIONS as OptionRow[];
const evosci = BACKENDS.find((b) => b.name === "evosci")!;
const supports = evosci.supports as unknown as Record<string, unknown>;
rows.push(temperature);
supports.temperature = {
  via: "--temperature",
  reaches: (t: number) => ({ args: ["--temperature", String(t)] }),
};
afterAll(() => {
  rows.splice(rows.indexOf(temperature), 1);
  delete supports.temperature;
});

function cliRequest(argv: string[]) {
  const command = buildProgram().commands.find((c) => c.name() === "run")!;
  command.parseOptions(argv);
  return requestFromCli("run", command.opts()).request;
}

describe("an option added as a row and a supports entry", () => {
  it("is a flag of run, in --help, from the row", () => {
    const help = buildProgram()
      .commands.find((c) => c.name() === "run")!
      .helpInformation();
    expect(help).toContain("--temperature <t>");
    expect(help).toContain("how freely the model samples (a test's option)");
  });

  it("reaches the backend's argv from the CLI's flag", async () => {
    const request = cliRequest(["--backend", "evosci", "--bin", REPLAY, "--temperature", "0.7"]);
    expect(request).toMatchObject({ temperature: 0.7 });
    const spec = await prepareRun(request, () => "hi");
    expect(spec.plan.args.join(" ")).toContain("--temperature 0.7");
  });

  it("reaches the backend from the library's option, in the run it starts", async () => {
    const options = { backend: "evosci", bin: REPLAY, prompt: "hi", temperature: 0.25 } as RunOptions;
    expect(requestFromLibrary("run", options).request).toMatchObject({ temperature: 0.25 });
    const events = run({ ...options, env: { ...process.env, REPLAY_SPEED: "1000" } });
    const first = await events.next();
    await events.return(undefined as never);
    expect(first.value).toMatchObject({ type: "run.started" });
    expect((first.value as { command: string[] }).command.join(" ")).toContain("--temperature 0.25");
  });

  it("is checked by its row in the library", async () => {
    const events = run({ backend: "evosci", bin: REPLAY, prompt: "hi", temperature: -1 } as RunOptions);
    await expect(events.next()).rejects.toThrow(
      new UsageError("run(): option temperature: expected a number from 0, got -1"),
    );
  });

  it("is refused by a backend whose supports has no entry for it, in each side's words", async () => {
    let refusal: unknown;
    try {
      await prepareRun(cliRequest(["--backend", "pi", "--bin", REPLAY, "--temperature", "1"]), () => "hi");
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(OptionError);
    expect((refusal as OptionError).wordedAs(cliNaming).message).toMatch(/^--temperature: pi does not take it/);
    expect((refusal as OptionError).wordedAs(libraryNaming).message).toMatch(/^option temperature: pi does not/);
  });
});
