// What a new user reads first tells the truth about a fresh clone (issue: a fresh clone passes its own
// tests, and the docs tell the truth; issue 41: a README a newcomer reads in ten minutes).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, readDoc, section } from "../helpers/docs.js";

const README = readDoc("README.md");

describe("README", () => {
  it("is short enough to read in ten minutes: at most 400 lines", () => {
    expect(README.trimEnd().split("\n").length).toBeLessThanOrEqual(400);
  });

  it("Set-up: how long the first npm test takes, what it downloads and that it leaves only the collector behind", () => {
    const setup = section(README, "## Set-up").replace(/\s+/g, " ");
    expect(setup).toMatch(/The first `npm test` takes about 10 minutes on 2 cores/);
    expect(setup).toMatch(/first `npm test`.*OpenTelemetry Collector/);
    // Measured from empty Go caches: 122.8 MB of module zips came down (451 MB is the module folder unpacked).
    expect(setup).toContain("downloads about 123 MB of modules");
    expect(setup).not.toMatch(/450 MB|1\.1 GB/);
    expect(setup).toMatch(/3 to 5 minutes/);
    expect(setup).toMatch(/leaves only the collector binary behind/);
    expect(setup).toContain("`go env GOMODCACHE GOCACHE`");
    expect(setup).toContain("`.cache/go/`");
    expect(setup).toMatch(/removed once the collector is built/);
    // A test switch is no set-up step (docs/development.md shows it).
    expect(setup).not.toContain("AGENTSTREAM_TEST_FIXTURE");
  });

  it("links every page of the docs it moved out", () => {
    for (const page of [
      "commands",
      "reports",
      "canonical-stream",
      "library",
      "backends",
      "permissions",
      "limits-and-cost",
      "ci",
      "fleets",
      "performance",
      "development",
    ])
      expect(README).toContain(`](docs/${page}.md)`);
  });
});

describe("normalize --help says how auto-detection works, as docs/commands.md does", () => {
  it("up to 1 MiB of content, not only the first event", async () => {
    const { runCli } = await import("../helpers/cli.js");
    const help = (await runCli(["normalize", "--help"])).stdout.replace(/\s+/g, " ");
    expect(help).toContain("auto tells it by content, reading at most 1 MiB before it guesses");
    expect(help).not.toContain("first event");
    expect(readDoc("docs/commands.md")).toContain("at most 1 MiB of them");
  });
});

describe("the library run() example runs as written", () => {
  it.each(["README.md", "docs/library.md"])(
    "%s: its cwd is a folder every machine has (tmpdir()), not a made-up path",
    (file) => {
      const example = readDoc(file)
        .split("```ts\n")
        .find((block) => block.includes("for await (const event of run({"))!;
      const cwd = /cwd: ([^,]+),/.exec(example)![1]!;
      expect(cwd).toBe("tmpdir()");
      expect(example).toContain('import { tmpdir } from "node:os";');
    },
  );

  it("the README's example is docs/library.md's, and ten lines at most", () => {
    const block = (file: string) =>
      readDoc(file)
        .split("```ts\n")
        .find((b) => b.includes("for await (const event of run({"))!
        .split("\n```")[0]!;
    expect(block("README.md")).toBe(block("docs/library.md"));
    expect(block("README.md").split("\n").length).toBeLessThanOrEqual(10);
  });
});

describe("the README's quick start runs as written", () => {
  it("normalize an example, read its answer with jq, verify it, then report it", () => {
    // The blocks after "Normalize an example" and "Make a report", run by sh with `agentstream` the built bin.
    const quick = section(README, "## Quick start");
    const block = (after: string) => {
      const start = quick.indexOf("```sh\n", quick.indexOf(after));
      return quick.slice(start + 6, quick.indexOf("\n```", start));
    };
    const normalize = block("**Normalize an example.**");
    const report = block("**Make a report**").split("\n")[0]!;
    expect(normalize).toContain("agentstream verify");
    const dir = mkdtempSync(join(tmpdir(), "agentstream-quick-"));
    try {
      const bin = join(dir, "bin");
      mkdirSync(bin);
      writeFileSync(join(bin, "agentstream"), `#!/bin/sh\nexec node ${join(ROOT, "bin/agentstream.js")} "$@"\n`, {
        mode: 0o755,
      });
      symlinkSync(join(ROOT, "examples"), join(dir, "examples"));
      const shell = spawnSync("sh", ["-ec", `${normalize}\n${report.replace(/\s+#.*$/, "")}`], {
        cwd: dir,
        env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
        encoding: "utf8",
      });
      expect(shell.status, shell.stderr).toBe(0);
      expect(shell.stdout).toContain("Two files: a.txt and b.txt.\n");
      expect(shell.stdout).toContain("## ✅ agentstream: pi succeeded");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
