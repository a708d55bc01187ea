// Whatever lands in a backend's argv or environment is checked against the system's limits before
// anything starts: the prompt with --output-schema's schema added to it, Claude Code's --json-schema
// value, a rule list in one argument or one variable, a --backend-arg. Too long: exit 2 naming it,
// nothing on stdout (not even run.started), nothing started; never exit 69 "E2BIG" (issue 45).
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { argvOverflow, MAX_ARG_STRLEN } from "../../../src/run/argv-limit.js";
import { runCli } from "../../helpers/cli.js";
import { Scratch, STAND_IN } from "../../helpers/stand-in.js";

const scratch = new Scratch();
afterAll(() => scratch.remove());
const linux = process.platform === "linux";

// 240 kB: no backend takes it as one argument (Linux: 128 KiB each).
const BIG_SCHEMA = scratch.path("big.schema.json");
writeFileSync(BIG_SCHEMA, JSON.stringify({ type: "object", description: "d".repeat(240_000) }));

async function expectRefusedBeforeStart(args: string[], said: RegExp): Promise<void> {
  const record = scratch.recordPath();
  const result = await runCli(args, { env: { STANDIN_RECORD: record } });
  expect(result.stderr).toMatch(said);
  expect(result.stderr).not.toMatch(/E2BIG|backend_not_found|could not be started/);
  expect(result.code, result.stderr).toBe(2);
  expect(result.stdout).toBe("");
  expect(existsSync(record)).toBe(false);
}

describe.runIf(linux).concurrent("run: an argv the system would refuse is refused before anything starts", () => {
  it.each([
    ["pi", /the prompt with --output-schema's schema added to it is too long for the command line: 240\d{3} bytes/],
    ["gemini", /the prompt with --output-schema's schema added to it is too long .*\n.*--transport acp/],
    ["copilot", /the prompt with --output-schema's schema added to it is too long .*\n.*--transport acp/],
    ["atomic", /the prompt with --output-schema's schema added to it is too long/],
    [
      "claude",
      /--output-schema's schema is too long for the command line: 2400\d\d bytes, where Claude Code gets it as one argument/,
    ],
  ])("%s with a 240 kB --output-schema: exit 2 naming it", async (backend, said) => {
    await expectRefusedBeforeStart(
      ["run", "--backend", backend, "--bin", STAND_IN, "--output-schema", BIG_SCHEMA, "hi"],
      said,
    );
  });

  const rules = Array.from({ length: 12_000 }, (_, i) => ["--deny-tool", `mcp_tool_${i}`]).flat();
  it("Atomic's --deny-tool rules, joined into one argument: exit 2 naming them", async () => {
    await expectRefusedBeforeStart(
      ["run", "--backend", "atomic", "--bin", STAND_IN, ...rules, "hi"],
      /the list of --allow-tool and --deny-tool rules is too long for the command line/,
    );
  });

  it("OpenCode's rules, in one variable (OPENCODE_PERMISSION): exit 2 naming them", async () => {
    await expectRefusedBeforeStart(
      ["run", "--backend", "opencode", "--bin", STAND_IN, ...rules, "hi"],
      /the list of --allow-tool and --deny-tool rules \(OpenCode gets it in OPENCODE_PERMISSION\) is too long/,
    );
  });
});

describe.runIf(linux)("argvOverflow: what it lets through, the system starts", () => {
  const env = { PATH: process.env.PATH };
  const args = (bytes: number): string[] => {
    const list: string[] = [];
    for (let left = bytes; left > 0; left -= 100_000) list.push("a".repeat(Math.min(left, 100_000)));
    return list;
  };
  const e2big = (list: string[]): boolean =>
    spawnSync("/bin/true", list, { env }).error?.message.includes("E2BIG") ?? false;

  it("one argument: the longest the system takes is the longest let through, one byte more is refused by both", () => {
    for (const bytes of [MAX_ARG_STRLEN - 1, MAX_ARG_STRLEN]) {
      const list = ["a".repeat(bytes)];
      expect(argvOverflow("/bin/true", list, env) !== undefined, `${bytes} bytes`).toBe(e2big(list));
    }
  });

  it("all together: every size it lets through starts, and it refuses what the system refuses", () => {
    // Sizes across the system's limit (a quarter of the stack limit, 2 MiB at the usual 8 MiB).
    for (let bytes = 1_600_000; bytes <= 6_400_000; bytes += 97_000) {
      const list = args(bytes);
      const refused = argvOverflow("/bin/true", list, env) !== undefined;
      if (!refused) expect(e2big(list), `${bytes} bytes let through`).toBe(false);
      if (e2big(list)) expect(refused, `${bytes} bytes`).toBe(true);
    }
  });
});
