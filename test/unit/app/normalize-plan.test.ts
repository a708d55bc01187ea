// A normalization is planned once, by prepareNormalize, for the CLI and the library alike (as a run is,
// by prepareRun): the CLI's files (--stderr, --usage-file) are read into what the library gives as text,
// and the plan holds the redactor that hides this environment's secrets, as a run's plan does.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { prepareNormalize } from "../../../src/app/normalize-plan.js";
import { requestFromCli, requestFromLibrary } from "../../../src/app/request.js";
import { buildProgram } from "../../../src/cli/main.js";

const folder = mkdtempSync(join(tmpdir(), "agentstream-plan-"));
const SECRET = "plan-secret-value-0123456789";
process.env.AGENTSTREAM_PLAN_TEST_TOKEN = SECRET;
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
  delete process.env.AGENTSTREAM_PLAN_TEST_TOKEN;
});

function cliRequest(argv: string[]) {
  const command = buildProgram().commands.find((c) => c.name() === "normalize")!;
  command.parseOptions(argv);
  return requestFromCli("normalize", command.opts()).request;
}

describe("prepareNormalize", () => {
  it("plans the CLI's request and the library's alike, the CLI's files read into the library's text", async () => {
    const stderr = join(folder, "stderr.txt");
    writeFileSync(stderr, `first\nthe key ${SECRET}\n`);
    const usage = join(folder, "usage.json");
    const usageText = '{"calls":[]}\n';
    writeFileSync(usage, usageText);
    const argv = ["--from", "claude", "--backend-exit", "3", "--stderr", stderr, "--usage-file", usage];
    const fromCli = await prepareNormalize(cliRequest([...argv, "--model", "m-1", "--raw"]), {
      inputName: "rec.jsonl",
    });
    const { redactor, ...cliPlan } = fromCli.plan;
    expect(cliPlan).toEqual({
      from: "claude",
      model: "m-1",
      inputName: "rec.jsonl",
      end: { backendExit: cliPlan.end.backendExit, stderrTail: ["first", "the key [redacted]"], usageFile: usageText },
    });
    expect(cliPlan.end.backendExit).not.toBeNull();
    const library = requestFromLibrary("normalize", {
      from: "claude",
      model: "m-1",
      inputName: "rec.jsonl",
      raw: true,
      end: { backendExit: cliPlan.end.backendExit, stderrTail: cliPlan.end.stderrTail, usageFile: usageText },
    }).request;
    const fromLibrary = await prepareNormalize(library);
    const { redactor: libraryRedactor, ...libraryPlan } = fromLibrary.plan;
    expect(libraryPlan).toEqual(cliPlan);
    expect(fromLibrary.translation).toEqual(fromCli.translation);
    // The plan's redactor hides this environment's secrets, on both sides.
    for (const hiding of [redactor, libraryRedactor]) expect(hiding.text(`echo ${SECRET}`)).not.toContain(SECRET);
  });

  it("takes the input's name from the request where it gives one (the library), from the reader where not (the CLI)", async () => {
    const library = requestFromLibrary("normalize", { inputName: "named.jsonl" }).request;
    expect((await prepareNormalize(library, { inputName: "other" })).plan.inputName).toBe("named.jsonl");
    expect((await prepareNormalize(cliRequest([]), { inputName: "-" })).plan.inputName).toBe("-");
    expect((await prepareNormalize(requestFromLibrary("normalize", {}).request)).plan).not.toHaveProperty("inputName");
  });
});
