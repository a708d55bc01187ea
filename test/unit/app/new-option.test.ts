// A new portable option is its row and one `supports` entry per backend (docs/adding-an-option.md; issue 54
// item 1): this test declares a typed row and a typed entry for it (no cast), builds a table with the
// function src/app/options.ts builds agentstream's with, and sees the value reach the backend's argv from the
// CLI's flag and from the library's option, through the planning functions run uses; its flag in --help; its
// row's check in the library; and a backend without the entry refuse it (never pass it over). The compiler
// proves the path: a backend of this table without the entry does not compile.
import { describe, expect, it } from "vitest";
import { TABLE_ROWS } from "../../../src/app/options.js";
import { askBackend } from "../../../src/app/portable-request.js";
import { requestFromCli, requestFromLibrary } from "../../../src/app/request.js";
import type { BackendDefinition } from "../../../src/backends/definition.js";
import { reachBackend } from "../../../src/backends/native-input.js";
import { PORTABLE_ROWS } from "../../../src/backends/portable-rows.js";
import { backendNamed } from "../../../src/backends/registry.js";
import type { PortableValuesOf } from "../../../src/backends/request.js";
import { buildProgram } from "../../../src/cli/main.js";
import { OptionError, UsageError } from "../../../src/core/errors.js";
import { optionTable, type OptionRow } from "../../../src/core/option-row.js";
import { checkOf } from "../../../src/core/option-values.js";
import { checkEntryOptions } from "../../../src/lib/options.js";
import { NO_STOPS } from "../../../src/run/stop-signals.js";

const temperature = {
  key: "temperature",
  lifetime: "agent",
  portable: {},
  cli: { flags: "--temperature <t>", help: "how freely the model samples (a test's option)", commands: ["run"] },
  library: ["run"],
  check: checkOf<number>((v) => (typeof v === "number" && v >= 0 ? undefined : "expected a number from 0"), {
    parse: (text) => Number(text),
  }),
} as const satisfies OptionRow;

const PORTABLE = [...PORTABLE_ROWS, temperature] as const;
const table = optionTable(TABLE_ROWS, PORTABLE);
type Values = PortableValuesOf<(typeof PORTABLE)[number]>;

const evosci = backendNamed("evosci");
/** EvoScientist as a backend of this table: its `supports` must answer for temperature, typed by the row. */
const withTemperature: BackendDefinition<string, string, Values> = {
  ...evosci,
  supports: {
    ...evosci.supports,
    temperature: { via: "--temperature", reaches: (t) => ({ args: ["--temperature", t.toFixed(2)] }) },
  },
};
// @ts-expect-error: a backend of this table that does not say how it takes temperature (or why not) is no backend
const _silent: BackendDefinition<string, string, Values> = { ...evosci };

const FRAME = { prompt: "hi", promptTerminator: false, backendArgs: [] };

/** The argv the backend is given for a request, as planning makes it. */
async function argvOf(backend: BackendDefinition, request: Record<string, unknown>): Promise<string[]> {
  const { native } = await askBackend(backend, request, { stops: NO_STOPS }, table);
  return reachBackend(backend, native, {}).argv(FRAME);
}

function cliRequest(argv: string[]) {
  const command = buildProgram(table).commands.find((c) => c.name() === "run")!;
  command.parseOptions(argv);
  return requestFromCli("run", command.opts(), table).request;
}

describe("a portable option added as a typed row and supports entry", () => {
  it("is a flag of run, in --help, from the row (last: the table does not place it)", () => {
    const help = buildProgram(table)
      .commands.find((c) => c.name() === "run")!
      .helpInformation();
    expect(help).toMatch(/--temperature <t> +how freely the model samples \(a test's option\)/);
    expect(table.cliRows("run").at(-1)!.key).toBe("temperature");
    expect(table.portable.at(-1)!.key).toBe("temperature");
  });

  it("reaches the backend's argv from the CLI's flag, parsed by its row", async () => {
    const request = cliRequest(["--backend", "evosci", "--temperature", "0.7"]);
    expect(request).toMatchObject({ temperature: 0.7 });
    expect((await argvOf(withTemperature, request)).join(" ")).toContain("--temperature 0.70");
  });

  it("reaches the backend's argv from the library's option, checked by its row", async () => {
    const options = { backend: "evosci", prompt: "hi", temperature: 0.25 };
    checkEntryOptions("run", options, table);
    const { request } = requestFromLibrary("run", options, table);
    expect(request).toMatchObject({ temperature: 0.25 });
    expect((await argvOf(withTemperature, request)).join(" ")).toContain("--temperature 0.25");
  });

  it("is checked by its row in the library", () => {
    expect(() => checkEntryOptions("run", { backend: "evosci", prompt: "hi", temperature: -1 }, table)).toThrow(
      new UsageError("run(): option temperature: expected a number from 0, got -1"),
    );
  });

  it("is refused by a backend whose supports has no entry for it, in each side's words", async () => {
    const refusal = await askBackend(backendNamed("pi"), { temperature: 1 }, { stops: NO_STOPS }, table).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refusal).toBeInstanceOf(OptionError);
    expect((refusal as OptionError).wordedAs(table.cliNaming).message).toMatch(/^--temperature: pi does not take it/);
    expect((refusal as OptionError).wordedAs(table.libraryNaming).message).toMatch(/^option temperature: pi does not/);
  });
});
