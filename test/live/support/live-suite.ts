import { beforeAll, describe, expect, inject, it } from "vitest";
import { catalogOf, driftOf } from "../../helpers/live/drift.js";
import { recordScenario } from "./scenario-record.js";
import { LIVE_TARGETS } from "../../helpers/live/live-targets.mjs";
import { ANSWERS } from "./scenarios.mjs";
import {
  eventsOfType,
  runScenario,
  verifyStream,
  type InterruptWhen,
  type LiveRun,
  type LiveTarget,
} from "./live-run.js";

/** Where real releases differ in what they show, as observed against the fake server. */
export interface TargetFacts {
  /** Whether `delta.reasoning_content` reaches the stream as reasoning events. */
  showsReasoning: boolean;
  /** The native event that announces a retry of a failed model call; absent when the backend shows none on stdout. */
  retryNative?: string;
  /** Whether a single HTTP 500 is retried visibly (false: the provider SDK retries it silently). */
  showsRetryOfOne500: boolean;
  /** Whether the run's usage totals cover every model call (EvoSci reports the main agent only). */
  usageComplete: boolean;
  /** Whether a tool's output reaches the stream (default true). */
  showsToolOutput?: boolean;
  /** The tool_call_id the backend gives the model's call (default: the model's own id). */
  toolCallId?: (call: { id: string; name: string }) => string;
  /** Whether text reaches the stream as message.delta events before its message (default true; Codex writes messages whole). */
  streamsDeltas?: boolean;
  /** When the SIGINT scenario interrupts the run (default: at the first message.delta). */
  interruptWhen?: InterruptWhen;
  /** The name and args the backend shows for the model's list-files call (default: the call's own). */
  shownToolCall?: (call: { id: string; name: string; arguments: unknown }) => { name: unknown; args: unknown };
  /** The tool name the backend shows for the model's call (default: the name the scenario called; Claude Code: Bash for bash). */
  toolName?: (call: { id: string; name: string }) => string;
  /**
   * Whether --max-cost-usd can stop it mid-run against the fake model (default true). Copilot CLI gives
   * its usage only in a file read after it exited: run refuses the limit before start, no binary involved
   * (test/e2e/run/limits.test.ts).
   */
  costLimitStops?: boolean;
  /** How many requests one HTTP 400 gets (default 1; Claude Code re-sends it with other request shapes). */
  requestsOn400?: number;
}

declare module "vitest" {
  export interface ProvidedContext {
    liveTargets: LiveTarget[];
  }
}

/** The scenarios every backend goes through, with the contract's outcome for each. */
export function describeLiveTarget(id: string, facts: TargetFacts): void {
  const targets = targetsFor(id);
  if (targets.length === 0) describe.skip(`${id} live`, () => it("is not selected", () => {}));
  for (const live of targets) describeScenarios(live, facts);
}

/** The pin `id` and, with --latest, the newest release found beside it: the same scenarios run on each. */
export function targetsFor(id: string): LiveTarget[] {
  // A pin that moved would otherwise leave its describes silently unselected.
  if (!LIVE_TARGETS.some((t) => t.id === id))
    throw new Error(`${id} is no live target (test/helpers/live/live-targets.mjs)`);
  return inject("liveTargets").filter((t) => t.id === id || t.latestOf === id);
}

function describeScenarios(live: LiveTarget, facts: TargetFacts): void {
  describe(`${live.id} live`, () => {
    beforeAll(() => {
      console.log(
        `live: ${live.backend} ${live.version} (${live.package}, says "${live.reported}", ${live.runtime}) at ${live.executable}`,
      );
    });

    it("streams a plain text answer", async () => {
      const run = await checkedRun(live, "text");
      expectSucceeded(run, ANSWERS.text);
      if (facts.streamsDeltas === false) expect(eventsOfType(run, "message.delta")).toEqual([]);
      else expect(eventsOfType(run, "message.delta").length).toBeGreaterThan(1);
      expectUsageMatchesServer(run, facts);
    });

    it("runs a tool call round trip: list the files, then answer", async () => {
      const run = await checkedRun(live, "tool");
      expectSucceeded(run, ANSWERS.toolFinal);
      const call = run.server.requestsFor("tool")[0]!.reply.toolCalls[0]!;
      const started = eventsOfType(run, "tool.started");
      const completed = eventsOfType(run, "tool.completed");
      const id = facts.toolCallId?.(call) ?? call.id;
      const { name, args } = facts.shownToolCall?.(call) ?? {
        name: facts.toolName?.(call) ?? call.name,
        args: call.arguments,
      };
      expect(started).toEqual([expect.objectContaining({ tool_call_id: id, name, args })]);
      expect(completed).toEqual([expect.objectContaining({ tool_call_id: id, name, status: "succeeded" })]);
      if (facts.showsToolOutput !== false) {
        expect(completed[0]!.output).toContain("data.csv");
        expect(completed[0]!.output).toContain("notes.txt");
      }
      expect(run.finished.counts).toMatchObject({ tool_calls: 1, tool_failures: 0 });
      expectUsageMatchesServer(run, facts);
    });

    it(`answers after reasoning${facts.showsReasoning ? ", and shows the reasoning first" : " (the reasoning is not passed on)"}`, async () => {
      const run = await checkedRun(live, "thinking");
      expectSucceeded(run, ANSWERS.thinkingFinal);
      const reasoning = eventsOfType(run, "reasoning.completed");
      expect(reasoning.map((e) => e.text)).toEqual(facts.showsReasoning ? [ANSWERS.thinking] : []);
      if (facts.showsReasoning) {
        const answer = eventsOfType(run, "message.completed").at(-1)!;
        expect(reasoning[0]!.seq).toBeLessThan(answer.seq);
      }
    });

    it("fails without retry on HTTP 400", async () => {
      const run = await checkedRun(live, "error400");
      expectFailed(run, { code: "provider", retryable: false, exitCode: 1 });
      // Codex also writes a non-fatal error item in every run with the fake model (its metadata is unknown to Codex).
      expect(eventsOfType(run, "error").filter((e) => e.native !== "item.completed")).toEqual([
        expect.objectContaining({ code: "provider", http_status: 400, retryable: false }),
      ]);
      expect(run.server.requestsFor("error400")).toHaveLength(facts.requestsOn400 ?? 1);
    });

    it("recovers when HTTP 500 comes once", async () => {
      const run = await checkedRun(live, "retry500");
      expectSucceeded(run, ANSWERS.retry500);
      expect(run.server.requestsFor("retry500")).toHaveLength(2);
      const retries = eventsOfType(run, "retry.started");
      expect(retries.length).toBe(facts.showsRetryOfOne500 ? 1 : 0);
      expect(run.finished.counts.retries).toBe(retries.length);
      expectUsageMatchesServer(run, facts);
    });

    it("fails as retryable when HTTP 503 comes every time", async () => {
      const run = await checkedRun(live, "error503");
      expectFailed(run, { code: "overloaded", retryable: true, exitCode: 75 });
      expect(run.server.requestsFor("error503").length).toBeGreaterThan(1);
      // The backend's own retries are shown, never dropped; one that writes none on stdout shows none.
      if (facts.retryNative) expect(run.events.some((e) => e.native === facts.retryNative)).toBe(true);
      else expect(eventsOfType(run, "retry.started")).toEqual([]);
    });

    it("--max-turns 2 stops a model that keeps calling tools: failed, budget, exit 1", async () => {
      const run = await checkedRun(live, "loop", { args: ["--max-turns", "2"] });
      expectFailed(run, { code: "budget", retryable: false, exitCode: 1 });
      expect(run.finished.error.message).toBe("max-turns 2 reached: turn 3 began");
      expect(eventsOfType(run, "turn.started").length).toBeGreaterThanOrEqual(3);
    });

    it.skipIf(facts.costLimitStops === false)(
      "--max-cost-usd stops it too (fail closed where the fake model has no price)",
      async () => {
        const run = await checkedRun(live, "loop", { args: ["--max-cost-usd", "0.000001"] });
        expectFailed(run, { code: "budget", retryable: false, exitCode: 1 });
        expect(run.finished.error.message).toMatch(
          /^max-cost-usd 0\.000001( reached: [\d.e-]+ USD after \d+ turns?|: cannot price model \S+)$/,
        );
      },
    );

    it("ends as cancelled on SIGINT mid-stream", async () => {
      const run = await checkedRun(live, "slow", { interrupt: facts.interruptWhen ?? true });
      expect(run.finished).toMatchObject({
        status: "cancelled",
        exit_code: 130,
        error: { code: "cancelled", retryable: false },
      });
      expect(run.exitCode).toBe(130);
      if (facts.streamsDeltas !== false) expect(eventsOfType(run, "message.delta").length).toBeGreaterThan(0);
    });
  });
}

export async function checkedRun(
  target: LiveTarget,
  scenario: Parameters<typeof runScenario>[1],
  options?: Parameters<typeof runScenario>[2],
): Promise<LiveRun> {
  const run = await runScenario(target, scenario, options);
  // Driven over ACP, a target is read by the acp backend, and its endings are kept apart from its own backend's.
  const backend = options?.acp ? "acp" : target.backend;
  const drift = driftOf(run.events, catalogOf(backend));
  // The same scenario with the model API down ends otherwise: kept apart, so a release's endings compare like with like.
  recordScenario(
    options?.acp ? `${target.id}-acp` : target.id,
    options?.apiDown ? `${scenario}-api-down` : scenario,
    run.finished,
    drift,
  );
  expect(drift.unknownTypes, `native types ${target.id} wrote that its translator does not know`).toEqual([]);
  const verdict = await verifyStream(run.stdout);
  expect(verdict.report, `agentstream verify on the ${scenario} stream`).toMatch(/^ok: /);
  expect(verdict.exitCode).toBe(0);
  expect(run.finished.exit_code, "run.finished.exit_code is the process exit status").toBe(run.exitCode);
  // `--backend claude --transport acp` names its backend (and the transport) on every event.
  const transport = options?.acp?.transport;
  expect(run.events[0]).toMatchObject({
    type: "run.started",
    mode: "run",
    ...(transport ? { backend: transport.backend, transport: "acp" } : { backend }),
  });
  return run;
}

export function expectSucceeded(run: LiveRun, answer: string): void {
  expect(run.finished, run.stderr).toMatchObject({ status: "succeeded", exit_code: 0, result: { text: answer } });
  expect(run.exitCode).toBe(0);
  expect(run.finished.error).toBeUndefined();
  expect(eventsOfType(run, "message.completed").at(-1)?.text).toBe(answer);
}

export function expectFailed(run: LiveRun, expected: { code: string; retryable: boolean; exitCode: number }): void {
  expect(run.finished, run.stderr).toMatchObject({
    status: "failed",
    exit_code: expected.exitCode,
    error: { code: expected.code, retryable: expected.retryable },
  });
  expect(run.exitCode).toBe(expected.exitCode);
}

/** The run's totals are what the fake server reported, call by call. */
export function expectUsageMatchesServer(run: LiveRun, facts: TargetFacts): void {
  expect(run.finished.usage).toMatchObject({
    input_tokens: run.server.usage.input_tokens,
    output_tokens: run.server.usage.output_tokens,
  });
  expect(run.finished.usage.complete).toBe(facts.usageComplete ? undefined : false);
}
