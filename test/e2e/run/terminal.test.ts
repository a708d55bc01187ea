import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { BIN } from "../../helpers/cli.js";
import { HAS_TMUX, sh, Terminal } from "../../helpers/terminal.js";
import { verifyLines } from "../../helpers/verify.js";
import { openGate, runStandIn, Scratch, STAND_IN, transcript } from "../../helpers/stand-in.js";

const scratch = new Scratch();
afterAll(() => scratch.remove());

const REPLAY = new URL("../../../examples/replay-backend.mjs", import.meta.url).pathname;
// ora's frames ("dots", or "line" where there is no Unicode) and the text beside them.
const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]|evosci · /;
const STEPS_LINES = readFileSync(transcript("evosci-steps.jsonl"), "utf8").split("\n").filter(Boolean).length;

/** A script running agentstream in the terminal as a user would: their colours, no test knobs. */
function script(env: Record<string, string>, args: string[], redirect = ""): string {
  const exports = Object.entries(env).map(([name, value]) => `export ${name}=${sh(value)}`);
  return [
    "unset NO_COLOR FORCE_COLOR",
    ...exports,
    `${sh(process.execPath)} ${sh(BIN)} ${args.map(sh).join(" ")}${redirect}`,
  ].join("\n");
}

/** The screen's lines: the JSON ones parsed (each must parse), the others kept as text. */
function readScreen(screen: string): { events: Record<string, unknown>[]; text: string[] } {
  const events: Record<string, unknown>[] = [];
  const text: string[] = [];
  for (const line of screen.split("\n")) {
    if (line.trimStart().startsWith("{")) events.push(JSON.parse(line) as Record<string, unknown>);
    else if (line.trim() !== "") text.push(line);
  }
  return { events, text };
}

describe.skipIf(!HAS_TMUX).concurrent("agentstream run in a real terminal (tmux)", () => {
  it("stdout and stderr the same terminal (npm run demo): every JSONL line whole on the screen, no spinner drawn", async () => {
    const terminal = new Terminal(
      scratch.dir,
      script({ REPLAY_SPEED: "20" }, [
        "run",
        "--backend",
        "evosci",
        "--bin",
        REPLAY,
        "--verbose",
        "Summarize data/results.csv into notes.md",
      ]),
    );
    try {
      expect(await terminal.exited()).toBe(0);
      const { events, text } = readScreen(terminal.screen());
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(events[0]!.type).toBe("run.started");
      expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "succeeded" });
      expect(text.filter((line) => SPINNER.test(line) || line.includes('{"v":1'))).toEqual([]);
      expect(text).toContainEqual(expect.stringMatching(/^✔ data-analysis-agent › execute \d/));
      expect(text.some((line) => line.startsWith("✔ succeeded in "))).toBe(true);
    } finally {
      terminal.close();
    }
  });

  it("stdout the same terminal: no spinner while the run goes on either", async () => {
    const gate = await openGate();
    const env = { STANDIN_TRANSCRIPT: transcript("evosci-steps.jsonl"), STANDIN_GATE_PORT: String(gate.port) };
    const terminal = new Terminal(scratch.dir, script(env, ["run", "--backend", "evosci", "--bin", STAND_IN, "do it"]));
    try {
      // The stand-in has written its first line and waits: agentstream is mid-run.
      const screen = await terminal.waitForScreen(
        (s) => s.includes('"type":"message.delta"'),
        "no message.delta on the screen",
      );
      expect(screen).not.toMatch(SPINNER);
      for (let i = 0; i < STEPS_LINES; i++) gate.next();
      expect(await terminal.exited()).toBe(0);
      const { events, text } = readScreen(terminal.screen());
      expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "succeeded" });
      expect(text).toEqual([
        expect.stringMatching(/^✔ ls \d+ms$/),
        expect.stringMatching(/^✔ succeeded in .* · 1 tool call$/),
      ]);
    } finally {
      terminal.close();
      await gate.close();
    }
  });

  it("stdout to a file: the spinner shows what the agent does, and is gone at the end, every line whole", async () => {
    const gate = await openGate();
    const out = scratch.path("out.jsonl");
    const env = { STANDIN_TRANSCRIPT: transcript("evosci-steps.jsonl"), STANDIN_GATE_PORT: String(gate.port) };
    const terminal = new Terminal(
      scratch.dir,
      script(env, ["run", "--backend", "evosci", "--bin", STAND_IN, "do it"], ` > ${sh(out)}`),
    );
    try {
      await terminal.waitForScreen((s) => s.includes("evosci · writing"), "no spinner on the screen");
      expect(terminal.cursorVisible()).toBe(false);
      for (let i = 0; i < STEPS_LINES; i++) gate.next();
      expect(await terminal.exited()).toBe(0);
      expect(terminal.cursorVisible()).toBe(true);
      const screen = terminal.screen();
      expect(screen).not.toMatch(SPINNER);
      expect(screen.split("\n")).toEqual([
        expect.stringMatching(/^✔ ls \d+ms$/),
        expect.stringMatching(/^✔ succeeded in .* · 1 tool call$/),
      ]);
      expect(verifyLines(readFileSync(out, "utf8").split("\n").filter(Boolean))).toEqual([]);
    } finally {
      terminal.close();
      await gate.close();
    }
  });

  it('Ctrl-C mid-run: the spinner is gone, the summary says "cancelled by SIGINT" once', async () => {
    const gate = await openGate();
    const env = {
      STANDIN_TRANSCRIPT: transcript("evosci-steps.jsonl"),
      STANDIN_GATE_PORT: String(gate.port),
      STANDIN_SIGNAL_LOG: scratch.path("signals.log"),
    };
    const terminal = new Terminal(
      scratch.dir,
      script(env, ["run", "--backend", "evosci", "--bin", STAND_IN, "do it"], " > /dev/null"),
    );
    try {
      await terminal.waitForScreen((s) => s.includes("evosci · writing"), "no spinner on the screen");
      terminal.keys("C-c");
      expect(await terminal.exited()).toBe(130);
      expect(terminal.cursorVisible()).toBe(true);
      const screen = terminal.screen();
      expect(screen).not.toMatch(SPINNER);
      expect(screen).toMatch(/^■ cancelled by SIGINT after \S+ · exit 130$/m);
      expect(screen).not.toContain("cancelled: cancelled");
    } finally {
      terminal.close();
      await gate.close();
    }
  });

  it("a failure's summary is wrapped to the terminal's width by agentstream, its JSON body taken apart", async () => {
    const env = {
      STANDIN_TRANSCRIPT: transcript("evosci-error-529.jsonl"),
      STANDIN_STDERR: `Traceback: ${"overloaded ".repeat(12)}\n`,
      STANDIN_END: "exit:1",
    };
    const terminal = new Terminal(
      scratch.dir,
      script(env, ["run", "--backend", "evosci", "--bin", STAND_IN, "do it"], " > /dev/null"),
      { width: 60 },
    );
    try {
      expect(await terminal.exited()).toBe(75);
      // capture-pane -J joins the lines the terminal itself wrapped: a line wider than the pane was not wrapped by us.
      const lines = terminal.screen().split("\n");
      expect(lines.filter((line) => line.length > 60 && !line.includes("│"))).toEqual([]);
      expect(lines.slice(0, 3)).toEqual([
        expect.stringMatching(/^✖ failed after \S+: the provider is overloaded, worth$/),
        "  retrying · exit 75",
        "  Error code: 529: Overloaded",
      ]);
      expect(lines.join("\n")).not.toContain("{");
    } finally {
      terminal.close();
    }
  });
});

describe("the summary when stderr is not a terminal", () => {
  it("wrapped to 100 columns, the prefix included, and no JSON inline", async () => {
    const knobs = { STANDIN_TRANSCRIPT: transcript("evosci-error-529.jsonl"), STANDIN_END: "exit:1" };
    const { result } = await runStandIn(scratch, ["--backend", "evosci", "x"], { knobs });
    expect(result.code).toBe(75);
    const lines = result.stderr.split("\n").filter(Boolean);
    expect(lines.filter((line) => line.length > 100)).toEqual([]);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^\[agentstream\] ✖ failed after \S+: the provider is overloaded, worth retrying · exit 75$/,
      ),
    );
    expect(lines).toContain("[agentstream]   Error code: 529: Overloaded");
    expect(lines).toContain("[agentstream]     type: error · error.type: overloaded_error");
    expect(result.stderr).not.toContain("{");
  });

  it("a secret longer than a line is hidden before the summary wraps it (the stream hides secrets per write)", async () => {
    const key = `key-${"0123456789".repeat(15)}`;
    const file = scratch.path("long-key.jsonl");
    writeFileSync(
      file,
      readFileSync(transcript("pi-error-400.jsonl"), "utf8").replace(
        "400 Invalid request: unknown parameter",
        `400 the key ${key} is not valid here`,
      ),
    );
    const { result } = await runStandIn(scratch, ["--backend", "pi", "hi"], {
      knobs: { STANDIN_TRANSCRIPT: file },
      env: { OPENAI_API_KEY: key },
    });
    expect(result.stderr).toContain("the key [redacted] is not valid here");
    expect(result.stderr).not.toContain(key.slice(0, 40));
    expect(result.stderr).not.toContain(key.slice(-40));
  });

  it("a secret where a retry's message is cut (200 characters) is hidden before the cut", async () => {
    const key = `key-${"abcdefghij".repeat(6)}`;
    const file = scratch.path("cut-key.jsonl");
    const retry = { type: "model_retry", attempt: 1, wait_seconds: 0, reason: `${"x".repeat(185)} ${key} rejected` };
    writeFileSync(file, `${JSON.stringify(retry)}\n${JSON.stringify({ type: "done", response: "ok" })}\n`);
    const { result } = await runStandIn(scratch, ["--backend", "evosci", "hi"], {
      knobs: { STANDIN_TRANSCRIPT: file },
      env: { OPENAI_API_KEY: key },
    });
    expect(result.stderr).toMatch(/↻ retry 1 in 0ms: x+ \[redacted\] re…\n/);
    expect(result.stderr).not.toContain(key.slice(0, 10));
  });
});
