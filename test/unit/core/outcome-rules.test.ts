// The outcome rules decided once, in the core (src/core/outcome.ts; docs/canonical-stream.md "Outcome rules"), for
// issue 53: no refused call ends in success (items 1, 11), and a cancelled turn comes from structure (item 9).
import { describe, expect, it } from "vitest";
import type { CanonicalEvent, RunStatus } from "../../../src/canonical/events.js";
import { resolveOutcome, type Interruption, type OutcomeFacts, type RefusedRuns } from "../../../src/core/outcome.js";
import { RefusedRunWatch } from "../../../src/core/refused-runs.js";
import type { Outcome } from "../../../src/core/translator.js";

const facts = (terminal: Outcome | undefined, more: Partial<OutcomeFacts> = {}): OutcomeFacts => ({
  terminal,
  end: { backendExit: { code: 0, signal: null }, stderrTail: [] },
  sawEvents: true,
  sawGarbage: false,
  started: true,
  usageComplete: true,
  ...more,
});

const REJECTED: RefusedRuns = {
  rejected: { tool_call_id: "t1", name: "execute", by: "rule" },
  rejectedCount: 1,
  undecided: false,
};
const UNDECIDED: RefusedRuns = { rejectedCount: 0, undecided: true };

const terminals: [string, Outcome, Interruption?][] = [
  ["succeeded", { status: "succeeded", resultText: "Made x anyway." }],
  ["needs_input", { status: "needs_input", resultText: null }],
  [
    "cancelled by the agent",
    { status: "cancelled", resultText: null, error: { code: "cancelled", message: "c", retryable: false } },
  ],
  ["failed", { status: "failed", resultText: null, error: { code: "rate_limit", message: "429", retryable: true } }],
  ["cancelled by our SIGINT", { status: "cancelled", resultText: null }, { kind: "signal", signal: "SIGINT" }],
];

describe("no refused call ends in success", () => {
  it.each(terminals)(
    "a rejected call ran, the turn %s: failed, refused_call_ran, exit 1, the call named",
    (_, terminal, interruption) => {
      const outcome = resolveOutcome(
        facts(terminal, { refusedRuns: REJECTED, ...(interruption ? { interruption } : {}) }),
      );
      expect(outcome).toMatchObject({
        status: "failed",
        exitCode: 1,
        resultText: null,
        error: {
          code: "refused_call_ran",
          message: 'the agent ran a call that was rejected (by rule): execute "t1"',
          retryable: false,
        },
      });
    },
  );

  it("several ran: the first named, the rest counted; a name or id of any length is cut", () => {
    const long = "x".repeat(10_000);
    const outcome = resolveOutcome(
      facts(terminals[0]![1], {
        refusedRuns: { rejected: { tool_call_id: long, name: long, by: "person" }, rejectedCount: 3, undecided: true },
      }),
    );
    expect(outcome.error?.message.length).toBeLessThan(500);
    expect(outcome.error?.message).toMatch(
      /^the agent ran a call that was rejected \(by person\): x+… "x+…" \(and 2 more rejected calls\)$/,
    );
  });

  it("a call no one decided ran: a success needs input (3); any other outcome stands", () => {
    const statuses = terminals.map(([, terminal, interruption]) =>
      resolveOutcome(facts(terminal, { refusedRuns: UNDECIDED, ...(interruption ? { interruption } : {}) })),
    );
    expect(statuses.map((o) => [o.status, o.exitCode])).toEqual([
      ["needs_input", 3],
      ["needs_input", 3],
      ["cancelled", 130],
      ["failed", 75],
      ["cancelled", 130],
    ]);
    expect(statuses[0]).not.toHaveProperty("error");
  });

  it("agentstream's own failure stands: nothing ran", () => {
    const outcome = resolveOutcome(
      facts(undefined, { refusedRuns: REJECTED, ownFailure: { code: "backend_not_found", message: "no agent" } }),
    );
    expect(outcome).toMatchObject({ status: "failed", error: { code: "backend_not_found" } });
  });
});

describe("the refused calls the events show", () => {
  const answered = (tool_call_id: string, decision: "allow" | "reject", by: string, option_id?: string) =>
    ({
      type: "input.answered",
      request_id: `r-${tool_call_id}`,
      tool_call_id,
      decision,
      by,
      ...(option_id ? { option_id } : {}),
    }) as unknown as CanonicalEvent;
  const completed = (tool_call_id: string, unapproved: boolean) =>
    ({
      type: "tool.completed",
      tool_call_id,
      name: "execute",
      status: "succeeded",
      output: "",
      ...(unapproved ? { unapproved: true } : {}),
    }) as unknown as CanonicalEvent;
  const watched = (...events: CanonicalEvent[]) => {
    const watch = new RefusedRunWatch();
    for (const e of events) watch.see(e);
    return watch.facts;
  };

  it("rejected with an option and run: rejected, by whom it says", () => {
    expect(watched(answered("t1", "reject", "command", "no"), completed("t1", true))).toEqual({
      rejected: { tool_call_id: "t1", name: "execute", by: "command" },
      rejectedCount: 1,
      undecided: false,
    });
  });

  it("answered by default, or cancelled (no option), or marked with no answer seen: no one decided", () => {
    for (const events of [
      [answered("t1", "reject", "default", "no"), completed("t1", true)],
      [answered("t1", "reject", "rule"), completed("t1", true)],
      [completed("t1", true)],
    ])
      expect(watched(...events)).toEqual({ rejectedCount: 0, undecided: true });
  });

  it("allowed after a refusal, or not marked unapproved: nothing refused ran", () => {
    const none = { rejectedCount: 0, undecided: false };
    expect(
      watched(answered("t1", "reject", "rule", "no"), answered("t1", "allow", "person", "yes"), completed("t1", false)),
    ).toEqual(none);
    expect(watched(answered("t1", "reject", "rule", "no"), completed("t1", false))).toEqual(none);
  });
});

describe("a turn ends cancelled only where its backend's structure says its user aborted it", () => {
  const failedWith = (code: "aborted" | "unknown"): Outcome => ({
    status: "failed",
    resultText: null,
    error: { code, message: "Aborted: required dependency `npm` is missing; cannot continue.", retryable: false },
  });
  it.each([
    ["aborted", "cancelled", 130],
    ["unknown", "failed", 1],
  ] as const)("a terminal failure with code %s: %s (%i)", (code, status: RunStatus, exitCode) => {
    expect(resolveOutcome(facts(failedWith(code)))).toMatchObject({ status, exitCode });
  });
});
