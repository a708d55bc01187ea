// No raw agent text reaches stderr unescaped or unredacted (issue 45), for every
// backend and every text field a backend can fill: a stand-in replays a recorded
// run of each backend with terminal escapes, C1 controls, bidirectional overrides
// and secrets from the environment put into its session ids, model names, tool
// names, titles, commands, error messages and answers, and writes them on its own
// stderr too. The built bin runs it with and without --verbose; whatever stderr
// shows, it holds no control character but the newline, no override and no secret.
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, runCli } from "../../helpers/cli.js";
import { runStandIn, Scratch, STAND_IN, transcript } from "../../helpers/stand-in.js";

const scratch = new Scratch();
afterAll(() => scratch.remove());

// A token-shaped key (hidden by its shape too) and a plain one (hidden only because the environment holds it).
const SHAPED = "sk-Zq9aaaaaaaaaaaaaaaaaaaaXy7";
const PLAIN = "Qm4plain-value-Kt8";
const ENV = { OPENAI_API_KEY: SHAPED, MY_SERVICE_TOKEN: PLAIN };
const LEAKED = /Zq9|Xy7|Qm4|Kt8/;

// Retitles the terminal and rings, clears the screen, a C1 CSI, reversed and isolated text.
const ESCAPES = "\u001b]0;title\u0007\u001b[2J\u009b31m\u202eevil\u2066x\u2069";
/** Each text field gets the escapes and both secrets; the secrets after enough text that a cut may fall inside one. */
const HOSTILE = ` ${ESCAPES} key ${SHAPED} and ${PLAIN} ${"w ".repeat(40)}${PLAIN} ${"y".repeat(100)}${SHAPED} end`;

/** Lines of the agent's own stderr with a secret across each length a line may be cut at when shown. */
const STRADDLING = [80, 120, 200, 1000, 2000].map((cut) => `${"z".repeat(cut - 6)}${PLAIN}\n`).join("");

// Any control character but the newline, DEL, the C1 controls, and the bidirectional overrides and isolates.
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

// The native members that hold text a person reads: ids and types are left alone, so the run still pairs and ends.
const TEXT_MEMBERS = new Set([
  "session_id",
  "sessionId",
  "sessionID",
  "model",
  "modelID",
  "name",
  "tool_name",
  "toolName",
  "tool",
  "title",
  "message",
  "text",
  "content",
  "result",
  "error",
  "errorMessage",
  "description",
  "command",
  "reason",
  "detail",
  "response",
]);

function hostile(value: unknown, member?: string): unknown {
  if (typeof value === "string") return member !== undefined && TEXT_MEMBERS.has(member) ? `${value}${HOSTILE}` : value;
  if (Array.isArray(value)) return value.map((item) => hostile(item, member));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, hostile(item, key)]));
}

/** The golden's native stream with every text member made hostile, as a transcript file for the stand-in. */
function hostileTranscript(golden: string): string {
  const native = readFileSync(new URL(`../../fixtures/golden/${golden}.native.jsonl`, import.meta.url), "utf8");
  const lines = native.split("\n").map((line) => {
    try {
      return JSON.stringify(hostile(JSON.parse(line)));
    } catch {
      return line === "" ? line : `${line}${HOSTILE}`;
    }
  });
  const file = scratch.path(`${golden.replace("/", "-")}.jsonl`);
  writeFileSync(file, lines.join("\n"));
  return file;
}

// backend, golden: runs that end needing input (a resume hint), failing (the error and stderr tail) and succeeding.
const RUNS: Array<[string, string, Record<string, string>?]> = [
  ["claude", "claude/denied"],
  ["claude", "claude/error400", { STANDIN_END: "exit:1" }],
  ["claude", "claude/tool"],
  ["gemini", "gemini/denied"],
  ["gemini", "gemini/error400", { STANDIN_END: "exit:1" }],
  ["copilot", "copilot/denied"],
  ["copilot", "copilot/error400", { STANDIN_END: "exit:1" }],
  ["opencode", "opencode/denied"],
  ["opencode", "opencode/error400", { STANDIN_END: "exit:1" }],
  ["codex", "codex/error400", { STANDIN_END: "exit:1" }],
  ["pi", "atomic/pi-0.73-error400", { STANDIN_END: "exit:1" }],
  ["atomic", "atomic/atomic-tools"],
  ["evosci", "evosci/ask-user", { STANDIN_STDERR_AT_END: `EvoSci --resume id${ESCAPES}${SHAPED}\n` }],
  ["evosci", "evosci/error-quota", { STANDIN_END: "exit:1" }],
];

describe.concurrent("an agent's hostile text on stderr: escaped and redacted, for every backend", () => {
  for (const [backend, golden, knobs] of RUNS) {
    for (const verbose of [false, true]) {
      it(`${golden}${verbose ? " --verbose" : ""}`, async () => {
        const { result } = await runStandIn(
          scratch,
          ["--backend", backend, ...(verbose ? ["--verbose"] : []), "--", `do it${HOSTILE}`],
          {
            knobs: {
              STANDIN_TRANSCRIPT: hostileTranscript(golden),
              STANDIN_STDERR: `starting${HOSTILE}\n${STRADDLING}`,
              STANDIN_VERSION: "99.0.0",
              ...knobs,
            },
            env: ENV,
          },
        );
        // The run got far enough to say something of the agent's (its stderr, a tool, an error, a hint).
        expect(result.stderr, result.stderr).toContain("␛]0;title␇");
        expectClean(result.stderr);
        // The stream is redacted too: no part of a secret in it, the stderr tail's cut lines included.
        expect(LEAKED.exec(result.stdout)?.index).toBeUndefined();
      });
    }
    it(`normalize --from ${backend} ${golden} --stderr FILE`, async () => {
      const stderrFile = scratch.path("stderr.txt");
      writeFileSync(stderrFile, `starting${HOSTILE}\n${STRADDLING}${knobs?.STANDIN_STDERR_AT_END ?? ""}`);
      const result = await runCli(["normalize", "--from", backend, "--stderr", stderrFile, hostileTranscript(golden)], {
        env: ENV,
      });
      expectClean(result.stderr);
      expect(LEAKED.exec(result.stdout)?.index).toBeUndefined();
    });
  }
});

// An ACP agent whose every field is hostile, driven live: rules answer its permission request (allowed,
// refused: needs_input and its resume hint), or it fails with an error response.
const HOSTILE_AGENT = fileURLToPath(new URL("../../fixtures/acp/hostile-text-agent.mjs", import.meta.url));

describe.concurrent("an ACP agent's hostile text on stderr: escaped and redacted", () => {
  const cases: Array<[string, string[], string, Record<string, string>?]> = [
    ["a request no rule allows (needs input, resume hint)", [], "ask"],
    ["a request a rule allows", ["--allow-tool", "shell"], "ask"],
    ["an error response", [], "fail"],
    // Once the ACP SDK said "Got response to unknown request <id>" on stderr itself, the id raw.
    ["a response to a request never sent", [], "ask", { HOSTILE_UNKNOWN_RESPONSE: "1" }],
  ];
  for (const [what, flags, prompt, env = {}] of cases) {
    for (const verbose of [false, true]) {
      it(`${what}${verbose ? " --verbose" : ""}`, async () => {
        const args = ["run", "--backend", "acp", "--bin", process.execPath, "--backend-arg", HOSTILE_AGENT];
        const result = await runCli([...args, ...flags, ...(verbose ? ["--verbose"] : []), "--", prompt], {
          env: { ...ENV, ...env, HOSTILE_TEXT: HOSTILE },
        });
        expect(result.stderr, result.stderr).toContain("␛]0;title␇");
        expectClean(result.stderr);
      });
    }
  }
});

/** No raw control character, override or secret in what stderr shows. */
function expectClean(stderr: string): void {
  const raw = RAW.exec(stderr);
  expect(
    raw && {
      char: raw[0].codePointAt(0)!.toString(16),
      around: stderr.slice(raw.index - 40, raw.index + 10),
    },
  ).toBeNull();
  const leak = LEAKED.exec(stderr);
  expect(leak && stderr.slice(leak.index - 60, leak.index + 20)).toBeNull();
}

describe.concurrent("agentstream's own messages that quote a secret or an agent's words", () => {
  it.each([
    ["a usage error quoting a path", ["run", "--backend", "evosci", "--cwd", `/nonexistent/${HOSTILE}`, "x"]],
    ["commander refusing a value", ["run", "--backend", `x${HOSTILE}`, "x"]],
    ["commander refusing an option, and its hint", ["run", "--backend", "evosci", `--x${HOSTILE}`]],
    ["normalize: a --stderr file that is not there", ["normalize", "--stderr", `/nonexistent/${HOSTILE}`, "-"]],
  ])("%s: escaped and redacted", async (_what, args) => {
    const result = await runCli(args, { env: ENV, input: "" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("[redacted]");
    expectClean(result.stderr);
  });

  it("an answer that is not JSON (--output-schema): the parse error quotes none of it, on stderr or stdout", async () => {
    const schema = scratch.path("schema.json");
    writeFileSync(schema, '{"type":"object"}');
    const recording = scratch.path("answer.jsonl");
    const answer = `\`\`\`json\n{"a": ${PLAIN}${HOSTILE}}\n\`\`\``;
    writeFileSync(recording, `${JSON.stringify({ type: "done", response: answer })}\n`);
    const result = await runCli(["normalize", "--from", "evosci", "--output-schema", schema, recording], { env: ENV });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("not JSON");
    expectClean(result.stderr);
    expect(result.stdout).not.toMatch(LEAKED);
  });

  // A translator bug whose error quotes the native text (as one quoting a native value would), a secret
  // across the length the report is cut at (500): said by the CLI, and by the library as a process warning.
  const translator = new URL("../../../dist/backends/evosci/translator.js", import.meta.url).href;
  const bug = `import { EvosciTranslator as T } from ${JSON.stringify(translator)};
    const translate = T.prototype.translate;
    T.prototype.translate = function (event) {
      if (event.type === "tool_call") throw new Error(process.env.HOSTILE_BUG);
      return translate.call(this, event);
    };`;
  const library = new URL("../../../dist/index.js", import.meta.url).href;
  const steps = transcript("evosci-steps.jsonl");
  const calls: Record<string, string[]> = {
    "run (CLI)": [
      "--import",
      `data:text/javascript,${encodeURIComponent(bug)}`,
      BIN,
      "run",
      "--backend",
      "evosci",
      "--bin",
      STAND_IN,
      "x",
    ],
    "normalize (CLI)": [
      "--import",
      `data:text/javascript,${encodeURIComponent(bug)}`,
      BIN,
      "normalize",
      "--from",
      "evosci",
      steps,
    ],
    "the library's run()": [
      "--input-type=module",
      "--eval",
      `${bug}
      import { run } from ${JSON.stringify(library)};
      for await (const e of run({ backend: "evosci", bin: ${JSON.stringify(STAND_IN)}, prompt: "x" })) void e;`,
    ],
    "the library's normalizeStream()": [
      "--input-type=module",
      "--eval",
      `${bug}
      import { normalizeStream } from ${JSON.stringify(library)};
      for await (const e of normalizeStream([${JSON.stringify(readFileSync(steps, "utf8"))}], { from: "evosci" })) void e;`,
    ],
  };
  it.each(Object.keys(calls))("%s: a translator bug quoting the agent", async (call) => {
    const result = await promisify(execFile)(process.execPath, calls[call]!, {
      env: {
        ...process.env,
        ...ENV,
        NO_COLOR: "1",
        HOSTILE_BUG: `${HOSTILE}${"z".repeat(494 - HOSTILE.length)}${PLAIN}`,
        STANDIN_TRANSCRIPT: steps,
      },
    }).catch((err: { stderr: string }) => err);
    expect(result.stderr).toContain("bug: translating");
    expect(result.stderr).toContain("␛]0;title␇");
    expectClean(result.stderr);
  });
});
