// run --approvals ask in a real terminal (tmux): the person at the terminal answers each permission request
// no rule decides, on /dev/tty, never on stdout; where there is no terminal it is refused before anything starts.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, parseJsonl } from "../../helpers/cli.js";
import { HAS_TMUX, sh, Terminal } from "../../helpers/terminal.js";
import { fakeAcpArgs } from "../../helpers/fake-acp.js";

const tmp = mkdtempSync(join(tmpdir(), "agentstream-ask-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const QUESTION = "agentstream: allow execute: touch x? [y/N]";
let runs = 0;

/** agentstream with --approvals ask in a terminal, its stdout to a file: the terminal and the file. */
function askInTerminal(prompt: string, more: string[] = [], env: Record<string, string> = {}) {
  const out = join(tmp, `out-${++runs}.jsonl`);
  const args = fakeAcpArgs();
  const exports = Object.entries(env).map(([name, value]) => `export ${name}=${sh(value)}`);
  const line = `${sh(process.execPath)} ${sh(BIN)} ${[...args, "--approvals", "ask", ...more, "--", prompt].map(sh).join(" ")} > ${sh(out)}`;
  const terminal = new Terminal(tmp, [...exports, line].join("\n"), { width: 200 });
  const events = () => (existsSync(out) ? parseJsonl(readFileSync(out, "utf8")) : []);
  return { terminal, events, stdout: () => readFileSync(out, "utf8") };
}

describe.skipIf(!HAS_TMUX).concurrent("run --approvals ask (a person at a real terminal)", () => {
  // What the person types, and what becomes of the call: only y allows; a reject is an answer, the run goes on.
  for (const [typed, decision] of [
    ["y", "allow"],
    ["yes", "allow"],
    ["n", "reject"],
    ["maybe", "reject"],
  ] as const)
    it(`typed ${typed}: ${decision}, by person; the question never reaches stdout`, async () => {
      const { terminal, events, stdout } = askInTerminal("ask");
      try {
        await terminal.waitForScreen((s) => s.includes(QUESTION), "the question on the terminal");
        terminal.keys(typed, "Enter");
        expect(await terminal.exited()).toBe(0);
        expect(events().filter((e) => e.type === "input.answered")).toMatchObject([{ decision, by: "person" }]);
        expect(events().at(-1)).toMatchObject({
          status: "succeeded",
          result: { text: decision === "allow" ? "Made x." : "I was not allowed." },
        });
        expect(stdout()).not.toContain("[y/N]");
        expect(terminal.screen()).toContain(
          `${decision === "allow" ? "allowed" : "rejected"} execute: touch x (by person)`,
        );
      } finally {
        terminal.close();
      }
    });

  it("no answer within --answer-timeout rejects the call, and says so", async () => {
    const { terminal, events } = askInTerminal("ask", ["--answer-timeout", "1"]);
    try {
      expect(await terminal.exited()).toBe(0);
      expect(events().filter((e) => e.type === "input.answered")).toMatchObject([{ decision: "reject", by: "person" }]);
      expect(terminal.screen()).toContain("(no answer within 1 s: rejected)");
    } finally {
      terminal.close();
    }
  });

  it("Copilot CLI's request shape: the person is asked the command itself, both its lines, and the title", async () => {
    const { terminal, events } = askInTerminal("copilot");
    try {
      const screen = await terminal.waitForScreen((s) => s.includes("[y/N]"), "the question on the terminal");
      // The title "Running command" alone says nothing of what would run.
      expect(screen).toContain("agentstream: allow execute: ls␊rm -rf ./build (Running command)? [y/N]");
      terminal.keys("n", "Enter");
      expect(await terminal.exited()).toBe(0);
      expect(events().filter((e) => e.type === "input.answered")).toMatchObject([{ decision: "reject", by: "person" }]);
      expect(terminal.screen()).toContain("rejected execute: ls␊rm -rf ./build (Running command) (by person)");
    } finally {
      terminal.close();
    }
  });

  it("a title holding terminal escapes and a secret is asked escaped and hidden", async () => {
    const secret = "sk-live-0123456789abcdefSECRET";
    const { terminal, stdout } = askInTerminal("hostile", [], { FAKE_ACP_TOKEN: secret });
    try {
      const screen = await terminal.waitForScreen((s) => s.includes("[y/N]"), "the question on the terminal");
      // The escapes are shown (␛), never sent: the screen was not cleared nor retitled, and the secret is hidden.
      expect(screen).toContain("␛[31mrun␛[0m");
      expect(screen).not.toContain(secret);
      expect(screen).toContain("Bearer [redacted]");
      terminal.keys("n", "Enter");
      expect(await terminal.exited()).toBe(0);
      expect(terminal.screen()).not.toContain(secret);
      expect(stdout()).not.toContain(secret);
    } finally {
      terminal.close();
    }
  });
});

describe("run --approvals ask without a terminal", () => {
  it("is refused before anything starts (exit 2), saying a terminal is needed", async () => {
    // A session of its own (setsid): no controlling terminal, whatever runs the tests.
    const child = spawn(process.execPath, [BIN, ...fakeAcpArgs("--approvals", "ask", "--", "ask")], {
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(2);
    expect(stderr).toContain("--approvals ask needs a terminal to ask a person on: /dev/tty cannot be opened");
    expect(stderr).toContain("--approve-with CMD");
    expect(stdout).toBe("");
  });
});
