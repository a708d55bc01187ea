// The side by side made as a compare's rows come (Tally: no row kept) is the one made of all its rows in the
// plan's order, whatever order the cells end in; and its counts give the compare's exit status.
import { describe, expect, it } from "vitest";
import { compareExitCode } from "../../../src/compare/exit-status.js";
import { emptyPaths, type CompareRow } from "../../../src/compare/row.js";
import { sideBySide, Tally } from "../../../src/compare/side-by-side.js";

function row(id: number, model: string, over: Partial<CompareRow> = {}): CompareRow {
  return {
    v: 1,
    cell_id: `c${id}`,
    task: "t",
    backend: "claude",
    model,
    repeat: 1,
    status: "succeeded",
    exit_code: 0,
    error: null,
    setup: "none",
    check: "passed",
    check_exit_code: 0,
    passed: true,
    input_tokens: 100 * id,
    output_tokens: 10 * id,
    cost_usd: 0.001 * id,
    cost_source: "reported",
    duration_ms: 1000 * id,
    turns: 1,
    tool_calls: 0,
    files_changed: 1,
    lines_added: id,
    lines_removed: 1,
    resumed: false,
    paths: emptyPaths(`cells/c${id}`),
    ...over,
  };
}

describe("the side by side, tallied as rows come", () => {
  const planned = [
    row(0, "a"),
    row(1, "b", { status: "failed", exit_code: 75, passed: false, check: "skipped", cost_usd: null }),
    row(2, "a", { duration_ms: null, lines_added: null, lines_removed: null, files_changed: null }),
    row(3, "b", { status: "not_run", exit_code: null, passed: false, duration_ms: null, cost_usd: null }),
    row(4, "a", { check: "failed", passed: false, resumed: true }),
  ];

  it("is the side by side of the rows in the plan's order, whatever order they end in", () => {
    const tally = new Tally();
    for (const index of [3, 1, 4, 0, 2]) tally.add(planned[index]!, index);
    expect(tally.summary(["c9"])).toEqual(sideBySide(planned, ["c9"]));
    expect(tally.summary().agents.map((agent) => agent.agent)).toEqual(["claude:a", "claude:b"]);
    expect([tally.cells, tally.passed, tally.failing, tally.resumed]).toEqual([5, 2, 3, 1]);
  });

  it("gives the exit status: 0 all passed, 75 only retryable failures, 1 otherwise, 130 stopped", () => {
    const of = (...rows: CompareRow[]) => {
      const tally = new Tally();
      for (const r of rows) tally.add(r);
      return tally;
    };
    expect(compareExitCode(of(planned[0]!))).toBe(0);
    expect(compareExitCode(of(planned[0]!, planned[1]!))).toBe(75);
    expect(compareExitCode(of(planned[0]!, planned[1]!), undefined, 1)).toBe(1);
    expect(compareExitCode(of(planned[1]!, planned[4]!))).toBe(1);
    expect(compareExitCode(of(planned[0]!), "SIGINT")).toBe(130);
  });
});
