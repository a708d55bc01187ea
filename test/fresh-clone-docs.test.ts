// What a new user reads first tells the truth about a fresh clone (issue: a fresh clone passes its own
// tests, and the docs tell the truth).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BACKENDS } from "../src/backends/registry.js";

const README = readFileSync(new URL("../README.md", import.meta.url), "utf8");

/** The text of one `## ` section, up to the next one. */
function section(heading: string): string {
  const start = README.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThan(-1);
  const next = README.indexOf("\n## ", start + heading.length + 2);
  return README.slice(start, next === -1 ? undefined : next);
}

describe("README Set-up", () => {
  it("says what the first npm test downloads and builds, how long it takes and the disk it needs", () => {
    const setup = section("## Set-up").replace(/\s+/g, " ");
    expect(setup).toMatch(/first `npm test`.*OpenTelemetry Collector/);
    expect(setup).toContain("450 MB");
    expect(setup).toMatch(/3 to 5 minutes/);
    expect(setup).toMatch(/1\.1 GB on disk/);
    expect(setup).toContain("`go env GOMODCACHE GOCACHE`");
    expect(setup).toContain("`.cache/go/`");
  });
});

const PACKAGE = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as Record<
  string,
  unknown
>;
const RUN_AGENT = readFileSync(new URL("../examples/ci/run-agent.sh", import.meta.url), "utf8");
const NAMES = ["evosci", "atomic", "pi", "gemini", "codex", "claude"];
const DISPLAY = ["EvoScientist", "Atomic", "pi", "Gemini CLI", "Codex", "Claude Code"];

describe("docs that drifted, checked against the six backends", () => {
  it("package.json: the description and keywords name all six; repository and homepage are set", () => {
    for (const name of DISPLAY) expect(PACKAGE.description).toContain(name);
    for (const name of ["evoscientist", ...NAMES.slice(1)]) expect(PACKAGE.keywords).toContain(name);
    expect(PACKAGE.repository).toMatchObject({ url: expect.stringMatching(/^git\+https:\/\/github\.com\//) });
    expect(PACKAGE.homepage).toMatch(/^https:\/\/github\.com\//);
  });

  it("examples/ci/run-agent.sh's header lists every backend for AGENT_BACKEND", () => {
    const line = RUN_AGENT.split("\n").find((l) => l.includes("AGENT_BACKEND "))!;
    for (const name of NAMES) expect(line).toContain(name);
  });

  it("the README's --workdir row names every backend that takes it, as the registry (and run --help) says", () => {
    const row = README.split("\n").find((l) => l.startsWith("| `--workdir DIR`"))!;
    const taking = BACKENDS.filter((b) => b.flags.workdir !== undefined);
    expect(taking.length).toBeGreaterThan(1);
    for (const backend of taking) expect(row, backend.name).toContain(backend.displayName);
    expect(row).not.toContain("EvoScientist only");
  });

  it("the per-backend launch list and the --linger row cover all six backends", () => {
    const run = section("## Commands");
    for (const name of DISPLAY) expect(run, name).toMatch(new RegExp(`^- ${name}: `, "m"));
    const linger = README.split("\n").find((l) => l.startsWith("| `--linger SECONDS`"))!;
    for (const terminal of ["`done`", "`agent_settled`", "`result`", "`turn.completed`"])
      expect(linger).toContain(terminal);
  });
});

describe("normalize --help says how auto-detection works, as the README does", () => {
  it("up to 1 MiB of content, not only the first event", async () => {
    const { runCli } = await import("./helpers/cli.js");
    const help = (await runCli(["normalize", "--help"])).stdout.replace(/\s+/g, " ");
    expect(help).toContain("auto tells it by content, reading at most 1 MiB before it guesses");
    expect(help).not.toContain("first event");
    expect(README).toContain("at most 1 MiB of them");
  });
});

describe("the README's library run() example runs as written", () => {
  it("its cwd is a folder every machine has (tmpdir()), not a made-up path", () => {
    const example = README.split("```ts\n").find((block) => block.includes("for await (const event of run({"))!;
    const cwd = /cwd: ([^,]+),/.exec(example)![1]!;
    expect(cwd).toBe("tmpdir()");
    expect(example).toContain('import { tmpdir } from "node:os";');
  });
});
