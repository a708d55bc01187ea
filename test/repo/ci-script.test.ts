// .ci/run tests what a new user gets: a clone of HEAD in an empty temporary folder (nothing beside
// it), the README's own set-up commands run there as written, then the live suite.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CI = readFileSync(new URL("../../.ci/run", import.meta.url), "utf8");
// The line of .ci/run that runs each set-up command.
// biome-ignore lint/suspicious/noTemplateCurlyInString: bash's own ${...}, not a template
const RUN_SETUP_LINE = 'bash -euo pipefail -c "${setup[$i]}"';
const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

/** The commands of the README's Set-up code block, comments and blank lines left out. */
function readmeSetup(): string[] {
  const section = README.slice(README.indexOf("\n## Set-up\n"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  return block
    .split("\n")
    .map((line) => line.replace(/\s*#.*$/, "").trim())
    .filter((line) => line !== "");
}

describe(".ci/run", () => {
  it("clones HEAD into a fresh temporary folder and works there, never in the checkout", () => {
    expect(CI).toMatch(/WORK="\$\(mktemp -d\)"/);
    expect(CI).toMatch(/git clone [^\n]*"\$SOURCE" "\$CLONE"/);
    expect(CI).toMatch(/checkout --quiet --detach "\$COMMIT"/);
    const afterClone = CI.slice(CI.indexOf('cd "$CLONE"'));
    expect(afterClone).not.toContain("$SOURCE");
  });

  it("reads the README's set-up commands and runs each: its extraction gives the README's block", () => {
    const pipeline = /mapfile -t setup < <\((.*)\)\n/.exec(CI)![1]!;
    const extracted = spawnSync("bash", ["-c", pipeline], { cwd: ROOT, encoding: "utf8" });
    expect(extracted.status, extracted.stderr).toBe(0);
    expect(extracted.stdout.trimEnd().split("\n")).toEqual(readmeSetup());
    expect(readmeSetup()).toEqual(["npm install && npm run -s demo", "npm test"]);
    expect(CI).toContain(RUN_SETUP_LINE);
  });

  it("lints once the first set-up command installed the tools, before the tests; then the live suite; caches only through variables", () => {
    const runs = CI.indexOf(RUN_SETUP_LINE);
    expect(CI.indexOf("npm run test:live")).toBeGreaterThan(runs);
    expect(CI.slice(runs)).toMatch(/if \[ "\$i" -eq 0 \]; then\n[^\n]*\n\s*npm run lint\n/);
    for (const variable of ["AGENTSTREAM_OTELCOL_DIR", "AGENTSTREAM_ACTIONLINT_DIR", "AGENTSTREAM_LIVE_CACHE_DIR"])
      expect(CI).toMatch(new RegExp(`export ${variable}="\\$\\{${variable}:-\\$SOURCE/\\.cache/`));
  });

  it("requires actionlint over examples/ci, with shellcheck installed from Debian when missing", () => {
    expect(CI).toMatch(/^export AGENTSTREAM_REQUIRE_ACTIONLINT=1$/m);
    expect(CI).toMatch(/^for tool in [^;\n]*\bshellcheck\b[^;\n]*; do/m);
  });
});
