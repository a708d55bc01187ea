// The prompt in every output (issue 53 item 10), as real processes against a real OpenTelemetry Collector:
// `--otlp-content` exports an ACP run's prompt (gen_ai.input.messages on the run's span) as it does any
// other run's, though an ACP agent's command line does not hold it; `--no-prompt-in-stream` keeps the
// prompt out of every output, stdout, --answer-file, --report, --atif and the OTLP trace with
// --otlp-content, for run (natively and over ACP) and normalize, and with it the earlier prompts a resumed
// ACP session tells back (user_message_chunk).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CanonicalEvent } from "../../../src/canonical/events.js";
import { parseJsonl, runCli } from "../../helpers/cli.js";
import { fakeAcpArgs } from "../../helpers/fake-acp.js";
import { EXAMPLES, expectTraceOf } from "../../helpers/otlp-spans.js";
import { collectorBinary, startCollector, type CollectedSpan, type Collector } from "../../helpers/otel-collector.js";
import { STAND_IN, transcript } from "../../helpers/stand-in.js";

const dir = mkdtempSync(join(tmpdir(), "agentstream-prompt-outputs-"));
let outputs = 0;

/** The run's trace, once its root span (ended last) has arrived. */
async function traceOf(collector: Collector, runId: string): Promise<CollectedSpan[]> {
  const isRoot = (s: CollectedSpan) => s.parentSpanId === undefined && s.attributes["agentstream.run_id"] === runId;
  const spans = await collector.waitForSpans((all) => all.some(isRoot));
  const traceId = spans.find(isRoot)!.traceId;
  return spans.filter((s) => s.traceId === traceId);
}

const shown = (spans: CollectedSpan[]): string =>
  JSON.stringify(spans, (_key, value: unknown) => (typeof value === "bigint" ? String(value) : value));

describe("the user's words an ACP agent tells back", () => {
  it("run over ACP resuming a session: the loaded session's earlier prompt (user_message_chunk) is left out with the prompt", async () => {
    const args = [...fakeAcpArgs("--resume", "s1"), "--", "hello again"];
    const env = { FAKE_ACP_LOAD: "1" };
    const kept = await runCli(args, { env });
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stdout).toContain("the earlier prompt");
    const left = await runCli([...args.slice(0, -2), "--no-prompt-in-stream", ...args.slice(-2)], { env });
    expect(left.code, left.stderr).toBe(0);
    expect(left.stdout).toContain("The earlier answer.");
    expect(left.stdout).not.toContain("the earlier prompt");
    expect(left.stdout).not.toContain("hello again");
  });
});

describe.skipIf(!collectorBinary())("the prompt in every output", () => {
  let collector: Collector;
  beforeAll(async () => {
    collector = await startCollector();
  });
  afterAll(async () => {
    await collector?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("run over ACP with --otlp-content: the prompt is the run span's gen_ai.input.messages", async () => {
    const prompt = "greetings from the prompt-7f3a";
    const result = await runCli([...fakeAcpArgs("--otlp", collector.endpoint, "--otlp-content"), "--", prompt]);
    expect(result.code, result.stderr).toBe(0);
    const events = parseJsonl(result.stdout) as unknown as CanonicalEvent[];
    expect(JSON.stringify(events[0])).not.toContain(prompt);
    const spans = await traceOf(collector, events[0]!.run_id);
    expectTraceOf(events, spans, { content: true });
    const root = spans.find((s) => s.parentSpanId === undefined)!;
    expect(JSON.parse(root.attributes["gen_ai.input.messages"] as string)).toEqual([
      { role: "user", parts: [{ type: "text", content: prompt }] },
    ]);
  });

  // The words of each case's prompt (run) or recorded user message (normalize: pi's example says "list the files").
  // `args`: the command and its options; a run's prompt (the words) follows them.
  const CASES: { name: string; words: string; args: string[] }[] = [
    {
      name: "run (EvoScientist)",
      words: "the-words-that-must-not-be-recorded",
      args: ["run", "--backend", "evosci", "--bin", STAND_IN],
    },
    { name: "run over ACP", words: "the-words-that-must-not-be-recorded", args: fakeAcpArgs() },
    {
      name: "normalize (pi's user message)",
      words: "list the files",
      args: ["normalize", "--from", "pi", "--backend-exit", "0", `${EXAMPLES}pi/tool.native.jsonl`],
    },
  ];

  it.each(CASES.map((c) => [c.name, c] as const))(
    "%s --no-prompt-in-stream: not on stdout, in the answer file, the report, the ATIF document or the trace",
    async (_, c) => {
      const at = join(dir, `out-${++outputs}`);
      const files = { answer: `${at}.answer.txt`, md: `${at}.report.md`, atif: `${at}.atif.json` };
      const isRun = c.args[0] === "run";
      const report = isRun ? ["--report", files.md] : [];
      const result = await runCli(
        [
          ...c.args,
          "--no-prompt-in-stream",
          "--answer-file",
          files.answer,
          ...report,
          "--atif",
          files.atif,
          "--otlp",
          collector.endpoint,
          "--otlp-content",
          ...(isRun ? ["--", c.words] : []),
        ],
        { env: { STANDIN_TRANSCRIPT: transcript("evosci-success.jsonl") } },
      );
      expect(result.code, result.stderr).toBe(0);
      const events = parseJsonl(result.stdout) as unknown as CanonicalEvent[];
      expect(events.filter((e) => e.type === "prompt.submitted")).toEqual([]);
      expect(result.stdout).not.toContain(c.words);
      expect(readFileSync(files.answer, "utf8")).not.toContain(c.words);
      if (report.length > 0) expect(readFileSync(files.md, "utf8")).not.toContain(c.words);
      expect(readFileSync(files.atif, "utf8")).not.toContain(c.words);
      const spans = await traceOf(collector, events[0]!.run_id);
      expectTraceOf(events, spans, { content: true });
      expect(shown(spans)).not.toContain(c.words);
    },
  );
});
