// The OTLP options as the CLI takes them: what is refused (exit 2, nothing on
// stdout) and what help says. The export itself: test/otlp-export.test.ts.
import { describe, expect, it } from "vitest";
import { EXAMPLES } from "./helpers/otlp-spans.js";
import { runCli } from "./helpers/cli.js";

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
