// --output-schema with a schema or an answer that cannot be checked in bounds (issue 45): a schema that refers to
// itself without end, an answer nested thousands deep, a pattern that backtracks, uniqueItems over many objects,
// an answer of thousands of unclosed fences. Each ends the run failed with output_schema and a run.finished that
// verifies, exit 1, in run, normalize and the library; --timeout and a stop signal stop the check; a schema that
// cannot be compiled in bounds is exit 2 before anything starts.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { CanonicalEvent, EventOf } from "../../../src/canonical/events.js";
import { checkAnswer, fencedJsonBlocks, MAX_ANSWER_CHARS, MAX_ANSWER_DEPTH } from "../../../src/core/answer-check.js";
import { normalizeStream } from "../../../src/lib/normalize.js";
import { run } from "../../../src/lib/run.js";
import { compileAnswerSchema, MAX_SCHEMA_CHARS, MAX_SCHEMA_DEPTH } from "../../../src/schema/output-schema.js";
import { runCli } from "../../helpers/cli.js";
import { eachLine, expectCanonical, runStandIn, Scratch, spawnCli, STAND_IN } from "../../helpers/stand-in.js";

const scratch = new Scratch();
afterAll(() => scratch.remove());

/** A Gemini CLI recording whose final answer is `answer`, ended with success. */
function recording(answer: string): string {
  return [
    { type: "init", timestamp: "2026-12-05T04:40:00.000Z", session_id: "s-1", model: "fake-model" },
    { type: "message", timestamp: "2026-12-05T04:40:00.100Z", role: "assistant", content: answer, delta: true },
    { type: "result", timestamp: "2026-12-05T04:40:01.000Z", status: "success", stats: { total_tokens: 2 } },
  ]
    .map((line) => `${JSON.stringify(line)}\n`)
    .join("");
}

/** JSON text nested `levels` deep as a tree ({"children":[...]}), built as text (no recursion). */
function deepTree(levels: number): string {
  return `${'{"children":['.repeat(levels)}{"children":[]}${"]}".repeat(levels)}`;
}

const TREE = { type: "object", properties: { children: { type: "array", items: { $ref: "#" } } } };
const BACKTRACKS = { type: "string", pattern: "^(a+)+$" };

// Each: a schema, an answer, and what the run's error message says.
const CASES: { name: string; schema: object; answer: () => string; says: RegExp }[] = [
  { name: '{"$ref":"#"}', schema: { $ref: "#" }, answer: () => '{"a":1}', says: /too deep .*never ends/ },
  {
    name: '{"allOf":[{"$ref":"#"}]}',
    schema: { allOf: [{ $ref: "#" }] },
    answer: () => "[]",
    says: /too deep .*never ends/,
  },
  {
    name: "a tree schema, an answer 10,000 levels deep",
    schema: TREE,
    answer: () => deepTree(10_000),
    says: new RegExp(`nests deeper than ${MAX_ANSWER_DEPTH} levels`),
  },
  {
    name: "a pattern that backtracks, against 40 a's and a !",
    schema: BACKTRACKS,
    answer: () => JSON.stringify(`${"a".repeat(40)}!`),
    says: /longer than the bound of 10 s/,
  },
  {
    name: "uniqueItems over 60,000 objects",
    schema: { type: "array", uniqueItems: true },
    answer: () => JSON.stringify(Array.from({ length: 60_000 }, (_, i) => ({ i }))),
    says: /longer than the bound of 10 s/,
  },
  {
    name: '120,000 unclosed "```json" lines',
    schema: { type: "object" },
    answer: () => "```json\n".repeat(120_000),
    says: /not JSON: neither one JSON document nor one fenced/,
  },
  {
    name: "an answer over the bound",
    schema: { type: "string" },
    answer: () => JSON.stringify("x".repeat(MAX_ANSWER_CHARS)),
    says: /characters long: the output schema check reads at most/,
  },
];

function files(name: string, schema: object, answer: string): { schemaFile: string; native: string } {
  const slug = name.replace(/[^a-z0-9]+/gi, "-");
  const schemaFile = scratch.path(`${slug}.schema.json`);
  const native = scratch.path(`${slug}.native.jsonl`);
  writeFileSync(schemaFile, JSON.stringify(schema));
  writeFileSync(native, recording(answer));
  return { schemaFile, native };
}

describe.concurrent("normalize --output-schema (the built bin): an answer that cannot be checked in bounds", () => {
  for (const { name, schema, answer, says } of CASES) {
    it(`${name}: failed, output_schema, exit 1, run.finished verifies`, async () => {
      const { schemaFile, native } = files(`normalize ${name}`, schema, answer());
      const result = await runCli([
        "normalize",
        "--from",
        "gemini",
        "--backend-exit",
        "0",
        "--output-schema",
        schemaFile,
        native,
      ]);
      const { finished } = expectCanonical(result);
      expect(result.code).toBe(1);
      expect(finished).toMatchObject({ status: "failed", error: { code: "output_schema", retryable: false } });
      expect((finished.error as { message: string }).message).toMatch(says);
      expect(result.stderr).not.toMatch(/RangeError|internal error|\n\s+at /);
    });
  }
});

describe.concurrent("run --output-schema (the stand-in backend): the same answers", () => {
  for (const { name, schema, answer, says } of CASES.filter((c) => !/over the bound/.test(c.name))) {
    it(`${name}: failed, output_schema, exit 1`, async () => {
      const { schemaFile, native } = files(`run ${name}`, schema, answer());
      const { result } = await runStandIn(scratch, ["--backend", "gemini", "--output-schema", schemaFile, "hi"], {
        knobs: { STANDIN_TRANSCRIPT: native },
      });
      const { finished } = expectCanonical(result);
      expect(result.code).toBe(1);
      expect(finished).toMatchObject({ status: "failed", error: { code: "output_schema" } });
      expect((finished.error as { message: string }).message).toMatch(says);
    });
  }

  it("--timeout shorter than the check: the run ends timed_out, 124, while its answer was checked", async () => {
    const { schemaFile, native } = files("timeout", BACKTRACKS, JSON.stringify(`${"a".repeat(40)}!`));
    const { result } = await runStandIn(
      scratch,
      ["--backend", "gemini", "--timeout", "2", "--output-schema", schemaFile, "hi"],
      { knobs: { STANDIN_TRANSCRIPT: native } },
    );
    const { finished } = expectCanonical(result);
    expect(result.code).toBe(124);
    expect(finished).toMatchObject({
      status: "timed_out",
      error: { code: "timeout", message: expect.stringContaining("while its answer was checked") },
    });
  });

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`${signal} while the answer is checked: the run ends cancelled, ${signal === "SIGINT" ? 130 : 143}`, async () => {
      const { schemaFile, native } = files(`signal ${signal}`, BACKTRACKS, JSON.stringify(`${"a".repeat(40)}!`));
      const child = spawnCli(
        ["run", "--verbose", "--bin", STAND_IN, "--backend", "gemini", "--output-schema", schemaFile, "hi"],
        { env: { STANDIN_TRANSCRIPT: native, STANDIN_RECORD: scratch.recordPath() } },
      );
      let stdout = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
      // Sent once the run says the check has begun (the backend has exited by then).
      const stderr = eachLine(child.stderr, (line) => {
        if (line.includes("checking the answer against the output schema")) child.kill(signal);
      });
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      await stderr;
      const result = { code, signal: null, stdout, stderr: "" };
      const { finished } = expectCanonical(result);
      expect(code).toBe(signal === "SIGINT" ? 130 : 143);
      expect(finished).toMatchObject({
        status: "cancelled",
        error: { code: "cancelled", message: `cancelled by ${signal}` },
      });
    });
  }
});

describe("normalize --output-schema (the built bin): a stop signal during the check", () => {
  it("SIGINT once the answer is read: the stream ends cancelled, 130, with a run.finished that verifies", async () => {
    const { schemaFile, native } = files("normalize signal", BACKTRACKS, JSON.stringify(`${"a".repeat(40)}!`));
    const child = spawnCli([
      "normalize",
      "--from",
      "gemini",
      "--backend-exit",
      "0",
      "--output-schema",
      schemaFile,
      native,
    ]);
    const lines: string[] = [];
    // The recording is read in one chunk: once its answer is on stdout, the check is what is left.
    const stdout = eachLine(child.stdout, (line) => {
      lines.push(line);
      if (line.includes('"type":"message.completed"')) child.kill("SIGINT");
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    await stdout;
    const { finished } = expectCanonical({ code, signal: null, stdout: lines.join("\n"), stderr: "" });
    expect(code).toBe(130);
    expect(finished).toMatchObject({
      status: "cancelled",
      error: { code: "cancelled", message: "cancelled by SIGINT" },
    });
  });
});

describe("a schema that cannot be compiled in bounds: exit 2 before anything starts, saying why", () => {
  const chain: Record<string, object> = {};
  for (let i = 0; i < 5000; i++) chain[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i + 1}` }] };
  chain.d5000 = { type: "object" };
  let nested: object = {};
  for (let i = 0; i <= MAX_SCHEMA_DEPTH; i++) nested = { properties: { a: nested } };
  const big = { enum: ["x".repeat(MAX_SCHEMA_CHARS)] };
  const cases = [
    [
      "a chain of 5,000 $refs",
      { $ref: "#/$defs/d0", $defs: chain },
      /ajv could not compile it: its \$refs lead too deep/,
    ],
    [`nested ${MAX_SCHEMA_DEPTH + 1} deep`, nested, new RegExp(`nests deeper than ${MAX_SCHEMA_DEPTH} levels`)],
    ["over the size bound", big, /characters of JSON: agentstream compiles at most/],
  ] as const;
  for (const [name, schema, says] of cases) {
    it(`normalize and run: ${name}`, async () => {
      const { schemaFile, native } = files(`compile ${name}`, schema, "{}");
      const normalized = await runCli(["normalize", "--from", "gemini", "--output-schema", schemaFile, native]);
      expect(normalized.code).toBe(2);
      expect(normalized.stdout).toBe("");
      expect(normalized.stderr).toMatch(says);
      const ran = await runCli(["run", "--backend", "gemini", "--bin", STAND_IN, "--output-schema", schemaFile, "hi"]);
      expect(ran.code).toBe(2);
      expect(ran.stdout).toBe("");
      expect(ran.stderr).toMatch(says);
      expect(ran.stderr).not.toMatch(/RangeError|internal error/);
    });
  }
});

describe("the library: run() and normalizeStream() end the run, never throw", () => {
  const finishedOf = (events: CanonicalEvent[]) => events.at(-1) as EventOf<"run.finished">;

  it('run() with {"$ref":"#"}: failed, output_schema', async () => {
    const { native } = files("library run", {}, '{"a":1}');
    const events: CanonicalEvent[] = [];
    for await (const event of run({
      backend: "gemini",
      bin: STAND_IN,
      prompt: "hi",
      outputSchema: { $ref: "#" },
      env: { ...process.env, STANDIN_TRANSCRIPT: native },
      onNote: () => {},
    }))
      events.push(event);
    expect(finishedOf(events)).toMatchObject({
      type: "run.finished",
      status: "failed",
      error: { code: "output_schema" },
    });
  });

  it("run() whose signal aborts during the check: cancelled", async () => {
    const { native } = files("library abort", {}, JSON.stringify(`${"a".repeat(40)}!`));
    const controller = new AbortController();
    const events: CanonicalEvent[] = [];
    for await (const event of run({
      backend: "gemini",
      bin: STAND_IN,
      prompt: "hi",
      outputSchema: BACKTRACKS,
      signal: controller.signal,
      env: { ...process.env, STANDIN_TRANSCRIPT: native },
      onNote: () => {},
    })) {
      events.push(event);
      // The answer is in: the check follows the backend's exit.
      if (event.type === "message.completed") setImmediate(() => controller.abort());
    }
    expect(finishedOf(events)).toMatchObject({ status: "cancelled", exit_code: 130 });
  });

  it("normalizeStream() with a tree schema and an answer 10,000 deep: failed, output_schema", async () => {
    const events: CanonicalEvent[] = [];
    for await (const event of normalizeStream([recording(deepTree(10_000))], { from: "gemini", outputSchema: TREE }))
      events.push(event);
    expect(finishedOf(events)).toMatchObject({ status: "failed", error: { code: "output_schema" } });
  });
});

describe("the answer's check, bounded and stoppable", () => {
  it("a stop signal ends the check with its reason", async () => {
    const schema = await compileAnswerSchema(BACKTRACKS);
    const controller = new AbortController();
    const checking = checkAnswer(schema, JSON.stringify(`${"a".repeat(40)}!`), undefined, controller.signal);
    controller.abort({ kind: "signal", signal: "SIGINT" });
    expect(await checking).toEqual({ stopped: { kind: "signal", signal: "SIGINT" } });
  });

  it("a native structured result nested too deep is refused before it is written", async () => {
    let value: unknown = 1;
    for (let i = 0; i < 10_000; i++) value = [value];
    const verdict = await checkAnswer(await compileAnswerSchema({}), null, { value });
    expect(verdict).toMatchObject({
      error: { code: "output_schema", message: expect.stringContaining("nests deeper") },
    });
  });
});

// The scan it replaced: a backtracking regex, quadratic on unclosed fences.
const JSON_FENCE = /^[ \t]*```[ \t]*json[ \t]*\r?\n([\s\S]*?)^[ \t]*```[ \t]*$/gim;

describe("the fenced-block scan", () => {
  it("finds the blocks the regex found, on answers made of fence-like lines", () => {
    const pieces = ["```json", "```JSON ", " ``` ", "```", "{}", "x", "", "\t```json\t", "```js"];
    let seed = 45;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 2000; i++) {
      const lines = Array.from({ length: random(12) }, () => pieces[random(pieces.length)]!);
      const text = lines.join("\n") + (random(2) ? "\n" : "");
      expect(fencedJsonBlocks(text), JSON.stringify(text)).toEqual([...text.matchAll(JSON_FENCE)].map((m) => m[1]));
    }
  });

  it("is linear: 120,000 unclosed fences are one pass", () => {
    expect(fencedJsonBlocks("```json\n".repeat(120_000))).toEqual([]);
  });
});

describe("the workers, whatever the caller's module type", () => {
  it("compile and check under a parent started with --input-type=module (the workers inherit its execArgv)", () => {
    const dist = new URL("../../../dist/schema/output-schema.js", import.meta.url).href;
    const check = new URL("../../../dist/core/answer-check.js", import.meta.url).href;
    const program = `
      const { compileAnswerSchema } = await import(${JSON.stringify(dist)});
      const { checkAnswer } = await import(${JSON.stringify(check)});
      const schema = await compileAnswerSchema({ type: "object", required: ["a"] });
      console.log(JSON.stringify(await checkAnswer(schema, '{"a":1}', undefined)));`;
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", program], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({ json: { value: { a: 1 } } });
  });
});
