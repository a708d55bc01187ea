// agentstream normalize --output jsonl|json|text, as a real process: the same stdout shapes and exit codes as run.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseJsonl, runCli } from "../../helpers/cli.js";

const RESEARCH = fileURLToPath(new URL("../../../examples/evosci/research.native.jsonl", import.meta.url));
const OVERLOADED = fileURLToPath(new URL("../../../examples/evosci/overloaded.native.jsonl", import.meta.url));

/** run.finished without what differs from one process to the next. */
function comparable(finished: Record<string, unknown>): Record<string, unknown> {
  const { ts: _ts, run_id: _runId, elapsed_ms: _elapsed, duration_ms: _duration, ...rest } = finished;
  return rest;
}

describe("agentstream normalize --output", () => {
  it("json: only the run.finished object, as one line, the same as the stream's last line", async () => {
    const stream = await runCli(["normalize", "--backend-exit", "0", RESEARCH]);
    const json = await runCli(["normalize", "--backend-exit", "0", "--output", "json", RESEARCH]);
    expect(json.code).toBe(0);
    expect(json.stdout.endsWith("\n")).toBe(true);
    expect(json.stdout.trimEnd().split("\n")).toHaveLength(1);
    expect(comparable(JSON.parse(json.stdout) as Record<string, unknown>)).toEqual(
      comparable(parseJsonl(stream.stdout).at(-1)!),
    );
  });

  it("text: only the final answer, ending with a newline", async () => {
    const run = await runCli(["normalize", "--backend-exit", "0", "--output", "text", RESEARCH]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Baselines: CIFAR-100 ~76%, Tiny-ImageNet ~55% top-1.\n");
  });

  it("keeps the outcome's exit code in every format; text of a run with no answer is empty", async () => {
    for (const output of ["jsonl", "json", "text"]) {
      const run = await runCli(["normalize", "--output", output, OVERLOADED]);
      expect(run.code, output).toBe(75);
    }
    const json = await runCli(["normalize", "--output", "json", OVERLOADED]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      type: "run.finished",
      status: "failed",
      exit_code: 75,
      error: { code: "overloaded" },
    });
    const text = await runCli(["normalize", "--output", "text", OVERLOADED]);
    expect(text.stdout).toBe("");
  });

  it("redacts the environment's secret values in the answer", async () => {
    const input =
      '{"type": "text", "content": "the key is s3cr3t-value-123"}\n{"type": "done", "response": "the key is s3cr3t-value-123"}\n';
    const run = await runCli(["normalize", "--from", "evosci", "--output", "text"], {
      input,
      env: { MY_API_KEY: "s3cr3t-value-123" },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("the key is [redacted]\n");
  });

  it("refuses an unknown format with exit 2 and writes nothing on stdout", async () => {
    const run = await runCli(["normalize", "--output", "yaml", RESEARCH]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/--output.*yaml.*jsonl, json, text/s);
  });
});
