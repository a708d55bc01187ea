// A call refused for want of an approval ends the run needs_input with the call
// pending, as Claude Code's denials do; a refusal that is the user's own answer
// (a deny rule) or no refusal at all (a tool the backend does not have) does not.
// The native streams are the denied goldens, recorded live, with one line changed.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { translate } from "../../helpers/translate.js";

const golden = (backend: string, ext: string): string =>
  readFileSync(new URL(`../../fixtures/golden/${backend}/denied.${ext}`, import.meta.url), "utf8");

function run(backend: "gemini" | "copilot", native: string) {
  const { end } = JSON.parse(golden(backend, "options.json")) as { end: Record<string, unknown> };
  const { events } = translate(native, { from: backend, end });
  return {
    requests: events.filter((e) => e.type === "input.requested"),
    finished: events.at(-1) as unknown as Record<string, unknown>,
  };
}

describe("Gemini CLI: a call its policy engine refused", () => {
  const native = golden("gemini", "native.jsonl");
  const POLICY = '"error":{"type":"policy_violation","message":"Tool execution denied by policy."}';

  it("denied by policy (no rule allows that command) ends needs_input with the command pending and a resume hint", () => {
    const { requests, finished } = run("gemini", native);
    expect(requests).toEqual([
      expect.objectContaining({
        kind: "approval",
        actions: [expect.objectContaining({ name: "run_shell_command", args: { command: "touch made-by-tool.txt" } })],
      }),
    ]);
    expect(finished).toMatchObject({
      status: "needs_input",
      exit_code: 3,
      pending: [expect.objectContaining({ kind: "approval" })],
      resume: { hint: expect.stringContaining("--allowed-tools run_shell_command") },
    });
  });

  it("a call that would need a confirmation headless is pending too", () => {
    const message =
      'Tool execution for \\"Shell\\" requires user confirmation, which is not supported in non-interactive mode.';
    const changed = native
      .replaceAll("Tool execution denied by policy.", message)
      .replace(POLICY, `"error":{"type":"unhandled_exception","message":"${message}"}`);
    expect(changed).not.toBe(native);
    expect(run("gemini", changed).finished).toMatchObject({ status: "needs_input" });
  });

  it("those words printed by a failed command (its output, not Gemini's error) are a failed call, not a request", () => {
    const words =
      'Tool execution for \\"Shell\\" requires user confirmation, which is not supported in non-interactive mode.';
    const changed = native
      .replace('"output":"Tool execution denied by policy."', `"output":"${words}"`)
      .replace(POLICY, '"error":{"type":"shell_error","message":"Command exited with code 1"}');
    expect(changed).not.toBe(native);
    const { requests, finished } = run("gemini", changed);
    expect(requests).toEqual([]);
    expect(finished).toMatchObject({ status: "succeeded", exit_code: 0 });
  });

  it("a tool it does not have (tool_not_registered) is a failed call, not a request", () => {
    const changed = native.replace(POLICY, '"error":{"type":"tool_not_registered","message":"Tool not found."}');
    expect(changed).not.toBe(native);
    const { requests, finished } = run("gemini", changed);
    expect(requests).toEqual([]);
    expect(finished).toMatchObject({ status: "succeeded", exit_code: 0 });
  });
});

describe("Copilot CLI: a call refused for want of a permission", () => {
  const native = golden("copilot", "native.jsonl");
  const NO_USER = /Permission denied because no interactive user response was available[^"]*/;

  it("refused with no user to approve it ends needs_input with the command pending and a resume hint naming --allow-tool=shell", () => {
    const { requests, finished } = run("copilot", native);
    expect(requests).toEqual([
      expect.objectContaining({
        kind: "approval",
        actions: [expect.objectContaining({ name: "bash", args: { command: "touch made-by-tool.txt" } })],
      }),
    ]);
    expect(finished).toMatchObject({
      status: "needs_input",
      exit_code: 3,
      resume: { hint: expect.stringContaining("--allow-tool=shell") },
    });
  });

  it("refused by a --deny-tool rule is the user's answer: a failed call, the run succeeds", () => {
    const changed = native.replace(
      NO_USER,
      "Permission to run this tool was denied due to the following rules: `shell`",
    );
    expect(changed).not.toBe(native);
    const { requests, finished } = run("copilot", changed);
    expect(requests).toEqual([]);
    expect(finished).toMatchObject({ status: "succeeded", exit_code: 0 });
  });
});
