// A compare's cells and their ids: what shapes a cell names it, nothing of the machine does; shards cut the
// plan's order the same everywhere.
import { describe, expect, it } from "vitest";
import { shardCells } from "../../../src/compare/manifest.js";
import { cellsOf } from "../../../src/compare/plan.js";
import { splitWords } from "../../../src/compare/words.js";

const source = (over: Partial<Parameters<typeof cellsOf>[0]> = {}): Parameters<typeof cellsOf>[0] => ({
  agents: [{ backend: "claude", model: "sonnet" }, { backend: "codex" }],
  prompt: "Fix it",
  repeat: 2,
  shaping: { maxTurns: 10 },
  ...over,
});

describe("the cells of a compare", () => {
  it("tasks × agents × repeats, in that order, each id a hash of what shapes it", () => {
    const cells = cellsOf(source());
    expect(cells.map((c) => [c.task.id, c.agent.backend, c.repeat])).toEqual([
      ["prompt", "claude", 1],
      ["prompt", "claude", 2],
      ["prompt", "codex", 1],
      ["prompt", "codex", 2],
    ]);
    expect(new Set(cells.map((c) => c.id)).size).toBe(4);
    for (const cell of cells) expect(cell.id).toMatch(/^[0-9a-f]{16}$/);
  });

  it("the same on every machine: an agent's bin (a path of one machine) is not part of its id", () => {
    const here = cellsOf(source({ agents: [{ backend: "claude", model: "sonnet", bin: "/opt/a/claude" }] }));
    const there = cellsOf(source({ agents: [{ backend: "claude", model: "sonnet", bin: "/home/b/claude" }] }));
    expect(here.map((c) => c.id)).toEqual(there.map((c) => c.id));
  });

  it("a changed prompt, check, model, argument or run option names new cells", () => {
    const ids = (over: Partial<Parameters<typeof cellsOf>[0]>): string[] => cellsOf(source(over)).map((c) => c.id);
    const base = ids({});
    for (const changed of [
      ids({ prompt: "Fix it now" }),
      ids({ check: "npm test" }),
      ids({ shaping: { maxTurns: 11 } }),
      ids({ agents: [{ backend: "claude", model: "opus" }, { backend: "codex" }] }),
      ids({ agents: [{ backend: "claude", model: "sonnet", args: ["--x"] }, { backend: "codex" }] }),
    ])
      expect(changed[0]).not.toBe(base[0]);
  });

  it("refuses an agent listed twice, a prompt and a plan's tasks together, no agent", () => {
    expect(() => cellsOf(source({ agents: [{ backend: "codex" }, { backend: "codex" }] }))).toThrow(
      "the agent codex is listed twice for task prompt",
    );
    expect(() => cellsOf(source({ plan: { tasks: [{ id: "a", prompt: "x" }] } }))).toThrow(
      "a prompt and a plan's tasks: give one or the other",
    );
    expect(() => cellsOf(source({ agents: [] }))).toThrow("no agent to compare");
  });

  it("shard i of n takes every n-th cell from the i-th; the shards together are the plan, once", () => {
    const cells = Array.from({ length: 7 }, (_, index) => ({ index }));
    const shards = [1, 2, 3].map((index) => shardCells(cells, { index, total: 3 }).map((c) => c.index));
    expect(shards).toEqual([
      [0, 3, 6],
      [1, 4],
      [2, 5],
    ]);
  });
});

describe("a setup or check command's words, split as a shell would, run without one", () => {
  it.each([
    ["npm test", ["npm", "test"]],
    [`sh -c "make && make test"`, ["sh", "-c", "make && make test"]],
    [`grep -q 'a b' "c\\"d" e\\ f ''`, ["grep", "-q", "a b", 'c"d', "e f", ""]],
    ["echo $HOME *", ["echo", "$HOME", "*"]],
  ])("%s", (line, words) => {
    expect(splitWords(line, "--check")).toEqual(words);
  });

  it("refuses an unclosed quote and an empty line", () => {
    expect(() => splitWords(`sh -c "x`, "--check")).toThrow('--check: an unclosed " in');
    expect(() => splitWords("  ", "--check")).toThrow("--check: no command");
  });
});
