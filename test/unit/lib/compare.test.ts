// The library's compare(): the same rows as the CLI's, an async iterator, its refusals in the library's words.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compare, run, type CompareRow } from "../../../src/index.js";
import { COMPARE_AGENT, rowsOf, scratchRepo } from "../../helpers/compare.js";
import { Scratch } from "../../helpers/stand-in.js";

const scratch = new Scratch();
afterAll(() => scratch.remove());

describe("compare()", () => {
  it("yields a row per cell as it ends, the schema's rows, and returns the side by side", {
    timeout: 60_000,
  }, async () => {
    const repo = scratchRepo(scratch.path("repo"));
    const out = join(scratch.dir, "lib-out");
    const rows: CompareRow[] = [];
    const run = compare({
      agents: [
        { backend: "claude", model: "m1", bin: COMPARE_AGENT },
        { backend: "claude", model: "m2-fail", bin: COMPARE_AGENT },
      ],
      prompt: "write:f.txt",
      cwd: repo,
      out,
      check: "test -f f.txt",
      parallel: 2,
    });
    let next = await run.next();
    for (; !next.done; next = await run.next()) rows.push(next.value);
    // The rows are those the CLI prints: valid against schemas/compare-row-v1.schema.json.
    expect(
      rowsOf(rows.map((row) => JSON.stringify(row)).join("\n"))
        .map((row) => [row.model, row.status, row.passed])
        .sort(),
    ).toEqual([
      ["m1", "succeeded", true],
      ["m2-fail", "failed", false],
    ]);
    for (const row of rows)
      expect(JSON.parse(readFileSync(join(out, row.paths.dir, "record.json"), "utf8"))).toEqual(row);
    expect(next.value).toMatchObject({
      cells: 2,
      passed: 1,
      agents: [
        { agent: "claude:m1", cells: 1, passed: 1, check_passed: 1 },
        { agent: "claude:m2-fail", cells: 1, passed: 0 },
      ],
    });
  });

  it("refuses in the library's words, before any cell starts", async () => {
    const base = {
      agents: [{ backend: "claude" as const, bin: COMPARE_AGENT }],
      prompt: "x",
      out: scratch.path("refused"),
    };
    await expect(compare({ ...base, out: undefined as unknown as string }).next()).rejects.toThrow(
      "compare(): option out: is required",
    );
    await expect(compare({ ...base, maxTurns: 0 }).next()).rejects.toThrow(
      "compare(): option maxTurns: expected a whole number",
    );
    await expect(compare({ ...base, resume: "s" } as never).next()).rejects.toThrow(
      "compare(): option resume continues one session: it cannot apply to every cell of a compare",
    );
    await expect(compare({ ...base, agents: [{ backend: "nope" }] } as never).next()).rejects.toThrow(
      "compare(): option agents: expected an agent whose backend is one of",
    );
  });

  it("an OTLP endpoint the environment names, refused as the compare's span opens: in the library's words, as run()'s, no cell run", async () => {
    const repo = scratchRepo(scratch.path("otlp-repo"));
    const out = scratch.path("otlp-refused");
    const was = process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
    // No option check sees it: `otlp: {}` takes the endpoint from the environment.
    process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = "http://127.0.0.1:0/";
    try {
      const refused = "option otlp: OTLP endpoint http://127.0.0.1:0/: port 0 names no collector";
      const agents = [{ backend: "claude" as const, bin: COMPARE_AGENT }];
      const compared = compare({ agents, prompt: "write:f.txt", cwd: repo, out, otlp: {} });
      await expect(compared.next()).rejects.toThrow(`compare(): ${refused}`);
      // No cell ran: none of their files were written.
      expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
      const ran = run({ backend: "claude", bin: COMPARE_AGENT, prompt: "write:f.txt", cwd: repo, otlp: {} });
      await expect(ran.next()).rejects.toThrow(`run(): ${refused}`);
    } finally {
      if (was === undefined) delete process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
      else process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = was;
    }
  });
});
