// The GitHub Actions workflows of examples/ci/ pass the real actionlint (built from its Go module at one
// release by test/helpers/build-actionlint.mjs), with shellcheck on the scripts of their `run:` steps where
// shellcheck is installed (CI installs Debian's: a script's quoting is where a copied workflow breaks);
// examples/ci's shell scripts pass shellcheck itself. Without Go the actionlint tests skip with a notice;
// AGENTSTREAM_REQUIRE_ACTIONLINT=1 (CI) makes a missing Go or shellcheck a failure.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { GoMissingError } from "../otel/build-collector.mjs";
import { ensureActionlint } from "../helpers/build-actionlint.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const EXAMPLES = join(ROOT, "examples", "ci");
const REQUIRED = process.env.AGENTSTREAM_REQUIRE_ACTIONLINT === "1";

/** The workflows: the files of examples/ci/ with a top-level `jobs:` (a Kubernetes manifest has none). */
const workflows = readdirSync(EXAMPLES)
  .filter((name) => /\.ya?ml$/.test(name) && /^jobs:/m.test(readFileSync(join(EXAMPLES, name), "utf8")))
  .sort();
const scripts = readdirSync(EXAMPLES)
  .filter((name) => name.endsWith(".sh"))
  .sort();

const hasShellcheck = spawnSync("shellcheck", ["--version"]).status === 0;

async function buildActionlint(): Promise<string | undefined> {
  try {
    return await ensureActionlint();
  } catch (error) {
    if (REQUIRED || !(error instanceof GoMissingError)) throw error;
    process.stderr.write(
      `\nactionlint: NOTICE: ${error.message}; examples/ci's workflows are NOT linted (AGENTSTREAM_REQUIRE_ACTIONLINT=1 makes this an error)\n\n`,
    );
    return undefined;
  }
}
const actionlint = await buildActionlint();
if (!hasShellcheck && !REQUIRED)
  process.stderr.write(
    "\nactionlint: NOTICE: shellcheck is not on PATH: the scripts of the workflows' run: steps and examples/ci/*.sh are NOT checked by it (apt-get install shellcheck; AGENTSTREAM_REQUIRE_ACTIONLINT=1 makes this an error)\n\n",
  );

interface Finding {
  filepath: string;
  line: number;
  column: number;
  kind: string;
  message: string;
}

/**
 * actionlint's findings on these files, one JSON object each. shellcheck is named where installed and
 * turned off where not (so a run says which it was); pyflakes always off: no example has a Python step,
 * and a machine that happens to have it would lint what CI does not.
 */
function lint(files: string[], cwd: string): { status: number | null; findings: Finding[]; stderr: string } {
  const args = ["-format", "{{json .}}", "-pyflakes=", hasShellcheck ? "-shellcheck=shellcheck" : "-shellcheck="];
  const run = spawnSync(actionlint!, [...args, ...files], { cwd, encoding: "utf8" });
  const findings = run.stdout.trim() === "" ? [] : (JSON.parse(run.stdout) as Finding[]);
  return { status: run.status, findings, stderr: run.stderr };
}

const said = (f: Finding) => `${f.filepath}:${f.line}:${f.column}: ${f.message} [${f.kind}]`;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("examples/ci/ under actionlint and shellcheck", () => {
  it("finds the workflows (and only them) and the shell scripts", () => {
    expect(workflows).toEqual(["compare-sharded.yml", "github-actions.yml", "live-latest.yml"]);
    expect(scripts).toEqual(["run-agent.sh"]);
  });

  it("CI has what the checks need: Go and shellcheck (AGENTSTREAM_REQUIRE_ACTIONLINT=1)", () => {
    if (!REQUIRED) return;
    expect(actionlint, "actionlint was built").toBeTruthy();
    expect(hasShellcheck, "shellcheck on PATH").toBe(true);
  });

  it.skipIf(!actionlint)("every workflow passes actionlint: no finding", () => {
    const result = lint(
      workflows.map((name) => join("examples", "ci", name)),
      ROOT,
    );
    expect(result.findings.map(said)).toEqual([]);
    expect(result.status, result.stderr).toBe(0);
  });

  it.skipIf(!actionlint)(
    "a workflow with a mistake fails: an undefined matrix property, and (with shellcheck) an unquoted variable",
    () => {
      const dir = mkdtempSync(join(tmpdir(), "agentstream-actionlint-"));
      dirs.push(dir);
      writeFileSync(
        join(dir, "broken.yml"),
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
        'name: broken\non: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "${{ matrix.shard }}"\n      - run: echo $HOME\n',
      );
      const result = lint(["broken.yml"], dir);
      expect(result.status).toBe(1);
      expect(result.findings.map((f) => [f.line, f.kind])).toEqual([
        [7, "expression"],
        ...(hasShellcheck ? [[8, "shellcheck"]] : []),
      ]);
    },
  );

  it.skipIf(!hasShellcheck)("every shell script passes shellcheck", () => {
    const run = spawnSync("shellcheck", scripts, { cwd: EXAMPLES, encoding: "utf8" });
    expect(run.stdout).toBe("");
    expect(run.status, run.stderr).toBe(0);
  });
});
