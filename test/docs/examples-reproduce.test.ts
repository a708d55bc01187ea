// docs/development.md (The examples) shows the command that reproduces an example's
// canonical stream byte for byte; this runs that command, as written there,
// on every example, with each example's own flags (its .options.json and the
// files beside it).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const EXAMPLES = join(ROOT, "examples");
const PAGE = readFileSync(join(ROOT, "docs/development.md"), "utf8");

/** The documented command: the one shell line of the page that sets AGENTSTREAM_TEST_FIXTURE=1. */
const DOCUMENTED = (() => {
  const lines = PAGE.split("\n").filter((line) => line.startsWith("AGENTSTREAM_TEST_FIXTURE=1 "));
  expect(lines).toHaveLength(1);
  return lines[0]!;
})();
const SHAPE =
  /^(AGENTSTREAM_TEST_FIXTURE=1 node bin\/agentstream\.js normalize )--from claude --backend-exit 0 (- < )examples\/claude\/tool\.native\.jsonl( \| cmp - )examples\/claude\/tool\.canonical\.jsonl$/;

interface ExampleOptions {
  from?: string;
  end: { backendExit: { code: number | null; signal: string | null } };
}

/** The documented command for one example: its folder and name, and the flags the README says it takes. */
function commandFor(folder: string, name: string): string {
  const [, normalize, input, compare] = SHAPE.exec(DOCUMENTED)!;
  const base = `examples/${folder}/${name}`;
  const options = JSON.parse(readFileSync(join(ROOT, `${base}.options.json`), "utf8")) as ExampleOptions;
  const flags = [
    ...(options.from ? ["--from", options.from] : []),
    "--backend-exit",
    String(options.end.backendExit.code ?? options.end.backendExit.signal),
    ...(existsSync(join(ROOT, `${base}.stderr.txt`)) ? ["--stderr", `${base}.stderr.txt`] : []),
    ...(existsSync(join(ROOT, `examples/${folder}/${name}.usage.json`))
      ? ["--usage-file", `examples/${folder}/${name}.usage.json`]
      : []),
  ];
  return `${normalize}${flags.join(" ")} ${input}${base}.native.jsonl${compare}${base}.canonical.jsonl`;
}

const examples = readdirSync(EXAMPLES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((dir) =>
    readdirSync(join(EXAMPLES, dir.name))
      .filter((file) => file.endsWith(".native.jsonl"))
      .map((file) => ({ folder: dir.name, name: file.slice(0, -".native.jsonl".length) })),
  );

describe("the README's command reproduces each example's canonical stream", () => {
  it("is documented in the shape this test runs", () => {
    expect(DOCUMENTED).toMatch(SHAPE);
    expect(examples.length).toBeGreaterThanOrEqual(9);
  });

  for (const { folder, name } of examples) {
    it(`${folder}/${name}`, () => {
      const command = commandFor(folder, name);
      if (folder === "claude") expect(command).toBe(DOCUMENTED);
      const ran = spawnSync("bash", ["-c", command], { cwd: ROOT, encoding: "utf8", env: { ...process.env } });
      // On a difference, show it: the stream before the pipe against the file.
      if (ran.status !== 0) {
        const written = spawnSync("bash", ["-c", command.slice(0, command.indexOf(" | cmp"))], {
          cwd: ROOT,
          encoding: "utf8",
        });
        expect(written.stdout).toBe(readFileSync(join(ROOT, `examples/${folder}/${name}.canonical.jsonl`), "utf8"));
      }
      expect(ran.stdout).toBe("");
      expect(ran.status, command).toBe(0);
    });
  }
});
