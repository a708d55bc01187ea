// --output-schema on the backends with a native means (issue 40), through the built bin with the stand-in
// replaying their real captures (test/fixtures/live/*/structured.jsonl): Claude Code's --json-schema, Codex's
// --output-schema FILE in the run's temporary folder. The live suite runs the real binaries
// (test/live/output-schema.live.ts).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { loadOutputSchema } from "../../../src/run/output-schema.js";
import { promptWithSchema } from "../../../src/backends/schema-in-prompt.js";
import { expectCanonical, runStandIn, Scratch } from "../../helpers/stand-in.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const capture = (id: string, name: string): string => join(REPO, "test/fixtures/live", id, name);
// Draft 2020-12, named by its $schema.
const SCHEMA_FILE = capture("claude-2.1.336", "structured.schema.json");
const SCHEMA = JSON.parse(readFileSync(SCHEMA_FILE, "utf8"));
const VALID = { verdict: "pass", files: 2 };

const scratch = new Scratch();
afterAll(() => scratch.remove());

describe("Claude Code: --json-schema", () => {
  it("gets the schema as --json-schema, without $schema; the prompt stays the user's; result.json is structured_output", async () => {
    const { result, standIn } = await runStandIn(
      scratch,
      ["--backend", "claude", "--output-schema", SCHEMA_FILE, "give the verdict"],
      { knobs: { STANDIN_TRANSCRIPT: capture("claude-2.1.336", "structured.jsonl") } },
    );
    const { events, finished } = expectCanonical(result);
    expect(result.code).toBe(0);
    expect(events[0]).toMatchObject({ output_schema: { via: "native", file: SCHEMA_FILE } });
    const argv = standIn!.argv;
    const { $schema: _dialect, ...withoutDialect } = SCHEMA;
    expect(argv.slice(argv.indexOf("--json-schema"), argv.indexOf("--json-schema") + 2)).toEqual([
      "--json-schema",
      JSON.stringify(withoutDialect),
    ]);
    expect(argv.slice(-2)).toEqual(["--", "give the verdict"]);
    expect(finished).toMatchObject({ status: "succeeded", result: { json: VALID } });
  });

  it("a schema its draft-07 validator refuses (prefixItems, a 2020-12 keyword) goes by the prompt instead", async () => {
    const file = scratch.path("tuple.schema.json");
    const tuple = { ...SCHEMA, properties: { ...SCHEMA.properties, pair: { type: "array", prefixItems: [{}] } } };
    writeFileSync(file, JSON.stringify(tuple));
    const { result, standIn } = await runStandIn(
      scratch,
      ["--backend", "claude", "--output-schema", file, "give the verdict"],
      { knobs: { STANDIN_TRANSCRIPT: capture("claude-2.1.336", "structured.jsonl") } },
    );
    const { events } = expectCanonical(result);
    expect(events[0]).toMatchObject({ output_schema: { via: "prompt", file } });
    expect(standIn!.argv).not.toContain("--json-schema");
    expect(standIn!.argv.at(-1)).toBe(promptWithSchema("give the verdict", await loadOutputSchema(file)));
  });
});

describe("Codex: --output-schema FILE", () => {
  it("gets a file in the run's temporary folder, gone when the run has ended; result.json is its answer", async () => {
    const { result, standIn } = await runStandIn(
      scratch,
      ["--backend", "codex", "--output-schema", SCHEMA_FILE, "give the verdict"],
      { knobs: { STANDIN_TRANSCRIPT: capture("codex-0.171.0", "structured.jsonl") } },
    );
    const { events, finished } = expectCanonical(result);
    expect(result.code).toBe(0);
    expect(events[0]).toMatchObject({ output_schema: { via: "native", file: SCHEMA_FILE } });
    const argv = standIn!.argv;
    const file = argv[argv.indexOf("--output-schema") + 1]!;
    expect(file).toMatch(/agentstream-run-[^/]+\/output-schema\.json$/);
    expect(argv.slice(-2)).toEqual(["--", "give the verdict"]);
    expect(existsSync(file)).toBe(false);
    expect(finished).toMatchObject({ status: "succeeded", result: { json: VALID } });
  });

  it("codex exec resume takes it too", async () => {
    const { result, standIn } = await runStandIn(
      scratch,
      ["--backend", "codex", "--resume", "S1", "--output-schema", SCHEMA_FILE, "go on"],
      { knobs: { STANDIN_TRANSCRIPT: capture("codex-0.171.0", "structuredbad.jsonl") } },
    );
    const { finished } = expectCanonical(result);
    expect(standIn!.argv.slice(0, 2)).toEqual(["exec", "resume"]);
    expect(standIn!.argv).toContain("--output-schema");
    expect(standIn!.argv.slice(-3)).toEqual(["--", "S1", "go on"]);
    // Codex does not check the answer itself: agentstream does.
    expect(result.code).toBe(1);
    expect(finished).toMatchObject({ status: "failed", error: { code: "output_schema" } });
  });
});
