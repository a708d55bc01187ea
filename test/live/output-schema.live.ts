// --output-schema against the real binaries (issue 40): Claude Code and Codex given the schema natively
// (--json-schema; --output-schema FILE in the run's temporary folder), Gemini CLI and OpenCode through the
// instruction added to the prompt; the fake model answering in the form each asks for (scenarios.mjs
// structuredReply), once with an answer that matches the schema and once with one that does not.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { eventsOfType, type LiveRun } from "./support/live-run.js";
import { checkedRun, targetsFor } from "./support/live-suite.js";
import {
  CLAUDE_STRUCTURED_TOOL,
  STRUCTURED_ANSWERS,
  STRUCTURED_PREAMBLE,
  STRUCTURED_SCHEMA,
} from "./support/scenarios.mjs";

const folder = mkdtempSync(join(tmpdir(), "agentstream-live-schema-"));
const SCHEMA_FILE = join(folder, "verdict.schema.json");
writeFileSync(SCHEMA_FILE, `${JSON.stringify(STRUCTURED_SCHEMA, null, 2)}\n`);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const schemaArgs = { args: ["--output-schema", SCHEMA_FILE] };
const VALID = STRUCTURED_ANSWERS.structured;
const INVALID = STRUCTURED_ANSWERS.structuredbad;

function expectValid(run: LiveRun, via: "native" | "prompt"): void {
  expect(run.events[0]!.output_schema).toEqual({ via, file: SCHEMA_FILE });
  expect(run.finished, run.stderr).toMatchObject({ status: "succeeded", exit_code: 0, result: { json: VALID } });
  expect(run.exitCode).toBe(0);
}

/** Failed, output_schema, exit 1: the message names both failing paths, the text is kept, no json. */
function expectInvalid(run: LiveRun, via: "native" | "prompt"): void {
  expect(run.events[0]!.output_schema).toEqual({ via, file: SCHEMA_FILE });
  expect(run.finished, run.stderr).toMatchObject({
    status: "failed",
    exit_code: 1,
    error: { code: "output_schema", retryable: false },
  });
  expect(run.exitCode).toBe(1);
  expect(run.finished.error.message).toMatch(/verdict/);
  expect(run.finished.error.message).toMatch(/files/);
  // A failed run has no result: the answer that did not match is its last message.
  expect(run.finished.result).toBeNull();
}

/** The last message's text: the answer a failed check read. */
function lastMessage(run: LiveRun): string {
  return eventsOfType(run, "message.completed").at(-1)?.text ?? "";
}

/** The conversation of every model request the scenario made (Anthropic messages, Responses input, Gemini contents, chat messages). */
function conversationsSent(run: LiveRun, scenario: string): string {
  return JSON.stringify(
    run.server.requestsFor(scenario).map((r) => r.body.messages ?? r.body.input ?? r.body.contents),
  );
}

/** The schema's compact JSON text as it shows inside a JSON string (the prompt path's instruction carries it). */
const SCHEMA_IN_PROMPT = JSON.stringify(JSON.stringify(STRUCTURED_SCHEMA)).slice(1, -1);

for (const claude of targetsFor("claude-2.1.336")) {
  describe(`${claude.id} live, --output-schema natively (--json-schema)`, () => {
    it("answers with its StructuredOutput tool: result.json holds its input, the prompt is the user's own", async () => {
      const run = await checkedRun(claude, "structured", schemaArgs);
      expectValid(run, "native");
      // Its words before the call are a message; result.result (the text) is structured_output's JSON.
      expect(eventsOfType(run, "message.completed").map((e) => e.text)).toEqual([STRUCTURED_PREAMBLE]);
      expect(JSON.parse(run.finished.result.text)).toEqual(VALID);
      // Given as --json-schema, without $schema (its validator is draft-07 whatever the schema says).
      const command = run.events[0]!.command as string[];
      const { $schema: _dialect, ...asGiven } = STRUCTURED_SCHEMA;
      expect(JSON.parse(command[command.indexOf("--json-schema") + 1]!)).toEqual(asGiven);
      const [request] = run.server.requestsFor("structured");
      const tool = request!.body.tools.find((t: { name: string }) => t.name === CLAUDE_STRUCTURED_TOOL);
      expect(tool.input_schema).toEqual(asGiven);
      expect(conversationsSent(run, "structured")).not.toContain(SCHEMA_IN_PROMPT);
      // Calling the tool ended the turn: one model call.
      expect(run.server.requestsFor("structured")).toHaveLength(1);
      expect(eventsOfType(run, "tool.completed")).toEqual([
        expect.objectContaining({ name: CLAUDE_STRUCTURED_TOOL, status: "succeeded" }),
      ]);
    });

    it("gives up after its own five attempts when the answer never matches: output_schema, exit 1", async () => {
      const run = await checkedRun(claude, "structuredbad", schemaArgs);
      expectInvalid(run, "native");
      // Each failed call is told the validation errors and the model asked again, five times in all.
      expect(run.server.requestsFor("structuredbad")).toHaveLength(5);
      expect(run.finished.error.message).toMatch(/after 5 attempts/);
    });
  });
}

for (const codex of targetsFor("codex-0.171.0")) {
  describe(`${codex.id} live, --output-schema natively (a file in the run's folder)`, () => {
    it("sends the schema as text.format json_schema; result.json holds the answer; the file is gone after the run", async () => {
      const run = await checkedRun(codex, "structured", schemaArgs);
      expectValid(run, "native");
      expect(JSON.parse(run.finished.result.text)).toEqual(VALID);
      const [request] = run.server.requestsFor("structured");
      expect(request!.body.text.format).toMatchObject({ type: "json_schema", strict: true, schema: STRUCTURED_SCHEMA });
      expect(conversationsSent(run, "structured")).not.toContain(SCHEMA_IN_PROMPT);
      const command = run.events[0]!.command as string[];
      const file = command[command.indexOf("--output-schema") + 1]!;
      expect(file).toMatch(/agentstream-run-[^/]+\/output-schema\.json$/);
      expect(existsSync(file)).toBe(false);
    });

    it("an answer that does not match fails output_schema, exit 1 (Codex itself does not check it)", async () => {
      const run = await checkedRun(codex, "structuredbad", schemaArgs);
      expectInvalid(run, "native");
      expect(JSON.parse(lastMessage(run))).toEqual(INVALID);
      expect(run.server.requestsFor("structuredbad")).toHaveLength(1);
    });
  });
}

// Neither has a native means on its command line: the schema goes in the prompt.
for (const id of ["gemini-0.61.0", "opencode-1.18.34"]) {
  for (const target of targetsFor(id)) {
    describe(`${target.id} live, --output-schema through the prompt`, () => {
      it("the prompt carries the instruction and the schema; the fenced json block that matches is result.json", async () => {
        const run = await checkedRun(target, "structured", schemaArgs);
        expectValid(run, "prompt");
        expect(run.finished.result.text).toMatch(new RegExp(`^${STRUCTURED_PREAMBLE}\\n\\n\`\`\`json\\n`));
        expect(conversationsSent(run, "structured")).toContain(SCHEMA_IN_PROMPT);
      });

      it("an answer that does not match fails output_schema, exit 1, its text in its message", async () => {
        const run = await checkedRun(target, "structuredbad", schemaArgs);
        expectInvalid(run, "prompt");
        expect(lastMessage(run)).toContain(JSON.stringify(INVALID));
      });
    });
  }
}
