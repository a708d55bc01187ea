import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { loadSchema } from "../src/schema/schema-files.js";
import { runCli } from "./helpers/cli.js";
import { strictProblems } from "./helpers/strict-schema.js";

const published = new Ajv2020({ strict: true }).compile(loadSchema());

const finished = {
  v: 1,
  seq: 2,
  ts: "2026-01-01T00:00:00.002Z",
  elapsed_ms: 2,
  run_id: "r",
  backend: "pi",
  type: "run.finished",
  status: "succeeded",
  exit_code: 0,
  backend_exit: { code: 0, signal: null },
  duration_ms: 2,
  result: { text: "hi" },
  counts: {
    turns: 1,
    messages: 1,
    tool_calls: 0,
    tool_failures: 0,
    errors: 0,
    retries: 0,
    unknown_events: 0,
    unparsed_lines: 0,
  },
  synthetic: true,
};

describe("the published schema", () => {
  it("accepts a valid event", () => {
    expect(published(finished)).toBe(true);
    expect(strictProblems(finished)).toEqual([]);
  });

  it("lets consumers meet unknown fields and unknown types (forward compatibility)", () => {
    expect(published({ ...finished, added_later: 1 })).toBe(true);
    expect(published({ ...finished, counts: { ...finished.counts, new_count: 3 } })).toBe(true);
    expect(published({ ...finished, type: "something.new", status: undefined })).toBe(true);
  });

  it("rejects what breaks the contract", () => {
    expect(published({ ...finished, status: "done" })).toBe(false);
    expect(published({ ...finished, exit_code: 5 })).toBe(false);
    expect(published({ ...finished, seq: 0 })).toBe(false);
    expect(published({ ...finished, ts: "2026-01-01T00:00:00Z" })).toBe(false);
    const { counts: _, ...noCounts } = finished;
    expect(published(noCounts)).toBe(false);
  });
});

describe("the report schema", () => {
  it("knows every error code the canonical stream has (a report of any run validates)", () => {
    const codes = (file: string) =>
      (
        JSON.parse(readFileSync(new URL(`../schemas/${file}`, import.meta.url), "utf8")) as {
          $defs: { error_code: { enum: string[] } };
        }
      ).$defs.error_code.enum;
    expect(codes("report-v1.schema.json")).toEqual(codes("canonical-v1.schema.json"));
  });
});

describe("the strict variant used by the tests", () => {
  it("forbids undeclared fields at the top and inside objects", () => {
    expect(strictProblems({ ...finished, extra: 1 })).not.toEqual([]);
    expect(strictProblems({ ...finished, counts: { ...finished.counts, extra: 1 } })).not.toEqual([]);
    expect(strictProblems({ ...finished, backend_exit: { code: 0, signal: null, extra: 1 } })).not.toEqual([]);
    expect(strictProblems({ ...finished, agent: { name: "a", instance_id: "i", extra: 1 } })).not.toEqual([]);
  });

  it("still accepts anything inside raw and tool args", () => {
    const tool = {
      ...finished,
      type: "tool.started",
      tool_call_id: "t",
      name: "bash",
      args: { anything: [1, { deep: true }] },
      raw: { any: "thing" },
    };
    for (const k of ["status", "exit_code", "backend_exit", "duration_ms", "result", "counts", "synthetic"])
      delete (tool as Record<string, unknown>)[k];
    expect(strictProblems(tool)).toEqual([]);
  });
});

describe("agentstream schema", () => {
  it("prints the schema as JSON", async () => {
    const run = await runCli(["schema"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(loadSchema());
  });
});
