// agentstream is not on the npm registry: the README and the examples must
// install it before `npx agentstream`, and never run `npx --yes agentstream`,
// which would fetch and run whatever someone else may publish under that name.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TEXT = /\.(?:md|sh|ya?ml|ts|mjs|js|jq|txt)$/;

/** README.md and every text file below examples/ and docs/. */
function documents(): string[] {
  const below = (dir: string): string[] =>
    existsSync(join(ROOT, dir))
      ? readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile() && TEXT.test(entry.name))
          .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
      : [];
  return ["README.md", ...below("examples"), ...below("docs")];
}

/** The lines someone would run: a Markdown file's fenced blocks; elsewhere every line but comments. */
function commandLines(file: string, text: string): string[] {
  const lines = text.split("\n");
  if (!file.endsWith(".md")) return lines.filter((line) => !/^\s*(?:#|\/\/|\*)/.test(line));
  let fenced = false;
  return lines.filter((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return fenced;
  });
}

const FETCHES = /\bnpx\s+(?:\S+\s+)*?(?:--yes|-y)\b.*\bagentstream\b|npm_config_yes=true/;
const NPX_AGENTSTREAM = /\bnpx\s+agentstream\b/;
const INSTALLS = /\bnpm\s+(?:install|i)\b.*(?:\s-g\s+\.|--global|\.tgz)/;

/** What is wrong with these command lines. */
function problems(lines: string[]): string[] {
  const found: string[] = [];
  let installed = false;
  for (const line of lines) {
    if (INSTALLS.test(line)) installed = true;
    if (FETCHES.test(line)) found.push(`fetches from the registry: ${line.trim()}`);
    else if (NPX_AGENTSTREAM.test(line) && !installed)
      found.push(`npx agentstream with no install step before it: ${line.trim()}`);
  }
  return found;
}

describe("installing agentstream in the README and examples", () => {
  it("the check itself: flags npx --yes agentstream, and npx agentstream with no install before it", () => {
    expect(problems(["npx --yes agentstream run --backend evosci x"])).toHaveLength(1);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
    expect(problems(['read -r -a agentstream <<<"${AGENTSTREAM:-npx --yes agentstream}"'])).toHaveLength(1);
    expect(problems(["npx -y agentstream --version"])).toHaveLength(1);
    expect(problems(["npx agentstream --version"])).toHaveLength(1);
    expect(problems(["npm install /tmp/agentstream-0.1.0.tgz", "npx agentstream --version"])).toEqual([]);
    expect(problems(["npx tsc && node library.js"])).toEqual([]);
  });

  it.each(documents())("%s never fetches agentstream through npx", (file) => {
    expect(problems(commandLines(file, readFileSync(join(ROOT, file), "utf8")))).toEqual([]);
  });
});
