import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SAMPLES } from "./helpers/cli.js";
import { strictProblems } from "./helpers/strict-schema.js";
import { translate } from "./helpers/translate.js";

describe("smoke", () => {
  it("translates an atomic sample into strictly valid events", () => {
    const { events, outcome } = translate(readFileSync(`${SAMPLES}/atomic/tool.jsonl`), { end: { backendExit: { code: 0, signal: null } } });
    for (const e of events) expect(strictProblems(e), JSON.stringify(e)).toEqual([]);
    expect(outcome.status).toBe("succeeded");
  });
});
