// Issue 45: a denial Claude Code lists in its result's permission_denials is never dropped, whatever shape it has
// (no tool_use_id, no tool_name, a tool no one knows, no input): the run needs its approval, and pending names what
// is known of it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CanonicalEvent } from "../../../../src/canonical/events.js";
import { translate } from "../../../helpers/translate.js";

const INIT = { type: "system", subtype: "init", session_id: "s1", tools: [] };

function run(denials: unknown[]): { events: CanonicalEvent[]; finished: Record<string, unknown> } {
  const result = { type: "result", subtype: "success", is_error: false, result: "Done.", session_id: "s1" };
  const lines = [INIT, { ...result, permission_denials: denials }].map((l) => JSON.stringify(l)).join("\n");
  const { events } = translate(`${lines}\n`, { from: "claude", end: { backendExit: { code: 0, signal: null } } });
  return { events, finished: events.at(-1) as unknown as Record<string, unknown> };
}

const denial = fc.record(
  {
    tool_use_id: fc.constantFrom("toolu_1", "toolu_2", "toolu_3"),
    tool_name: fc.oneof(fc.constantFrom("Bash", "Write", "mcp__nobody__knows", ""), fc.string()),
    tool_input: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.constant(null), fc.string()),
  },
  { requiredKeys: [] },
);

describe("Claude Code's listed permission denials", () => {
  it("one without tool_use_id: needs_input, pending names its tool and input (it ended succeeded)", () => {
    const { finished } = run([{ tool_name: "Write", tool_input: { file_path: "/w/a.txt", content: "x" } }]);
    expect(finished).toMatchObject({
      status: "needs_input",
      exit_code: 3,
      pending: [{ kind: "approval", actions: [{ name: "Write", args: { file_path: "/w/a.txt", content: "x" } }] }],
    });
  });

  it("any shape, any number: each distinct denial is one pending approval, never dropped", () => {
    fc.assert(
      fc.property(fc.array(denial, { minLength: 1, maxLength: 6 }), (denials) => {
        const { finished } = run(denials);
        const ids = new Set(denials.map((d) => d.tool_use_id).filter((id) => id !== undefined));
        const unnamed = denials.filter((d) => d.tool_use_id === undefined).length;
        expect(finished.status).toBe("needs_input");
        expect(finished.exit_code).toBe(3);
        const pending = finished.pending as { tool_call_id?: string; actions: { name: string }[] }[];
        expect(pending).toHaveLength(ids.size + unnamed);
        for (const id of ids) {
          const first = denials.find((d) => d.tool_use_id === id)!;
          const named = typeof first.tool_name === "string" && first.tool_name !== "" ? first.tool_name : "tool";
          expect(pending.find((p) => p.tool_call_id === id)?.actions[0]?.name).toBe(named);
        }
      }),
      { numRuns: 300 },
    );
  });
});
