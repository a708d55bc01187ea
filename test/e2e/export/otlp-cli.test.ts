// The OTLP options as the CLI takes them: what is refused (exit 2, nothing on
// stdout) and what help says. The export itself: test/e2e/export/otlp-export.test.ts.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EXAMPLES } from "../../helpers/otlp-spans.js";
import { runCli } from "../../helpers/cli.js";
import { closedPort } from "../../helpers/otel-collector.js";

describe("OTLP options", () => {
  it("--otlp followed by the prompt is refused, not taken for an endpoint", async () => {
    const result = await runCli(["run", "--backend", "pi", "--bin", "/nonexistent", "--otlp", "Say hi"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /^agentstream: option '--otlp \[url\]' argument 'Say hi' is invalid\. expected an http\(s\) URL of an OTLP collector/,
    );
  });

  it("export otlp wants files and an http(s) endpoint", async () => {
    const none = await runCli(["export", "otlp"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("missing required argument 'files'");
    const ftp = await runCli(["export", "otlp", "--endpoint", "ftp://collector", `${EXAMPLES}pi/tool.canonical.jsonl`]);
    expect(ftp.code).toBe(2);
    expect(ftp.stderr).toContain("expected an http(s) URL");
  });

  it("export otlp with no collector listening: the first file is tried, the ones after it are not, and the total says how to name another collector", async () => {
    const down = await closedPort();
    const files = ["pi/tool", "atomic/tools", "codex/tool"].map((name) => `${EXAMPLES}${name}.canonical.jsonl`);
    const result = await runCli(["export", "otlp", "--endpoint", down, ...files], {
      env: { OTEL_EXPORTER_OTLP_TIMEOUT: "1000" },
    });
    expect(result.code).toBe(75);
    expect(result.stdout).toBe("");
    const lines = result.stderr.trim().split("\n");
    const refused = new RegExp(`^agentstream: ${files[0]}: not sent: (connect ECONNREFUSED [^ ]+) \\(4 of 4 spans\\)$`);
    expect(lines[0]).toMatch(refused);
    const why = refused.exec(lines[0]!)![1];
    expect(lines.slice(1, 3)).toEqual(
      files.slice(1).map((file) => `agentstream: ${file}: not sent: the collector failed earlier (${why})`),
    );
    expect(lines[3]).toBe(
      `agentstream: 0 of 3 runs exported to ${down}/v1/traces (0 spans) · 3 not sent (is a collector listening there? name yours with --endpoint URL or OTEL_EXPORTER_OTLP_ENDPOINT) · exit 75`,
    );
    expect(lines).toHaveLength(4);
    // docs/commands.md shows the same lines.
    const readme = readFileSync(new URL("../../../docs/commands.md", import.meta.url), "utf8");
    expect(readme).toContain(": not sent: the collector failed earlier (connect ECONNREFUSED");
    expect(readme).toContain(lines[3]!.replace(/^.* \(0 spans\) · 3 not sent/, " (0 spans) · 2 not sent"));
  });

  it("--otlp-content without --otlp says it does nothing, and the run is as without it", async () => {
    const plain = await runCli(["normalize", "--from", "pi", "--backend-exit", "0", `${EXAMPLES}pi/tool.native.jsonl`]);
    const result = await runCli([
      "normalize",
      "--from",
      "pi",
      "--backend-exit",
      "0",
      "--otlp-content",
      `${EXAMPLES}pi/tool.native.jsonl`,
    ]);
    expect(result.code).toBe(plain.code);
    expect(result.stderr).toBe(`agentstream: --otlp-content does nothing without --otlp\n${plain.stderr}`);
  });

  it("help names the options", async () => {
    for (const command of ["run", "normalize"]) {
      const help = await runCli([command, "--help"]);
      expect(help.stdout).toContain("--otlp [url]");
      expect(help.stdout).toContain("--otlp-content");
    }
    const help = await runCli(["export", "otlp", "--help"]);
    expect(help.stdout).toContain("--endpoint <url>");
    expect(help.stdout).toContain("75 the collector did not");
  });
});
