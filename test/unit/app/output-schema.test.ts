// --output-schema (issue 40): the schema read and compiled before anything starts, the prompt path's
// instruction, and the answer checked where outcomes are decided, the same for run, normalize and the library.
// The goldens of each shape are test/fixtures/golden/output-schema/ (golden.test.ts); here the built bin
// reproduces them through normalize, and run goes through the stand-in backend as a real process.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { loadOutputSchema } from "../../../src/run/output-schema.js";
import { promptWithSchema, SCHEMA_INSTRUCTION } from "../../../src/backends/schema-in-prompt.js";
import type { CanonicalEvent, EventOf } from "../../../src/canonical/events.js";
import { checkAnswer } from "../../../src/core/answer-check.js";
import { UsageError } from "../../../src/core/errors.js";
import { normalizeStream } from "../../../src/lib/normalize.js";
import { run } from "../../../src/lib/run.js";
import { compileAnswerSchema, MAX_SHOWN_PROBLEMS } from "../../../src/schema/output-schema.js";
import { runCli } from "../../helpers/cli.js";
import { expectCanonical, readRecord, runStandIn, Scratch, STAND_IN } from "../../helpers/stand-in.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const FOLDER = "test/fixtures/golden/output-schema";
const SCHEMA_FILE = `${FOLDER}/verdict.schema.json`;
const golden = (name: string, ext: string): string => readFileSync(join(REPO, FOLDER, `${name}.${ext}`), "utf8");
const VERDICT = await compileAnswerSchema(JSON.parse(golden("verdict.schema", "json")));

const scratch = new Scratch();
afterAll(() => scratch.remove());

function finishedOf(events: CanonicalEvent[]): EventOf<"run.finished"> {
  const last = events.at(-1)!;
  expect(last.type).toBe("run.finished");
  return last as EventOf<"run.finished">;
}

describe("the answer checked against the schema", () => {
  it("takes the whole answer when it is one JSON document, else its one fenced json block", async () => {
    expect(await checkAnswer(VERDICT, ' {"verdict":"pass","score":1}\n', undefined)).toEqual({
      json: { value: { verdict: "pass", score: 1 } },
    });
    const fenced = 'Done.\n\n```JSON \n{"verdict":"fail","score":0}\n```\nThat is all.';
    expect(await checkAnswer(VERDICT, fenced, undefined)).toEqual({ json: { value: { verdict: "fail", score: 0 } } });
    // A fence of another language is not the answer.
    const other = await checkAnswer(VERDICT, '```js\n{"verdict":"pass","score":1}\n```', undefined);
    expect(other).toMatchObject({ error: { code: "output_schema", retryable: false } });
  });

  it("a fenced block that is not JSON, or no answer at all, fails with what was wrong", async () => {
    expect(await checkAnswer(VERDICT, "```json\n{verdict: pass}\n```", undefined)).toMatchObject({
      error: { message: expect.stringMatching(/^the answer's fenced ```json block is not JSON: /) },
    });
    expect(await checkAnswer(VERDICT, null, undefined)).toMatchObject({
      error: { code: "output_schema", message: "the run gave no final answer to check against the output schema" },
    });
  });

  it("names the first failing paths and counts the rest", async () => {
    const many = await compileAnswerSchema({
      type: "object",
      properties: Object.fromEntries(["a", "b", "c", "d", "e", "f", "g"].map((k) => [k, { type: "string" }])),
    });
    const value = { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7 };
    const verdict = await checkAnswer(many, JSON.stringify(value), undefined);
    expect("error" in verdict && verdict.error.message).toBe(
      `the answer does not match the output schema: ${["a", "b", "c", "d", "e"].map((k) => `${k} is the number ${value[k as "a"]}, but must be a string`).join("; ")}; and 2 more`,
    );
    expect(MAX_SHOWN_PROBLEMS).toBe(5);
  });

  it("the backend's native structured result is the answer, before the text", async () => {
    const native = { value: { verdict: "pass", score: 2 } };
    expect(await checkAnswer(VERDICT, "prose, not JSON", native)).toEqual({ json: native });
    expect(await checkAnswer(VERDICT, '{"verdict":"pass","score":2}', { value: { score: "2" } })).toMatchObject({
      error: { message: expect.stringContaining('score is the string "2", but must be an integer') },
    });
  });

  it("draft-07 by its $schema, draft 2020-12 otherwise", async () => {
    // A tuple `items` array is draft-07; 2020-12 spells it prefixItems and refuses the array.
    const tuple = { type: "array", items: [{ type: "string" }, { type: "integer" }] };
    const draft7 = await compileAnswerSchema({ $schema: "http://json-schema.org/draft-07/schema#", ...tuple });
    expect(await checkAnswer(draft7, '["a", 1]', undefined)).toEqual({ json: { value: ["a", 1] } });
    expect(await checkAnswer(draft7, '["a", "b"]', undefined)).toMatchObject({
      error: { message: expect.stringContaining('[1] is the string "b", but must be an integer') },
    });
    await expect(compileAnswerSchema(tuple)).rejects.toThrow(/^not a schema ajv compiles: /);
    await expect(compileAnswerSchema({ $schema: "http://json-schema.org/draft-04/schema#" })).rejects.toThrow(
      /its \$schema "http:\/\/json-schema.org\/draft-04\/schema#" is not one agentstream reads/,
    );
  });
});

describe("normalize --output-schema FILE (the built bin)", () => {
  const normalize = (name: string, extra: string[] = []) =>
    runCli(
      ["normalize", "--from", "gemini", "--backend-exit", name === "failed-own-error" ? "1" : "0", ...extra, "-"],
      {
        input: golden(name, "native.jsonl"),
        cwd: REPO,
        env: { AGENTSTREAM_TEST_FIXTURE: "1" },
      },
    );

  for (const [name, code] of [
    ["valid", 0],
    ["fenced", 0],
    ["not-json", 1],
    ["invalid", 1],
    ["two-fenced", 1],
    ["failed-own-error", 75],
  ] as const) {
    it(`${name}: writes the golden stream, exit ${code}`, async () => {
      const result = await normalize(name, ["--output-schema", SCHEMA_FILE]);
      expect(result.stdout).toBe(golden(name, "canonical.jsonl"));
      expect(result.code).toBe(code);
    });
  }

  it("without --output-schema the same answer is no JSON value and no failure", async () => {
    const result = await normalize("invalid");
    const { finished } = expectCanonical(result);
    expect(finished).toMatchObject({ status: "succeeded", result: { text: expect.any(String) } });
    expect((finished.result as Record<string, unknown>).json).toBeUndefined();
  });

  it("--output json prints run.finished with result.json", async () => {
    const result = await normalize("valid", ["--output-schema", SCHEMA_FILE, "--output", "json"]);
    expect(JSON.parse(result.stdout).result.json).toEqual({ verdict: "pass", score: 3 });
  });
});

describe("a schema file that cannot be used: exit 2 before anything starts, nothing on stdout", () => {
  const notJson = scratch.path("not-json.json");
  writeFileSync(notJson, "{ type: object }");
  const notSchema = scratch.path("not-schema.json");
  writeFileSync(notSchema, JSON.stringify({ type: 5 }));
  const array = scratch.path("array.json");
  writeFileSync(array, "[]");
  const missing = scratch.path("missing.json");
  const cases = [
    [missing, /cannot read it: .*(no such file|not found|does not exist)/i],
    [notJson, /not JSON: /],
    [notSchema, /not a schema ajv compiles: schema is invalid: data\/type/],
    [array, /a JSON Schema is an object, not an array/],
  ] as const;

  for (const [file, problem] of cases) {
    const shown = file.slice(file.lastIndexOf("/") + 1);
    it(`run: ${shown}`, async () => {
      const record = scratch.recordPath();
      const result = await runCli(["run", "--backend", "gemini", "--bin", STAND_IN, "--output-schema", file, "hi"], {
        env: { STANDIN_RECORD: record },
      });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(`--output-schema ${file}: `);
      expect(result.stderr).toMatch(problem);
      // Nothing started: the stand-in never ran.
      expect(() => readRecord(record)).toThrow();
    });
    it(`normalize: ${shown}`, async () => {
      const result = await runCli(["normalize", "--output-schema", file, "-"], {
        input: golden("valid", "native.jsonl"),
      });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(`--output-schema ${file}: `);
      expect(result.stderr).toMatch(problem);
    });
  }
});

describe("run --output-schema on a backend without a native means: the prompt path", () => {
  it("adds the instruction with the schema to the prompt, says so in run.started, and checks the answer", async () => {
    const { result, standIn } = await runStandIn(
      scratch,
      ["--backend", "gemini", "--output-schema", SCHEMA_FILE, "review the change"],
      { cwd: REPO, knobs: { STANDIN_TRANSCRIPT: join(REPO, FOLDER, "fenced.native.jsonl") } },
    );
    const { events, finished } = expectCanonical(result);
    expect(result.code).toBe(0);
    expect(events[0]).toMatchObject({ output_schema: { via: "prompt", file: SCHEMA_FILE } });
    expect(finished.result).toMatchObject({ json: { verdict: "pass", score: 4, notes: ["tests added"] } });
    const schema = await loadOutputSchema(join(REPO, SCHEMA_FILE));
    expect(standIn!.argv).toContain(`--prompt=${promptWithSchema("review the change", schema)}`);
    expect(standIn!.argv.at(-1)).toBe(
      `--prompt=review the change\n\n${SCHEMA_INSTRUCTION}\n${JSON.stringify(JSON.parse(golden("verdict.schema", "json")))}`,
    );
  });

  it("an answer that does not match ends the run failed, output_schema, exit 1, with no result", async () => {
    const { result } = await runStandIn(scratch, ["--backend", "gemini", "--output-schema", SCHEMA_FILE, "x"], {
      cwd: REPO,
      knobs: { STANDIN_TRANSCRIPT: join(REPO, FOLDER, "invalid.native.jsonl") },
    });
    const { finished } = expectCanonical(result);
    expect(result.code).toBe(1);
    expect(finished).toMatchObject({
      status: "failed",
      error: { code: "output_schema", message: expect.stringContaining('verdict is "maybe"') },
      result: null,
    });
    expect(result.stderr).toContain("the answer did not match --output-schema");
  });
});

describe("the library's outputSchema", () => {
  const schema = JSON.parse(golden("verdict.schema", "json")) as object;

  it("run(): a schema object; run.finished.result.json holds the answer", async () => {
    const events: CanonicalEvent[] = [];
    for await (const event of run({
      backend: "gemini",
      bin: STAND_IN,
      prompt: "review",
      outputSchema: schema,
      env: { ...process.env, STANDIN_TRANSCRIPT: join(REPO, FOLDER, "valid.native.jsonl") },
      onNote: () => {},
    }))
      events.push(event);
    expect(events[0]).toMatchObject({ type: "run.started", output_schema: { via: "prompt" } });
    expect((events[0] as EventOf<"run.started">).output_schema!.file).toBeUndefined();
    expect(finishedOf(events)).toMatchObject({ status: "succeeded", result: { json: { verdict: "pass", score: 3 } } });
  });

  it("normalizeStream(): a path; an answer that does not match fails", async () => {
    const events: CanonicalEvent[] = [];
    const stream = normalizeStream([golden("two-fenced", "native.jsonl")], {
      from: "gemini",
      outputSchema: join(REPO, SCHEMA_FILE),
    });
    for await (const event of stream) events.push(event);
    expect(events[0]).toMatchObject({ output_schema: { via: "none", file: join(REPO, SCHEMA_FILE) } });
    expect(finishedOf(events)).toMatchObject({ status: "failed", exit_code: 1, error: { code: "output_schema" } });
  });

  it("an unusable schema is a UsageError naming the option, before anything starts", async () => {
    const record = scratch.recordPath();
    const started = run({
      backend: "gemini",
      bin: STAND_IN,
      prompt: "x",
      outputSchema: { type: "objekt" },
      env: { ...process.env, STANDIN_RECORD: record },
    });
    const refused = await started.next().catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(UsageError);
    expect((refused as Error).message).toMatch(
      /^run\(\): option outputSchema: not a schema ajv compiles: schema is invalid: data\/type /,
    );
    expect(() => readRecord(record)).toThrow();
    const missing = join(scratch.dir, "none.json");
    await expect(normalizeStream([""], { outputSchema: missing }).next()).rejects.toThrow(
      /^normalizeStream\(\): option outputSchema .*none\.json: cannot read it: /,
    );
    await expect(normalizeStream([""], { outputSchema: 42 as unknown as object }).next()).rejects.toThrow(
      "normalizeStream(): option outputSchema: expected a JSON Schema (an object) or the path of a JSON file, got 42",
    );
  });
});

describe("docs", () => {
  it("docs/output-schema.md quotes the prompt path's instruction word for word", () => {
    const doc = readFileSync(join(REPO, "docs/output-schema.md"), "utf8");
    expect(doc).toContain(SCHEMA_INSTRUCTION);
  });
});
