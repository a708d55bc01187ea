// The jq recipes in examples/jq/ and in docs/canonical-stream.md run over the canonical
// examples and must print what examples/jq/<recipe>.expected.txt holds.
// UPDATE_GOLDEN=1 rewrites the expected files; review the diff before keeping it.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const JQ_DIR = join(ROOT, "examples/jq");
const INPUTS = [
  "examples/evosci/research",
  "examples/evosci/overloaded",
  "examples/atomic/tools",
  "examples/pi/tool",
  "examples/codex/tool",
  "examples/gemini/tool",
  "examples/claude/tool",
  "examples/opencode/tool",
  "examples/copilot/tool",
].map((name) => join(ROOT, `${name}.canonical.jsonl`));
const STREAMS = INPUTS.map((file) => readFileSync(file, "utf8")).join("");
const UPDATE = process.env.UPDATE_GOLDEN === "1";

const recipes = readdirSync(JQ_DIR)
  .filter((f) => f.endsWith(".jq"))
  .map((f) => f.slice(0, -3));

/** The jq flags a recipe file names in its usage comment, e.g. "# jq -rn -f tool-timeline.jq". */
function flagsOf(recipe: string): string[] {
  const usage = /^# jq (.*) -f /m.exec(readFileSync(join(JQ_DIR, `${recipe}.jq`), "utf8"));
  if (!usage) throw new Error(`${recipe}.jq has no "# jq FLAGS -f" usage line`);
  return usage[1]!.split(" ");
}

function jq(args: string[]): string {
  return execFileSync("jq", args, { input: STREAMS, encoding: "utf8" });
}

function expectedOf(recipe: string): string {
  return readFileSync(join(JQ_DIR, `${recipe}.expected.txt`), "utf8");
}

describe("jq recipes", () => {
  for (const recipe of recipes) {
    it(`examples/jq/${recipe}.jq`, () => {
      const out = jq([...flagsOf(recipe), "-f", join(JQ_DIR, `${recipe}.jq`)]);
      if (UPDATE) writeFileSync(join(JQ_DIR, `${recipe}.expected.txt`), out);
      expect(out).not.toBe("");
      expect(out).toBe(expectedOf(recipe));
    });
  }

  // In docs/canonical-stream.md, each recipe is a "# ... (examples/jq/NAME.jq)" comment followed by its one-line jq command.
  const page = readFileSync(join(ROOT, "docs/canonical-stream.md"), "utf8");
  const pairs = [...page.matchAll(/^# .*\(examples\/jq\/([a-z-]+)\.jq\)\n(jq .*)$/gm)].map((m) => ({
    recipe: m[1]!,
    command: m[2]!,
  }));

  it("docs/canonical-stream.md shows every recipe", () => {
    expect(pairs.map((p) => p.recipe).sort()).toEqual([...recipes].sort());
  });

  it("each jq filter of the README's quick start is one of those recipes, verbatim", () => {
    const filter = (command: string) => /^jq (?:-\w+ )*'([^']*)'/.exec(command)?.[1];
    const known = pairs.map((p) => filter(p.command));
    const quick = readFileSync(join(ROOT, "README.md"), "utf8")
      .split("\n")
      .filter((line) => line.startsWith("jq "));
    expect(quick.length).toBeGreaterThan(0);
    for (const line of quick) expect(known, line).toContain(filter(line));
  });

  for (const { recipe, command } of pairs) {
    it(`docs/canonical-stream.md: ${recipe}`, () => {
      // The page's commands read the stream on stdin; run them as a shell would.
      const out = execFileSync("sh", ["-c", command], { input: STREAMS, encoding: "utf8" });
      expect(out).toBe(expectedOf(recipe));
    });
  }
});
