// The ACP live suite's captures (test/live/acp.live.ts with AGENTSTREAM_LIVE_CAPTURE=1): what each real agent
// wrote on stdout while `run --backend acp` drove it. golden.test.ts pins their canonical streams; here, each
// recording read back ends as the live run ended (its status, exit code and error), so a live run and its
// recording say the same, whatever the client answered (save where the stdout cannot show it: RECORDING_ALONE).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parseJsonl, runCli } from "../../helpers/cli.js";
import { translate, type TranslateOptions } from "../../helpers/translate.js";

const DIR = new URL("../../fixtures/golden/acp-live/", import.meta.url).pathname;

interface Entry {
  file: string;
  agent: string;
  scenario: string;
  live: { status: string; exit_code: number; error_code: string | null };
}

const manifest = JSON.parse(readFileSync(join(DIR, "manifest.json"), "utf8")) as Entry[];

/**
 * Where the agent's stdout cannot show how the live run ended: agentstream refused the rules to an agent that
 * never asks (pi-acp) once it answered initialize, and closed its stdin; read alone, that stdout stops before
 * any prompt's response, which is a crash.
 */
const RECORDING_ALONE: Record<string, Entry["live"]> = {
  refused: { status: "failed", exit_code: 76, error_code: "backend_crashed" },
};

/**
 * The same, for one agent's scenarios: codex-acp's only reject option ends the turn `cancelled`, and its stdout
 * is then the same whether the client rejected the call (live: the agent's own end, succeeded) or answered the
 * request cancelled; read alone, a turn cancelled while a call was asked and not known answered waits for the user.
 */
const CODEX_REJECTED: Entry["live"] = { status: "needs_input", exit_code: 3, error_code: null };
const AGENT_RECORDING_ALONE: Record<string, Entry["live"]> = {
  "@agentclientprotocol/codex-acp denied": CODEX_REJECTED,
  "@agentclientprotocol/codex-acp denied-by-pattern": CODEX_REJECTED,
};

describe("ACP live captures read back", () => {
  it("cover at least four agents", () => {
    expect(new Set(manifest.map((e) => e.agent)).size).toBeGreaterThanOrEqual(4);
  });

  for (const entry of manifest) {
    const expected =
      AGENT_RECORDING_ALONE[`${entry.agent.replace(/@[^@]*$/, "")} ${entry.scenario}`] ??
      RECORDING_ALONE[entry.scenario] ??
      entry.live;
    it(`${entry.file} (${entry.agent}, ${entry.scenario}) ends as the live run did: ${expected.status}, exit ${expected.exit_code}`, () => {
      const native = readFileSync(join(DIR, entry.file));
      const options = JSON.parse(
        readFileSync(join(DIR, entry.file.replace(/\.native\.jsonl$/, ".options.json")), "utf8"),
      ) as TranslateOptions;
      const finished = translate(native, options).events.at(-1) as unknown as Record<string, unknown> & {
        error?: { code: string };
      };
      expect(finished).toMatchObject({
        type: "run.finished",
        status: expected.status,
        exit_code: expected.exit_code,
      });
      expect(finished.error?.code ?? null).toBe(expected.error_code);
    });
  }
});

/**
 * Where a recording cannot read as the run did (docs/protocols/acp.md, "Where a recording reads otherwise than
 * the run"): the outcome rests on what only the client knows. Every other run of the hostile agent reads back
 * as its run, less the driver's own events.
 */
const CLIENT_ONLY = {
  asked: "what the client asked: a response to an id it never sent, a second request under an id still unanswered",
  answered: "what the client answered: a call it refused, run anyway",
} as const;

const RECORDED_RUNS: [scenario: string, flags: string[], exception?: keyof typeof CLIENT_ONLY][] = [
  ["plain", []],
  ["extra-member", []],
  ["extra-member", ["--approvals", "auto"]],
  ["overlong", ["--max-line-bytes", "4096"]],
  ["only-allow", ["--deny-tool", "shell"]],
  ["stray", [], "asked"],
  ["same-id", ["--allow-tool", "read"], "asked"],
  ["run-anyway", [], "answered"],
];

describe("a run of a hostile ACP agent and the recording of its stdout", () => {
  const HOSTILE = fileURLToPath(new URL("../../fixtures/acp/hostile-agent.mjs", import.meta.url));
  const TEE = fileURLToPath(new URL("../../live/support/acp-tee.sh", import.meta.url));
  const tmp = mkdtempSync(join(tmpdir(), "agentstream-acp-recorded-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  // What a run and a recording may differ in besides: when and how long (the clock), how it was started.
  const ENVELOPE = new Set(["v", "seq", "ts", "elapsed_ms", "run_id", "duration_ms"]);
  const DRIVER_ONLY = new Set(["run.started", "prompt.submitted", "run.finished", "input.answered"]);
  const shown = (events: Record<string, unknown>[]) =>
    events
      .filter((e) => !DRIVER_ONLY.has(e.type as string))
      .map((e) => JSON.stringify(Object.fromEntries(Object.entries(e).filter(([k]) => !ENVELOPE.has(k)))));
  const ending = (e: Record<string, unknown> | undefined) => ({ status: e?.status, pending: e?.pending });

  it.each(RECORDED_RUNS)("%s %j", async (scenario, flags, exception) => {
    const recording = join(tmp, `${scenario}-${flags.join("_")}.jsonl`);
    const run = await runCli(
      [
        "run",
        "--backend",
        "acp",
        "--bin",
        TEE,
        "--backend-arg",
        HOSTILE,
        "--backend-arg",
        scenario,
        ...flags,
        "--",
        "go",
      ],
      { env: { AGENTSTREAM_TEE_AGENT: process.execPath, AGENTSTREAM_TEE_TO: recording } },
    );
    const live = parseJsonl(run.stdout);
    const maxLineBytes = flags.includes("--max-line-bytes") ? 4096 : undefined;
    const finished = live.at(-1)!;
    const read = translate(readFileSync(recording), {
      from: "acp",
      ...(maxLineBytes ? { maxLineBytes } : {}),
      end: { backendExit: finished.backend_exit as { code: number; signal: null } },
    }).events as unknown as Record<string, unknown>[];
    if (exception === undefined) {
      expect(shown(read)).toEqual(shown(live));
      expect(ending(read.at(-1))).toEqual(ending(finished));
    } else {
      // The exception is real: the run and its recording differ, as docs/protocols/acp.md names it.
      expect([shown(read), ending(read.at(-1))], CLIENT_ONLY[exception]).not.toEqual([shown(live), ending(finished)]);
    }
  });
});
