// agentstream normalize says on stderr what went wrong, in one line and a hint,
// and keeps stdout canonical; a clean run stays quiet.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { BACKENDS } from "../../../src/backends/registry.js";
import { MAX_HELD_BYTES } from "../../../src/core/translation-session.js";
import { BIN, parseJsonl, runCli, SAMPLES, type CliResult } from "../../helpers/cli.js";
import { verifyLines } from "../../helpers/verify.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const PI = join(ROOT, "examples/pi/tool.native.jsonl");
const scratch = mkdtempSync(join(tmpdir(), "agentstream-normalize-stderr-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The run wrote a whole canonical stream on stdout, whatever stderr says. */
function expectCanonical(run: CliResult): Record<string, unknown>[] {
  expect(verifyLines(run.stdout.split("\n").filter((l) => l !== ""))).toEqual([]);
  return parseJsonl(run.stdout);
}

function stderrLines(run: CliResult): string[] {
  return run.stderr.split("\n").filter((l) => l !== "");
}

describe("normalize on stderr", () => {
  it("docs/canonical-stream.md (one JSON line among prose): exit 76, one summary line and a hint that this is no native stream", async () => {
    const run = await runCli(["normalize", join(ROOT, "docs/canonical-stream.md")]);
    expect(run.code).toBe(76);
    expectCanonical(run);
    const [summary, hint, ...rest] = stderrLines(run);
    expect(summary).toMatch(
      /^agentstream: .*canonical-stream\.md: 1 JSON event and \d+ other lines, read as evosci \(a guess\) · ✖ failed .*exit 76$/,
    );
    const names = BACKENDS.map((b) => b.displayName);
    expect(hint).toBe(
      `hint: this is not a native stream: normalize reads the JSON lines ${names.slice(0, -1).join(", ")} or ${names.at(-1)} write on stdout`,
    );
    expect(rest).toEqual([]);
  });

  it("/bin/ls: the same, in one line and a hint", async () => {
    const run = await runCli(["normalize", "/bin/ls"]);
    expect(run.code).toBe(76);
    expectCanonical(run);
    expect(stderrLines(run)).toEqual([
      expect.stringMatching(
        /^agentstream: \/bin\/ls: no JSON event in \d+ lines, read as evosci \(a guess\) · .*backend_protocol.*exit 76$/,
      ),
      expect.stringMatching(/^hint: this is not a native stream/),
    ]);
  });

  it("an empty file says so", async () => {
    const empty = join(scratch, "empty.jsonl");
    writeFileSync(empty, "");
    const run = await runCli(["normalize", empty]);
    expect(run.code).toBe(76);
    expectCanonical(run);
    expect(stderrLines(run)).toEqual([
      expect.stringMatching(/^agentstream: .*empty\.jsonl: empty input, read as evosci \(a guess\) · .*exit 76$/),
    ]);
    // Nothing was read, so no backend crashed: the line says the input was empty.
    expect(run.stderr).toContain("the input was empty: nothing to translate (backend_crashed)");
    expect(run.stderr).not.toContain("the backend crashed");
  });

  it("--from evosci on an Atomic stream: try --from atomic", async () => {
    const run = await runCli(["normalize", "--from", "evosci", join(SAMPLES, "atomic/text.jsonl")]);
    expect(run.code).toBe(76);
    expectCanonical(run);
    expect(stderrLines(run)).toEqual([
      expect.stringMatching(/read as evosci \(as given\) · .*exit 76$/),
      "hint: this looks like Atomic: try --from atomic",
    ]);
  });

  it("an already-canonical file: use verify", async () => {
    const file = join(ROOT, "examples/pi/tool.canonical.jsonl");
    const lines = readFileSync(file, "utf8").trim().split("\n").length;
    const run = await runCli(["normalize", file]);
    expect(run.code).toBe(76);
    expectCanonical(run);
    expect(stderrLines(run)).toEqual([
      expect.stringMatching(new RegExp(`${lines} JSON events, read as evosci \\(a guess\\)`)),
      "hint: this looks like a canonical stream (agentstream's own output): check it with agentstream verify",
    ]);
  });

  it("a stream that does not tell pi from Atomic: the guess is said", async () => {
    const run = await runCli(["normalize", join(SAMPLES, "pi/0.73.1-error400.jsonl")]);
    expect(run.code).toBe(1);
    expect(expectCanonical(run)[0]).toMatchObject({ backend: "pi", detection: "guessed" });
    expect(stderrLines(run)).toEqual([
      expect.stringMatching(/9 JSON events, read as pi \(a guess\) · ✖ failed .*exit 1$/),
      "hint: the stream does not tell pi from Atomic: name it with --from pi or --from atomic",
    ]);
  });

  it("a clean pi run after more warning lines than detection holds: the guess is said at once, the hint at the end", async () => {
    const warnings = "Warning: something minor\n".repeat(Math.ceil(MAX_HELD_BYTES / 25) + 1);
    const run = await runCli(["normalize", "--backend-exit", "0"], { input: warnings + readFileSync(PI, "utf8") });
    expect(run.code).toBe(76);
    expect(expectCanonical(run)[0]).toMatchObject({ backend: "evosci", detection: "guessed" });
    expect(stderrLines(run)).toEqual([
      "agentstream: 1 MiB read and the input has not shown which backend wrote it: read as evosci, a guess (name it with --from)",
      expect.stringMatching(
        /^agentstream: stdin: 27 JSON events and \d+ other lines, read as evosci \(a guess\) · .*exit 76$/,
      ),
      "hint: this looks like pi: try --from pi",
    ]);
    // Within the bound the same stream is told by its content.
    const fewer = await runCli(["normalize", "--backend-exit", "0"], {
      input: "Warning: something minor\n".repeat(1001) + readFileSync(PI, "utf8"),
    });
    expect(fewer.code).toBe(0);
    expect(expectCanonical(fewer)[0]).toMatchObject({ backend: "pi", detection: "detected" });
    expect(fewer.stderr).toBe("");
  });

  it("a clean run is quiet", async () => {
    const run = await runCli(["normalize", "--backend-exit", "0", PI]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
  });

  it("reading stdin from a terminal says so once; a pipe does not", () => {
    const done = '{"type": "done", "content": "hi", "response": "hi"}\n';
    const tty = spawnSync(
      "python3",
      [join(ROOT, "test/helpers/with_pty_stdin.py"), done, process.execPath, BIN, "normalize"],
      { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } },
    );
    expect(tty.status, tty.stderr).toBe(0);
    const run = JSON.parse(tty.stdout) as { code: number; stdout: string; stderr: string };
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("agentstream: reading a native stream from stdin (Ctrl-D ends it)…\n");
    expect(parseJsonl(run.stdout).at(-1)).toMatchObject({ type: "run.finished", status: "succeeded" });
    const piped = spawnSync(process.execPath, [BIN, "normalize"], { input: done, encoding: "utf8" });
    expect(piped.status).toBe(0);
    expect(piped.stderr).toBe("");
  });
});

describe("normalize's summary and secrets", () => {
  it("hides a secret value of its environment that the error message echoes, as stdout does", async () => {
    const key = "plain-secret-value-1234567890";
    const run = await runCli(["normalize", "--from", "evosci"], {
      input: `{"type": "error", "message": "401: bad key ${key}"}\n`,
      env: { ...process.env, DB_PASSWORD: key },
    });
    expect(run.code).toBe(77);
    expect(run.stderr).toMatch(
      /^agentstream: stdin: 1 JSON event, read as evosci \(as given\) · .*\[redacted\].*exit 77\n$/,
    );
    expect(run.stderr).not.toContain("1234567890");
  });
});
