// Permissions and continuing a run, live: a call that is not allowed leaves the
// run needs_input with the call pending; the same session continued from the
// recorded stream with the tool allowed runs it; a denied tool never runs
// (checked by the file its command would make).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runSteps } from "./support/continued-runs.js";
import { eventsOfType } from "./support/live-run.js";
import { targetsFor } from "./support/live-suite.js";
import { DENIED_COMMAND } from "./support/scenarios.mjs";

/** The file DENIED_COMMAND makes. */
const MADE = DENIED_COMMAND.split(" ").at(-1)!;

// With AGENTSTREAM_LIVE_ONLY naming none of the targets below, the file still holds a suite (vitest fails one
// without), skipped: it shows only then.
const TARGETS = [
  "claude-2.1.336",
  "codex-0.171.0",
  "copilot-1.0.102",
  "evosci-0.3.8",
  "gemini-0.61.0",
  "opencode-1.18.34",
  "pi-0.84.4",
  "pi-1.6.0",
];
if (TARGETS.every((id) => targetsFor(id).length === 0))
  describe.skip("permissions live", () => it("selects none of its targets", () => {}));

/** The conformance table's rows on the fake model's shell call (test/fixtures/rules/conformance.json, docs/permissions.md "Rules"). */
const LIVE_RULES = (
  JSON.parse(readFileSync(new URL("../fixtures/rules/conformance.json", import.meta.url), "utf8")) as {
    decisions: { allow: string[]; deny: string[]; argument: string; decision: string; live?: boolean }[];
  }
).decisions.filter((row) => row.live === true);

const sessionOf = (events: Array<Record<string, unknown>>): unknown =>
  events.find((e) => e.type === "session.started")?.session_id;

for (const claude of targetsFor("claude-2.1.336")) {
  describe(`${claude.id} live: permissions and continuing a run`, () => {
    it("a call not allowed ends needs_input with it pending; --continue-from FILE --allow-tool shell runs it in the same session", async () => {
      const { runs, files } = await runSteps(claude, "denied", [
        { args: () => [] },
        {
          args: (streamOf) => ["--continue-from", streamOf(0), "--allow-tool", "shell"],
          prompt: "yes, go on",
          noBackend: true,
        },
      ]);
      const [first, second] = runs as [(typeof runs)[0], (typeof runs)[0]];
      expect(first.finished, first.stderr).toMatchObject({ status: "needs_input", exit_code: 3 });
      expect(first.finished.pending).toEqual([
        expect.objectContaining({
          kind: "approval",
          actions: [expect.objectContaining({ name: "Bash", args: { command: DENIED_COMMAND } })],
        }),
      ]);
      expect(files[0]).not.toContain(MADE);
      const session = sessionOf(first.events);
      expect(session).toEqual(expect.any(String));

      expect(second.finished, second.stderr).toMatchObject({ status: "succeeded", exit_code: 0 });
      expect(second.exitCode).toBe(0);
      expect(second.events[0]).toMatchObject({ type: "run.started", backend: "claude", resumed_from: session });
      expect(second.events[0]!.command).toEqual(
        expect.arrayContaining(["--resume", session, "--allowedTools", "Bash"]),
      );
      expect(sessionOf(second.events)).toBe(session);
      expect(eventsOfType(second, "tool.completed")).toEqual([
        expect.objectContaining({ name: "Bash", status: "succeeded" }),
      ]);
      expect(files[1]).toContain(MADE);
    });

    // Its own matcher decides: each row's portable rules become Bash(...) rules (src/backends/claude/bash-rules.ts).
    it.each(LIVE_RULES.map((row) => [`allow ${row.allow} deny ${row.deny}: ${row.decision}`, row] as const))(
      "the conformance table: %s",
      async (_name, row) => {
        expect(row.argument).toBe(DENIED_COMMAND);
        const rules = [
          ...row.allow.flatMap((r) => ["--allow-tool", r]),
          ...row.deny.flatMap((r) => ["--deny-tool", r]),
        ];
        // A deny pattern is not passed to Claude Code (src/backends/claude/bash-rules.ts): refused before start.
        const refused = row.deny.some((rule) => rule.includes("("));
        const { runs, files } = await runSteps(claude, "denied", [{ args: () => rules, refused }]);
        const run = runs[0]!;
        if (refused) {
          expect(run.exitCode, run.stderr).toBe(2);
          expect(run.stderr).toContain("--transport acp");
          expect(files[0]).not.toContain(MADE);
          return;
        }
        const ran = eventsOfType(run, "tool.completed").filter((e) => e.name === "Bash" && e.status === "succeeded");
        if (row.decision === "allow") {
          expect(files[0], run.stderr).toContain(MADE);
          expect(run.finished, run.stderr).toMatchObject({ status: "succeeded", exit_code: 0 });
        } else {
          expect(files[0], run.stderr).not.toContain(MADE);
          expect(ran).toEqual([]);
        }
        // No rule decides: the call waits for a person (Claude Code denies it headless and lists it).
        if (row.decision === "none")
          expect(run.finished, run.stderr).toMatchObject({ status: "needs_input", exit_code: 3 });
      },
    );

    it("--deny-tool shell keeps the shell from running, even where Bash is allowed", async () => {
      const { runs, files } = await runSteps(claude, "denied", [
        { args: () => ["--backend-arg=--allowedTools", "--backend-arg=Bash", "--deny-tool", "shell"] },
      ]);
      const run = runs[0]!;
      expect(files[0]).not.toContain(MADE);
      expect(eventsOfType(run, "tool.completed")).toEqual([expect.objectContaining({ status: "failed" })]);
      expect(run.events[0]!.command).toEqual(expect.arrayContaining(["--disallowedTools", "Bash"]));
    });
  });
}

// Codex has no allow list and never stops for approvals: what it can do is turn a tool off and resume a session.
for (const codex of targetsFor("codex-0.171.0")) {
  describe(`${codex.id} live: permissions and continuing a run`, () => {
    it("--deny-tool shell offers the model no shell: its call is refused and the file is not made; --continue-from FILE without it runs the command in the same session", async () => {
      const { runs, files } = await runSteps(codex, "denied", [
        { args: () => ["--deny-tool", "shell"] },
        { args: (streamOf) => ["--continue-from", streamOf(0)], prompt: "yes, go on", noBackend: true },
      ]);
      const [first, second] = runs as [(typeof runs)[0], (typeof runs)[0]];
      expect(files[0]).not.toContain(MADE);
      expect(first.events[0]!.command).toEqual(
        expect.arrayContaining(["--disable", "shell_tool", "--disable", "unified_exec"]),
      );
      expect(eventsOfType(first, "tool.completed").filter((e) => e.status === "succeeded")).toEqual([]);
      const session = sessionOf(first.events);
      expect(session).toEqual(expect.any(String));

      expect(second.finished, second.stderr).toMatchObject({ status: "succeeded", exit_code: 0 });
      expect(second.events[0]).toMatchObject({ type: "run.started", backend: "codex", resumed_from: session });
      expect(second.events[0]!.command).toEqual(expect.arrayContaining(["exec", "resume", session]));
      expect(sessionOf(second.events)).toBe(session);
      expect(eventsOfType(second, "tool.completed")).toEqual([
        expect.objectContaining({ name: "command_execution", status: "succeeded" }),
      ]);
      expect(files[1]).toContain(MADE);
    });
  });
}

// Gemini CLI offers no tool headless that no rule allows; a shell allowed for some commands only
// (run_shell_command(ls)) is offered, and its policy refuses any other command: that call waits for an approval.
for (const gemini of targetsFor("gemini-0.61.0")) {
  describe(`${gemini.id} live: permissions and continuing a run`, () => {
    it("a shell command its rules do not allow ends needs_input with it pending; --continue-from FILE --allow-tool shell runs it in the same session", async () => {
      const { runs, files } = await runSteps(gemini, "denied", [
        { args: () => ["--backend-arg=--allowed-tools", "--backend-arg=run_shell_command(ls)"] },
        {
          args: (streamOf) => ["--continue-from", streamOf(0), "--allow-tool", "shell"],
          prompt: "yes, go on",
          noBackend: true,
        },
      ]);
      const [first, second] = runs as [(typeof runs)[0], (typeof runs)[0]];
      expect(files[0]).not.toContain(MADE);
      expect(first.finished, first.stderr).toMatchObject({ status: "needs_input", exit_code: 3 });
      expect(first.finished.pending).toEqual([
        expect.objectContaining({
          kind: "approval",
          actions: [expect.objectContaining({ name: "run_shell_command", args: { command: DENIED_COMMAND } })],
        }),
      ]);
      const session = sessionOf(first.events);
      expect(session).toEqual(expect.any(String));
      expect(first.finished.resume).toMatchObject({ session_id: session });

      expect(files[1]).toContain(MADE);
      expect(second.finished, second.stderr).toMatchObject({ status: "succeeded", exit_code: 0 });
      expect(second.events[0]).toMatchObject({ type: "run.started", backend: "gemini", resumed_from: session });
      expect(second.events[0]!.command).toEqual(
        expect.arrayContaining(["--resume", session, "--allowed-tools", "run_shell_command"]),
      );
      expect(sessionOf(second.events)).toBe(session);
    });

    it("a shell no rule allows is not offered: the model cannot ask for it, the run succeeds without it (no file)", async () => {
      const { runs, files } = await runSteps(gemini, "denied", [{ args: () => [] }]);
      const run = runs[0]!;
      expect(files[0]).not.toContain(MADE);
      expect(run.finished, run.stderr).toMatchObject({ status: "succeeded", exit_code: 0 });
      // The fake model falls back to a "bash" call, a tool Gemini CLI does not have: no approval can make it run.
      expect(eventsOfType(run, "tool.completed")).toEqual([
        expect.objectContaining({ name: "bash", status: "failed" }),
      ]);
    });
  });
}

// pi asks for no approvals: --deny-tool keeps a tool from the model (pi 0.84 or later), --resume is --session.
// pi 1.6 keeps a session's tool choice when it resumes it: a tool denied once stays denied in that session.
for (const pi of [...targetsFor("pi-0.84.4"), ...targetsFor("pi-1.6.0")]) {
  describe(`${pi.id} live: permissions and continuing a run`, () => {
    it("continued with --continue-from FILE --deny-tool shell: the same session, and bash does not run (no file)", async () => {
      const { runs, files } = await runSteps(pi, "denied", [
        { args: () => [], prompt: "say hello" },
        { args: (streamOf) => ["--continue-from", streamOf(0), "--deny-tool", "shell"], noBackend: true },
      ]);
      const [first, second] = runs as [(typeof runs)[0], (typeof runs)[0]];
      expect(first.finished, first.stderr).toMatchObject({ status: "succeeded", exit_code: 0 });
      const session = sessionOf(first.events);
      expect(session).toEqual(expect.any(String));

      expect(files[1]).not.toContain(MADE);
      expect(eventsOfType(second, "tool.completed")).toEqual([
        expect.objectContaining({ name: "bash", status: "failed" }),
      ]);
      expect(second.events[0]).toMatchObject({ type: "run.started", backend: "pi", resumed_from: session });
      expect(second.events[0]!.command).toEqual(
        expect.arrayContaining(["--session", session, "--exclude-tools", "bash"]),
      );
      expect(sessionOf(second.events)).toBe(session);
    });
  });
}

// OpenCode reads the rules from OPENCODE_PERMISSION (over its configs); it continues a session with run --session.
// The live home's opencode.json sets bash to "ask" in the denied scenario: opencode run rejects the call (no one
// to ask) and stops.
for (const opencode of targetsFor("opencode-1.18.34")) {
  describe(`${opencode.id} live: permissions and continuing a run`, () => {
    it("a call set to ask ends needs_input with it pending; --continue-from FILE --allow-tool shell runs it in the same session", async () => {
      const { runs, files } = await runSteps(opencode, "denied", [
        { args: () => ["--raw"] },
        {
          args: (streamOf) => ["--raw", "--continue-from", streamOf(0), "--allow-tool", "shell"],
          prompt: "yes, go on",
          noBackend: true,
        },
      ]);
      const [first, second] = runs as [(typeof runs)[0], (typeof runs)[0]];
      expect(files[0]).not.toContain(MADE);
      expect(first.finished, first.stderr).toMatchObject({ status: "needs_input", exit_code: 3 });
      expect(first.finished.pending).toEqual([
        expect.objectContaining({
          kind: "approval",
          actions: [expect.objectContaining({ name: "bash", args: { command: DENIED_COMMAND } })],
        }),
      ]);
      const session = sessionOf(first.events);
      expect(session).toMatch(/^ses_/);
      expect(first.events.find((e) => e.raw?.sessionID)!.raw.sessionID).toBe(session);
      expect(first.finished.resume).toMatchObject({ session_id: session });

      expect(files[1]).toContain(MADE);
      expect(second.finished, second.stderr).toMatchObject({ status: "succeeded", exit_code: 0 });
      expect(second.events[0]).toMatchObject({ backend: "opencode", resumed_from: session });
      expect(second.events[0]!.command).toEqual(expect.arrayContaining(["--session", session]));
      expect(sessionOf(second.events)).toBe(session);
      const sessions = new Set(second.events.filter((e) => e.raw?.sessionID).map((e) => e.raw.sessionID));
      expect([...sessions]).toEqual([session]);
    });

    it("--deny-tool shell (OPENCODE_PERMISSION bash: deny, over its opencode.json's ask) keeps the command from running (no file)", async () => {
      const { runs, files } = await runSteps(opencode, "denied", [{ args: () => ["--deny-tool", "shell"] }]);
      const run = runs[0]!;
      expect(files[0]).not.toContain(MADE);
      // A denied tool is not offered: OpenCode answers the call with its "invalid" tool; nothing waits for approval.
      expect(run.finished, run.stderr).toMatchObject({ status: "succeeded", exit_code: 0 });
      expect(eventsOfType(run, "tool.completed")).toEqual([
        expect.objectContaining({ name: "invalid", output: expect.stringContaining("unavailable tool 'bash'") }),
      ]);
    });
  });
}

// Copilot CLI: --deny-tool wins over --allow-all-tools; an allow list replaces it; --resume=SESSION.
for (const copilot of targetsFor("copilot-1.0.102")) {
  describe(`${copilot.id} live: permissions and continuing a run`, () => {
    it("a shell call an allow list leaves out ends needs_input with it pending; --continue-from FILE --allow-tool shell runs it in the same session", async () => {
      const { runs, files } = await runSteps(copilot, "denied", [
        { args: () => ["--allow-tool", "write"] },
        {
          args: (streamOf) => ["--continue-from", streamOf(0), "--allow-tool", "shell"],
          prompt: "yes, go on",
          noBackend: true,
        },
      ]);
      const [first, second] = runs as [(typeof runs)[0], (typeof runs)[0]];
      expect(files[0]).not.toContain(MADE);
      expect(first.finished, first.stderr).toMatchObject({ status: "needs_input", exit_code: 3 });
      expect(first.finished.pending).toEqual([
        expect.objectContaining({
          kind: "approval",
          actions: [expect.objectContaining({ name: "bash", args: { command: DENIED_COMMAND } })],
        }),
      ]);
      const session = sessionOf(first.events);
      expect(session).toEqual(expect.any(String));
      expect(first.finished.resume).toMatchObject({ session_id: session });

      expect(files[1]).toContain(MADE);
      expect(second.finished, second.stderr).toMatchObject({ status: "succeeded", exit_code: 0 });
      expect(second.events[0]).toMatchObject({ backend: "copilot", resumed_from: session });
      expect(sessionOf(second.events)).toBe(session);
    });

    it("--deny-tool shell keeps the command from running (no file); --continue-from FILE --allow-tool shell runs it in the same session", async () => {
      const { runs, files } = await runSteps(copilot, "denied", [
        { args: () => ["--deny-tool", "shell"] },
        {
          args: (streamOf) => ["--continue-from", streamOf(0), "--allow-tool", "shell"],
          prompt: "yes, go on",
          noBackend: true,
        },
      ]);
      const [first, second] = runs as [(typeof runs)[0], (typeof runs)[0]];
      expect(files[0]).not.toContain(MADE);
      expect(first.events[0]!.command).toEqual(expect.arrayContaining(["--deny-tool=shell"]));
      // A call its deny rule refused is the user's answer, not a request waiting for one.
      expect(first.finished, first.stderr).toMatchObject({ status: "succeeded", exit_code: 0 });
      expect(first.finished.pending).toBeUndefined();
      const session = sessionOf(first.events);
      expect(session).toEqual(expect.any(String));

      expect(files[1]).toContain(MADE);
      expect(second.finished, second.stderr).toMatchObject({ status: "succeeded", exit_code: 0 });
      expect(second.events[0]).toMatchObject({ backend: "copilot", resumed_from: session });
      expect(second.events[0]!.command).toEqual(expect.arrayContaining([`--resume=${session}`, "--allow-tool=shell"]));
      expect(second.events[0]!.command).not.toContain("--allow-all-tools");
      expect(sessionOf(second.events)).toBe(session);
    });

    // Its rules take permission kinds: "bash" alone would be read as an MCP server's name and deny nothing.
    it("--deny-tool bash (its tool.started name) is denied as the shell kind: the command does not run (no file)", async () => {
      const { runs, files } = await runSteps(copilot, "denied", [{ args: () => ["--deny-tool", "bash"] }]);
      const run = runs[0]!;
      expect(files[0]).not.toContain(MADE);
      expect(run.events[0]!.command).toEqual(expect.arrayContaining(["--deny-tool=shell"]));
      expect(eventsOfType(run, "tool.completed")).toEqual([
        expect.objectContaining({ name: "bash", status: "failed" }),
      ]);
    });
  });
}

// EvoScientist: --approvals never is its --no-auto-mode (every call asks); its session id comes only from the
// resume hint on its stderr (run.finished.resume), which --continue-from reads.
for (const evosci of targetsFor("evosci-0.3.8")) {
  describe(`${evosci.id} live: approvals and continuing a run`, () => {
    it("--approvals never ends needs_input with the call pending; --continue-from FILE in auto mode runs it in the same session", async () => {
      const { runs, files } = await runSteps(evosci, "denied", [
        { args: () => ["--approvals", "never"] },
        { args: (streamOf) => ["--continue-from", streamOf(0)], prompt: "yes, go on", noBackend: true },
      ]);
      const [first, second] = runs as [(typeof runs)[0], (typeof runs)[0]];
      expect(first.finished, first.stderr).toMatchObject({ status: "needs_input", exit_code: 3 });
      expect(first.events[0]!.command).toContain("--no-auto-mode");
      expect(first.finished.pending).toEqual([
        expect.objectContaining({
          kind: "approval",
          actions: [
            expect.objectContaining({ name: "execute", args: expect.objectContaining({ command: DENIED_COMMAND }) }),
          ],
        }),
      ]);
      expect(files[0]).not.toContain(MADE);
      const session = first.finished.resume?.session_id;
      expect(session).toEqual(expect.any(String));

      expect(files[1]).toContain(MADE);
      expect(second.finished, second.stderr).toMatchObject({ status: "succeeded", exit_code: 0 });
      expect(second.events[0]).toMatchObject({ backend: "evosci", resumed_from: session });
      expect(second.events[0]!.command).toEqual(expect.arrayContaining(["--resume", session]));
      // Its stdout names no session: the file proves it. The prompt "yes, go on" names no scenario, so the fake
      // model called the command only because the request carried the first run's conversation.
      expect(second.server.requestsFor("denied").length).toBeGreaterThan(1);
    });
  });
}

for (const claude of targetsFor("claude-2.1.336")) {
  describe(`${claude.id} live: --approvals`, () => {
    it("--approvals auto (its --permission-mode auto) lets the shell call run without an allow rule", async () => {
      const { runs, files } = await runSteps(claude, "denied", [{ args: () => ["--approvals", "auto"] }]);
      const run = runs[0]!;
      expect(files[0]).toContain(MADE);
      expect(run.finished, run.stderr).toMatchObject({ status: "succeeded", exit_code: 0 });
      expect(run.events[0]!.command).toEqual(expect.arrayContaining(["--permission-mode", "auto"]));
    });

    it("--approvals never (its --permission-prompts none) ends needs_input with the call pending, no file", async () => {
      const { runs, files } = await runSteps(claude, "denied", [{ args: () => ["--approvals", "never"] }]);
      const run = runs[0]!;
      expect(files[0]).not.toContain(MADE);
      expect(run.finished, run.stderr).toMatchObject({ status: "needs_input", exit_code: 3 });
      expect(run.events[0]!.command).toEqual(expect.arrayContaining(["--permission-prompts", "none"]));
    });
  });
}

for (const gemini of targetsFor("gemini-0.61.0")) {
  describe(`${gemini.id} live: --approvals`, () => {
    it("--approvals auto (its --approval-mode yolo) lets the shell call run without an allow rule", async () => {
      const { runs, files } = await runSteps(gemini, "denied", [{ args: () => ["--approvals", "auto"] }]);
      const run = runs[0]!;
      expect(files[0]).toContain(MADE);
      expect(run.finished, run.stderr).toMatchObject({ status: "succeeded", exit_code: 0 });
      expect(run.events[0]!.command).toEqual(expect.arrayContaining(["--approval-mode", "yolo"]));
    });

    it("--deny-tool shell (a policy file's deny rule) keeps the shell from running, even in yolo mode (no file)", async () => {
      const { runs, files } = await runSteps(gemini, "denied", [
        { args: () => ["--approvals", "auto", "--deny-tool", "shell"] },
      ]);
      const run = runs[0]!;
      expect(files[0]).not.toContain(MADE);
      expect(run.events[0]!.command).toEqual(expect.arrayContaining(["--policy"]));
      // The run itself went on (the policy file was read, not a start-up failure). A tool denied by policy is
      // not even offered to the model: the fake model falls back to a "bash" call, which Gemini CLI does not know.
      expect(run.finished, run.stderr).toMatchObject({ status: "succeeded", exit_code: 0 });
      expect(eventsOfType(run, "tool.completed")).toEqual([
        expect.objectContaining({ name: "bash", status: "failed" }),
      ]);
    });

    // Gemini CLI drops every rule of a policy file it cannot parse: a name TOML must escape keeps the file whole.
    it("--deny-tool with a name holding quotes and backslashes beside shell: its real TOML parser reads the file, the shell stays denied (no file)", async () => {
      const { runs, files } = await runSteps(gemini, "denied", [
        { args: () => ["--approvals", "auto", "--deny-tool", 'we"ird\\name]]#=é🛠', "--deny-tool", "shell"] },
      ]);
      const run = runs[0]!;
      expect(files[0]).not.toContain(MADE);
      expect(run.finished, run.stderr).toMatchObject({ status: "succeeded", exit_code: 0 });
      expect(eventsOfType(run, "tool.completed")).toEqual([
        expect.objectContaining({ name: "bash", status: "failed" }),
      ]);
    });
  });
}
