import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { PassThrough } from "node:stream";
import { LineWriter } from "../../../src/output/line-writer.js";
import { backendNamed } from "../../../src/backends/registry.js";
import { Redactor, redactTokens } from "../../../src/core/redactor.js";
import { redactSecrets, runRedactor } from "../../../src/run/redact.js";
import { RunSupervisor } from "../../../src/run/supervisor.js";
import { runCli } from "../../helpers/cli.js";
import { expectCanonical, runStandIn, Scratch, STAND_IN, standInEnv, transcript } from "../../helpers/stand-in.js";

// No shell anywhere: what agentstream is given reaches the backend byte for
// byte, and --bin is a path, never a command line. Secrets given to the
// backend never show in the canonical stream or on stderr.

const scratch = new Scratch();
afterAll(() => scratch.remove());

const SRC = fileURLToPath(new URL("../../../src/", import.meta.url));
const SUCCESS = { evosci: "evosci-success.jsonl", atomic: "atomic-success.jsonl", pi: "atomic-success.jsonl" } as const;

/** Files that a shell, had one run, would have created in the backend's directory. */
const PLANTED = ["pwned-dollar", "pwned-backtick", "pwned-semicolon"];
const HOSTILE = [
  `it's "quoted" \\ and 'single'`,
  "$(touch pwned-dollar)",
  "`touch pwned-backtick`",
  "; touch pwned-semicolon; #",
  "$HOME ~ * ? [a] {b,c} | & > out < in",
  "two\nlines\r\nand a\ttab",
  "naïve 中文 🚀 \u2028 \u202e mirrored \u0301",
  "-leading-dash",
  "--looks=like-a-flag",
  "",
  " ",
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

/** A run that succeeds: what the backend was given, and run.started. */
async function succeed(
  backend: keyof typeof SUCCESS,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; bin?: string } = {},
) {
  const knobs = { STANDIN_TRANSCRIPT: transcript(SUCCESS[backend]), STANDIN_VERSION: "1.6.0" };
  const { result, standIn } = await runStandIn(scratch, ["--backend", backend, ...args], { ...options, knobs });
  expect(result.code, result.stderr).toBe(0);
  return { result, record: standIn!, started: expectCanonical(result).events[0]! };
}

/** argv as the kernel holds it: each argument's UTF-8 bytes, NUL-terminated. */
function asBytes(argv: string[]): string {
  return Buffer.concat(argv.map((arg) => Buffer.from(`${arg}\0`, "utf8"))).toString("base64");
}

describe("agentstream run: no shell", () => {
  it("the source spawns with no shell and never calls exec", () => {
    const offences = sourceFiles(SRC).flatMap((file) => {
      const text = readFileSync(file, "utf8");
      // A spawn option is written where child_process is imported: elsewhere `shell:` is a portable tool's
      // name (a backend's `toolNames.tools`, the rules' ARGUMENT_OF), no spawn option.
      const spawns = /from\s*"node:child_process"/.test(text);
      const found = [
        ...(spawns ? [/(?<!tools:\s*\{\s*)\bshell\s*:/] : []),
        /(?<![.\w])exec(?:Sync)?\s*\(/,
        /\bexecFile(?:Sync)?\b/,
        /\bexecSync\b/,
      ].filter((pattern) => pattern.test(text));
      const imports = /import\s*\{([^}]*)\}\s*from\s*"node:child_process"/.exec(text)?.[1] ?? "";
      const unexpected = imports
        .split(",")
        .map((name) => name.trim())
        .filter((name) => name !== "" && !/^(?:type\s+)?(?:spawn|ChildProcess\w*)$/.test(name));
      return [
        ...found.map((pattern) => `${file}: ${pattern}`),
        ...unexpected.map((name) => `${file}: imports ${name}`),
      ];
    });
    expect(offences).toEqual([]);
  });
});

describe.concurrent("agentstream run: arguments reach the backend byte for byte", () => {
  const prompt = `-p ${HOSTILE.join(" ")}`;
  const backendArgs = HOSTILE.map((arg) => `--backend-arg=${arg}`);

  it.each([
    { backend: "evosci" as const, args: ["-p", prompt, "--output-format", "stream-json", ...HOSTILE] },
    {
      backend: "atomic" as const,
      args: ["--mode", "json", "--model", "$(touch pwned-dollar)", ...HOSTILE, "--", prompt],
    },
    { backend: "pi" as const, args: ["--mode", "json", "--model", "$(touch pwned-dollar)", ...HOSTILE, "--", prompt] },
  ])(
    "$backend: quotes, $(), backticks, newlines, non-ASCII, a leading -, an empty string",
    async ({ backend, args }) => {
      const cwd = scratch.path("cwd");
      mkdirSync(cwd);
      const model = backend === "evosci" ? [] : ["--model", "$(touch pwned-dollar)"];
      const { record, started } = await succeed(backend, [...model, ...backendArgs, "--", prompt], { cwd });
      expect(record.argv).toEqual(args);
      expect(record.argvBytes).toBe(asBytes(args));
      expect(started.command).toEqual([STAND_IN, ...args]);
      expect(readdirSync(cwd).filter((name) => PLANTED.includes(name))).toEqual([]);
    },
  );

  it("--bin is a path, never a command line: spaces and shell metacharacters in it are just characters", async () => {
    const dir = scratch.path("a dir; touch pwned-semicolon & $(touch pwned-dollar)");
    mkdirSync(dir);
    const bin = join(dir, "back end `touch pwned-backtick` 'it' \"q\" | x.mjs");
    symlinkSync(STAND_IN, bin);
    const { record, started, result } = await succeed("evosci", ["--verbose", "--cwd", dir, "hi"], { bin, cwd: dir });
    expect(record.argv).toEqual(["-p", "hi", "--output-format", "stream-json"]);
    expect(started.command).toEqual([bin, ...record.argv]);
    expect(result.stderr).toContain(`running '${bin.replace(/'/g, `'\\''`)}' -p hi`);
    expect(readdirSync(dir).filter((name) => PLANTED.includes(name))).toEqual([]);
  });

  it("AGENTSTREAM_EVOSCI_BIN is a path too", async () => {
    const bin = join(scratch.dir, "$(touch pwned-dollar) evosci");
    symlinkSync(STAND_IN, bin);
    const { started } = await succeed("evosci", ["hi"], { bin, env: { AGENTSTREAM_EVOSCI_BIN: bin } });
    expect(started.command).toEqual([bin, "-p", "hi", "--output-format", "stream-json"]);
    expect(existsSync(join(scratch.dir, "pwned-dollar"))).toBe(false);
  });

  it("a prompt that cannot reach the backend byte for byte is refused (exit 2), nothing run: a NUL byte, invalid UTF-8", async () => {
    const withNul = scratch.path("nul.txt");
    writeFileSync(withNul, "before\0after");
    const latin1 = scratch.path("latin1.txt");
    writeFileSync(latin1, Buffer.from("caf\xe9", "latin1"));
    const cases = [
      { args: ["--prompt-file", withNul], message: "NUL byte" },
      { args: ["--prompt-file", latin1], message: "is not valid UTF-8" },
      { args: ["-"], input: Buffer.from("caf\xe9\n", "latin1"), message: "the prompt on stdin is not valid UTF-8" },
    ];
    for (const { args, input, message } of cases) {
      const record = scratch.recordPath();
      const result = await runCli(["run", "--backend", "evosci", "--bin", STAND_IN, ...args], {
        input,
        env: standInEnv(record, {}),
      });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(message);
      expect(existsSync(record)).toBe(false);
    }
  });
});

describe.concurrent("agentstream run: secrets stay out of the stream and the logs", () => {
  const env = {
    OPENAI_API_KEY: "sk-env-openai-0123456789",
    MY_SERVICE_TOKEN: "tok-env-service-abcdef",
    DB_PASSWORD: "hunter2-env-password",
    GOOGLE_APPLICATION_CREDENTIALS: "/secrets/env-credentials.json",
  };
  const flagSecrets = ["sk-flag-api-key-1", "sk-flag-token-2", "client-secret-flag-3", "pass\nword-flag-4"];
  const args = [
    "--backend-arg=--api-key",
    `--backend-arg=${flagSecrets[0]}`,
    `--backend-arg=--openai-token=${flagSecrets[1]}`,
    "--backend-arg=--client-secret",
    `--backend-arg=${flagSecrets[2]}`,
    `--backend-arg=--password=${flagSecrets[3]}`,
    `--backend-arg=--header=Authorization: Bearer ${env.OPENAI_API_KEY}`,
    `--backend-arg=--credentials=${env.GOOGLE_APPLICATION_CREDENTIALS}`,
    "--backend-arg=--max-tokens",
    "--backend-arg=100000",
    "--verbose",
    "--",
    `call the API with ${env.MY_SERVICE_TOKEN} and ${env.DB_PASSWORD}`,
  ];

  it("values of --api-key-style flags and of secret environment variables: hidden in run.started.command and the --verbose command line", async () => {
    const { result, record, started } = await succeed("atomic", args, { env });
    // The backend gets every value as given.
    expect(record.argv).toEqual([
      "--mode",
      "json",
      "--api-key",
      flagSecrets[0],
      `--openai-token=${flagSecrets[1]}`,
      "--client-secret",
      flagSecrets[2],
      `--password=${flagSecrets[3]}`,
      `--header=Authorization: Bearer ${env.OPENAI_API_KEY}`,
      `--credentials=${env.GOOGLE_APPLICATION_CREDENTIALS}`,
      "--max-tokens",
      "100000",
      "--",
      `call the API with ${env.MY_SERVICE_TOKEN} and ${env.DB_PASSWORD}`,
    ]);
    expect(started.command).toEqual([
      STAND_IN,
      "--mode",
      "json",
      "--api-key",
      "[redacted]",
      "--openai-token=[redacted]",
      "--client-secret",
      "[redacted]",
      "--password=[redacted]",
      "--header=Authorization: Bearer [redacted]",
      "--credentials=[redacted]",
      "--max-tokens",
      "100000",
      "--",
      "call the API with [redacted] and [redacted]",
    ]);
    expect(result.stderr).toMatch(/running .* --api-key "\[redacted\]"/);
    for (const secret of [...flagSecrets, ...Object.values(env)]) {
      for (const [where, text] of [
        ["stdout", result.stdout],
        ["stderr", result.stderr],
      ] as const) {
        expect(
          text.includes(secret) || text.includes(JSON.stringify(secret).slice(1, -1)),
          `${where} shows ${JSON.stringify(secret)}`,
        ).toBe(false);
      }
    }
  });
});

describe("agentstream run: secrets the backend prints", () => {
  // A key with a quote and a backslash: on a JSON line it shows escaped.
  const envKey = 'sk-envkey-0123456789"q\\b';
  const argKey = "sk-argkey-abcdef123456";
  const said = `401 Unauthorized: key ${envKey} / ${argKey} rejected`;

  /** A pi run whose backend prints both keys on stderr and in its error event. */
  async function leaky(extra: string[]) {
    const native = readFileSync(transcript("pi-error-400.jsonl"), "utf8").replace(
      "400 Invalid request: unknown parameter",
      JSON.stringify(said).slice(1, -1),
    );
    const file = scratch.path("leaky.jsonl");
    writeFileSync(file, native);
    const knobs = {
      STANDIN_TRANSCRIPT: file,
      STANDIN_STDERR: `starting with ${envKey}\n`,
      STANDIN_STDERR_AT_END: `${said}\n`,
      STANDIN_END: "exit:0",
    };
    const { result } = await runStandIn(
      scratch,
      ["--backend", "pi", `--backend-arg=--api-key=${argKey}`, ...extra, "hi"],
      { knobs, env: { OPENAI_API_KEY: envKey } },
    );
    // 401: the provider refused the key.
    expect(result.code, result.stderr).toBe(77);
    return result;
  }

  function expectNoKeys(where: string, text: string): void {
    for (const secret of [envKey, argKey]) {
      expect(
        text.includes(secret) || text.includes(JSON.stringify(secret).slice(1, -1)),
        `${where} shows ${secret}`,
      ).toBe(false);
    }
  }

  it("hidden on stdout (jsonl, --raw) and in the stderr summary; the error event, error.message and stderr_tail say [redacted]", async () => {
    for (const extra of [[], ["--raw"]]) {
      const result = await leaky(extra);
      expectNoKeys(`stdout ${extra}`, result.stdout);
      expectNoKeys(`stderr ${extra}`, result.stderr);
      const { events, finished } = expectCanonical(result);
      const error = events.find((event) => event.type === "error") as { message: string };
      expect(error.message).toBe("401 Unauthorized: key [redacted] / [redacted] rejected");
      expect((finished.error as { message: string }).message).toContain("[redacted]");
      expect((finished.stderr_tail as string[]).join("\n")).toContain("starting with [redacted]");
      expect(result.stderr).toContain("[redacted]");
    }
  });

  it("hidden in --output json and --output text, and in the --verbose passthrough of the backend's stderr", async () => {
    const json = await leaky(["--output", "json"]);
    expectNoKeys("--output json", json.stdout);
    expect(JSON.parse(json.stdout).stderr_tail.join("\n")).toContain("[redacted]");
    const text = await leaky(["--output", "text"]);
    expectNoKeys("--output text stdout", text.stdout);
    expectNoKeys("--output text stderr", text.stderr);
    const verbose = await leaky(["--verbose"]);
    expectNoKeys("--verbose stderr", verbose.stderr);
    expect(verbose.stderr).toContain("starting with [redacted]");
  });
});

describe("agentstream run: token-shaped strings", () => {
  const openai = "sk-proj-ABCDEFGHIJKLMNOPQRSTuvwx1234";
  const github = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
  const slack = "xoxb-1234567890-abcdefghijkl";
  const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl_-x";
  const bearer = "opaque.bearer.token.0123456789";

  it("hidden in run.started.command, the --verbose command line, stderr and the error event, though no flag or variable names them", async () => {
    const said = `failed: ${github} ${slack} ${jwt} Bearer ${bearer}`;
    const native = readFileSync(transcript("pi-error-400.jsonl"), "utf8").replace(
      "400 Invalid request: unknown parameter",
      said,
    );
    const file = scratch.path("tokens.jsonl");
    writeFileSync(file, native);
    const knobs = { STANDIN_TRANSCRIPT: file, STANDIN_STDERR: `${said}\n`, STANDIN_END: "exit:0" };
    const args = [
      "--backend",
      "pi",
      `--backend-arg=--header=Authorization: Bearer ${bearer}`,
      "--backend-arg=-k",
      `--backend-arg=${openai}`,
      "--verbose",
      "hi",
    ];
    const { result, standIn } = await runStandIn(scratch, args, { knobs });
    expect(standIn!.argv).toContain(openai);
    const { events } = expectCanonical(result);
    expect((events[0] as { command: string[] }).command).toEqual(
      expect.arrayContaining(["--header=Authorization: Bearer [redacted]", "-k", "[redacted]"]),
    );
    expect((events.find((event) => event.type === "error") as { message: string }).message).toBe(
      "failed: [redacted] [redacted] [redacted] Bearer [redacted]",
    );
    for (const token of [openai, github, slack, jwt, bearer]) {
      expect(result.stdout.includes(token), `stdout shows ${token}`).toBe(false);
      expect(result.stderr.includes(token), `stderr shows ${token}`).toBe(false);
    }
  });

  it("normalize hides them too, and each line stays valid JSON", async () => {
    const file = scratch.path("native.jsonl");
    writeFileSync(
      file,
      readFileSync(transcript("pi-error-400.jsonl"), "utf8").replace(
        "400 Invalid request: unknown parameter",
        `line one\\n${openai}`,
      ),
    );
    const result = await runCli(["normalize", "--raw", file]);
    expect(result.stdout.includes(openai)).toBe(false);
    expect(expectCanonical(result).events.find((event) => event.type === "error")).toMatchObject({
      message: "line one\n[redacted]",
    });
  });
});

describe("redaction rules", () => {
  it("a secret flag is known by its last word; its value may hold a newline", () => {
    expect(
      redactSecrets([
        "--password=a\nb",
        "-api_key",
        "k1",
        "--key",
        "k2",
        "--gpg-passphrase=p",
        "--max-tokens",
        "100",
        "--api-key-file",
        "/k.txt",
      ]),
    ).toEqual([
      "--password=[redacted]",
      "-api_key",
      "[redacted]",
      "--key",
      "[redacted]",
      "--gpg-passphrase=[redacted]",
      "--max-tokens",
      "100",
      "--api-key-file",
      "/k.txt",
    ]);
  });

  it("token shapes: sk-, ghp_/github_pat_, xox[abp]-, JWTs, Bearer; not look-alikes", () => {
    const cases = [
      ["-k sk-ant-api03-abcdefghijklmnop", "-k [redacted]"],
      ["Authorization: Bearer abc.def-ghi_jkl", "Authorization: Bearer [redacted]"],
      ["github_pat_11ABCDEFG0123456789_abcdef", "[redacted]"],
      ["xoxp-0123456789-abc", "[redacted]"],
      ["a eyJx.eyJy.z b", "a [redacted] b"],
      [
        "scikit sk-learn, risk-assessment-for-the-next-quarter, Bearer short, ghp_short, eyJonly",
        "scikit sk-learn, risk-assessment-for-the-next-quarter, Bearer short, ghp_short, eyJonly",
      ],
    ];
    for (const [text, redacted] of cases) expect(redactTokens(text!)).toBe(redacted);
  });

  it("secret environment values are hidden wherever they appear, the longest first; short values are left alone", () => {
    const env = {
      A_KEY: "abcdef",
      A_LONGER_KEY: "abcdefghij",
      FLAG_TOKEN: "1",
      PATH: "/usr/bin:/bin",
      HOME: "/home/someone",
    };
    const redactor = runRedactor([], env);
    expect(["x=abcdefghij", "abcdef!", "1 /usr/bin /home/someone"].map((arg) => redactor.text(arg))).toEqual([
      "x=[redacted]",
      "[redacted]!",
      "1 /usr/bin /home/someone",
    ]);
  });

  it("a JSON line keeps its shape when a secret is also a key name or the digits of a number; only string values change", () => {
    const redactor = new Redactor(["message", "123456", 's3cr"et']);
    const line = JSON.stringify({
      type: "error",
      message: 'message 123456 s3cr"et',
      ms: 91234567,
      raw: { message: ["x message"] },
    });
    const redacted = redactor.jsonLine(line);
    expect(JSON.parse(redacted)).toEqual({
      type: "error",
      message: "[redacted] [redacted] [redacted]",
      ms: 91234567,
      raw: { message: ["x [redacted]"] },
    });
    const untouched = JSON.stringify({ type: "x", n: 1 });
    expect(redactor.jsonLine(untouched)).toBe(untouched);
  });

  it("spawn refusing an argument outright is a launch failure that does not quote it", async () => {
    const supervisor = new RunSupervisor({
      spec: backendNamed("evosci"),
      file: STAND_IN,
      args: ["sk-secret\0"],
      cwd: process.cwd(),
      env: process.env,
      graceMs: 100,
      writer: new LineWriter(new PassThrough()),
      onStdout: () => {},
      onStderr: () => {},
      stderrShown: { needsDrain: false, drained: () => Promise.resolve() },
      onStatus: () => {},
    });
    const end = await supervisor.run();
    expect(end).toEqual({
      kind: "launch_failed",
      message: `EvoScientist executable ${STAND_IN} could not be started: ERR_INVALID_ARG_VALUE`,
      code: "ERR_INVALID_ARG_VALUE",
    });
  });
});
