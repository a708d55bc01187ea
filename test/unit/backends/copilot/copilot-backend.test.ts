// Copilot CLI's definition, its usage file on `run` and `normalize`, and the outcomes of its traps (docs/protocols/copilot.md).
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { copilot } from "../../../../src/backends/copilot/index.js";
import { detectProtocolOwner } from "../../../../src/backends/registry.js";
import { parseJsonl, runCli } from "../../../helpers/cli.js";
import { translate } from "../../../helpers/translate.js";
import { argvOf } from "../../../helpers/backend-argv.js";

const LIVE = new URL("../../../fixtures/live/copilot-1.0.102/", import.meta.url);
const capture = (name: string): string => readFileSync(new URL(`${name}.jsonl`, LIVE), "utf8");
const usageOf = (name: string): string => readFileSync(new URL(`${name}.usage.json`, LIVE), "utf8");
const scratch = mkdtempSync(join(tmpdir(), "agentstream-copilot-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A stand-in `copilot`: writes the tool capture's usage file where its argv says, then replays the capture. */
function fakeCopilot(): string {
  const path = join(scratch, "copilot");
  const transcript = join(scratch, "tool.jsonl");
  const usage = join(scratch, "tool.usage.json");
  writeFileSync(transcript, capture("tool"));
  writeFileSync(usage, usageOf("tool"));
  writeFileSync(
    path,
    `#!${process.execPath}
const fs = require("node:fs");
const at = process.argv.indexOf("--usage-output-file");
fs.writeFileSync(${JSON.stringify(join(scratch, "argv.json"))}, JSON.stringify(process.argv.slice(2)));
if (at > 0) fs.copyFileSync(${JSON.stringify(usage)}, process.argv[at + 1]);
process.stdout.write(fs.readFileSync(${JSON.stringify(transcript)}));
`,
  );
  chmodSync(path, 0o755);
  return path;
}

describe("copilot definition", () => {
  it("runs headless, keeps a prompt starting with - whole, and names the usage file run gives it", () => {
    const argv = argvOf(copilot, {
      prompt: "-x starts with a dash",
      backendArgs: ["--deny-tool=shell(rm)"],
      promptTerminator: false,
      model: "gpt-5",
      workdir: "/srv/repo",
      usageFile: "/tmp/u.json",
    });
    expect(argv).toEqual([
      "--output-format",
      "json",
      "--allow-all-tools",
      "--no-ask-user",
      "--no-auto-update",
      "--model",
      "gpt-5",
      "-C",
      "/srv/repo",
      "--usage-output-file",
      "/tmp/u.json",
      "--deny-tool=shell(rm)",
      "--prompt=-x starts with a dash",
    ]);
  });

  it("is detected from its first lines", () => {
    for (const name of ["text", "tool", "error400"]) {
      const first = JSON.parse(capture(name).split("\n")[0]!);
      expect(detectProtocolOwner(first)).toBe("copilot");
    }
  });
});

describe("copilot usage", () => {
  it("run passes a fresh usage file, reads its token counts into run.finished, and removes it", async () => {
    const result = await runCli(["run", "--backend", "copilot", "--bin", fakeCopilot(), "list the files"], {
      cwd: scratch,
    });
    expect(result.code, result.stderr).toBe(0);
    const events = parseJsonl(result.stdout);
    const argv = JSON.parse(readFileSync(join(scratch, "argv.json"), "utf8")) as string[];
    const file = argv[argv.indexOf("--usage-output-file") + 1]!;
    expect(file.startsWith(tmpdir())).toBe(true);
    expect(existsSync(file)).toBe(false);
    expect(events.filter((e) => e.type === "usage")).toEqual([
      expect.objectContaining({ scope: "run", native: "usage-output-file", input_tokens: 80, output_tokens: 18 }),
    ]);
    const finished = events.at(-1)!;
    expect(finished).toMatchObject({ type: "run.finished", status: "succeeded", usage: { input_tokens: 80 } });
    expect((finished.usage as { complete?: boolean }).complete).toBeUndefined();
  });

  it("normalize --usage-file reads the recording's usage file; without it usage is unknown", async () => {
    const stream = join(scratch, "tool.jsonl");
    const usage = join(scratch, "tool.usage.json");
    writeFileSync(stream, capture("tool"));
    writeFileSync(usage, usageOf("tool"));
    const withFile = parseJsonl((await runCli(["normalize", "--usage-file", usage, stream])).stdout).at(-1)!;
    expect(withFile.usage).toEqual({
      input_tokens: 80,
      output_tokens: 18,
      cache_read_input_tokens: 0,
      cache_write_input_tokens: 0,
    });
    const without = parseJsonl((await runCli(["normalize", stream])).stdout).at(-1)!;
    expect(without).toMatchObject({ status: "succeeded" });
    expect(without.usage).toBeUndefined();
  });

  it("normalize refuses a usage file that is not there (exit 2) before writing anything", async () => {
    const result = await runCli(["normalize", "--usage-file", join(scratch, "missing.json"), "-"], { input: "" });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("--usage-file");
  });

  it("a file that is not a usage file adds nothing and leaves the usage unknown", () => {
    const { events } = translate(capture("text"), { from: "copilot", end: { usageFile: "{not json" } });
    expect(events.filter((e) => e.type === "usage")).toEqual([]);
    expect(events.at(-1)).not.toHaveProperty("usage");
  });
});

describe("copilot outcomes", () => {
  it("SIGINT's exit 0 without a result is cancelled (130), from the signal agentstream sent or from abort", () => {
    for (const interruption of [{ kind: "signal", signal: "SIGINT" } as const, undefined]) {
      const { outcome } = translate(capture("slow"), {
        from: "copilot",
        end: { backendExit: { code: 0, signal: null } },
        interruption,
      });
      expect(outcome).toMatchObject({ status: "cancelled", exitCode: 130, resultText: null });
    }
  });

  it("a result with exit code 0 after the abort (it comes, at times) does not make the stopped run a success", () => {
    const result = '{"type":"result","timestamp":"2026-12-04T03:39:06.000Z","sessionId":"s-1","exitCode":0}\n';
    for (const interruption of [{ kind: "signal", signal: "SIGINT" } as const, undefined]) {
      const { outcome } = translate(capture("slow") + result, {
        from: "copilot",
        end: { backendExit: { code: 0, signal: null } },
        interruption,
      });
      expect(outcome).toMatchObject({ status: "cancelled", exitCode: 130, resultText: null });
    }
  });

  it("retries are shown, and what the failed attempt said is not the answer", () => {
    const { events, outcome } = translate(capture("retry500"), { from: "copilot" });
    expect(events.filter((e) => e.type === "retry.started")).toEqual([
      expect.objectContaining({ attempt: 1, error: expect.stringContaining("HTTP 500") }),
    ]);
    expect(events.filter((e) => e.type === "retry.completed")).toEqual([
      expect.objectContaining({ success: true, attempt: 1 }),
    ]);
    expect(outcome).toMatchObject({ status: "succeeded", resultText: "Recovered after one server error." });
  });

  it("background task updates and other noise are dropped, not passed through", () => {
    const { events } = translate(capture("tool"), { from: "copilot" });
    const passed = new Set(events.filter((e) => e.type === "backend.event").map((e) => e.native_type));
    for (const noisy of ["session.background_tasks_changed", "tool.execution_partial_result", "user.message"])
      expect(passed.has(noisy)).toBe(false);
  });
});
