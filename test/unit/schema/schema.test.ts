import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { LIST_COPIES, schemasOutOfStep, schemaWithLists } from "../../../src/app/contract-lists.js";
import { loadSchema } from "../../../src/schema/schema-files.js";
import { runCli } from "../../helpers/cli.js";
import { strictProblems } from "../../helpers/strict-schema.js";

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

describe("the contract's lists in the schemas", () => {
  it("every enum copy of a list is the list, byte for byte (the build checks it too)", () => {
    expect(schemasOutOfStep()).toEqual([]);
  });

  it("a copy that drifts from its list is found, in either schema", () => {
    for (const [schema, code] of [
      ["canonical-v1", "usage"],
      ["report-v1", "output_schema"],
    ] as const) {
      const text = readFileSync(new URL(`../../../schemas/${schema}.schema.json`, import.meta.url), "utf8");
      const drifted = text.replace(`"${code}",`, "");
      expect(drifted).not.toBe(text);
      expect(schemaWithLists(schema, drifted)).toBe(text);
    }
  });

  it("lists every place the schemas hold an error code, a status, a backend name", () => {
    const places = LIST_COPIES.map((c) => `${c.schema}:${c.path.join("/")}`);
    for (const schema of ["canonical-v1", "report-v1"] as const) {
      const enums: string[] = [];
      const walk = (node: unknown, path: string[]): void => {
        if (typeof node !== "object" || node === null) return;
        const values = (node as { enum?: unknown[] }).enum;
        if (Array.isArray(values) && values.length > 2) enums.push(`${schema}:${path.join("/")}`);
        for (const [key, child] of Object.entries(node)) walk(child, [...path, key]);
      };
      walk(JSON.parse(readFileSync(new URL(`../../../schemas/${schema}.schema.json`, import.meta.url), "utf8")), []);
      // An enum of a few words that only one field holds may stay written in the schema alone.
      const listed = new Set([
        "error_code",
        "status",
        "backend",
        "exit_code",
        "cost_source",
        "tool_status",
        "detection",
        "by",
      ]);
      const copied = enums.filter((e) => listed.has(e.split("/").at(-1)!) || e.endsWith("compaction_reason"));
      expect(copied.length).toBeGreaterThanOrEqual(4);
      for (const place of copied) expect(places, place).toContain(place);
    }
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
